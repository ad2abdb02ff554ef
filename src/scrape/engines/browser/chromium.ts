/**
 * Locating and launching the system Chromium. Playwright's bundled browsers are never
 * downloaded; the operator installs Chromium (or points CHROMIUM_PATH at one).
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { playwright } from './playwright.js';

const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** Where distributions put it; tried last in case PATH is trimmed (systemd units, cron). */
const CONVENTIONAL_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  // Containers rarely grant the user namespaces the sandbox needs; isolation comes from the container.
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // Chromium's own update/telemetry connections are refused on closed networks and only add noise.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // /dev/shm is 64 MB in default Docker; large pages crash the renderer there.
  '--disable-dev-shm-usage',
  // WebRTC can open UDP sockets to any address (STUN/TURN servers a page names), outside both
  // request routing and the guard proxy: no UDP unless proxied, and the proxy speaks only TCP.
  // Current Chromium reads the first spelling; older builds read only the second.
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The configured executable when it exists, else the first Chromium-like binary on PATH. */
export function findChromium(configured?: string): string | undefined {
  if (configured && isExecutableFile(configured)) return configured;
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of PATH_NAMES) {
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return isExecutableFile(CONVENTIONAL_PATH) ? CONVENTIONAL_PATH : undefined;
}

export async function launchChromium(executablePath: string, opts: { timeoutMs?: number } = {}): Promise<Browser> {
  const { chromium } = await playwright();
  return chromium.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS],
    timeout: opts.timeoutMs ?? 30_000,
    // The server drains and closes engines itself on shutdown; Playwright's own handlers would
    // kill the browser (and exit) underneath requests still being answered.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
