/**
 * A Chromium of its own for a session that hands out raw CDP. A CDP endpoint of the shared
 * Chromium would reach every other team's contexts, so this one is launched per session, with
 * remote debugging on loopback only (the API relays it after authenticating the caller).
 *
 * Its network boundary is process-wide: the guard proxy is Chromium's proxy for every context,
 * including the ones a CDP client creates, and `<-loopback>` (which Playwright adds) sends
 * loopback through it too. Gleaner keeps its own Playwright handle on the default context, with
 * the same request routing as any session, for `execute`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { ApiError } from '../../../errors.js';
import { CHROMIUM_ARGS } from './chromium.js';
import { GuardProxy } from './guard-proxy.js';
import { Lease } from './lease.js';
import { playwright } from './playwright.js';
import type { SessionContext, SessionContextOptions } from './session-context.js';
import { restoreLocalStorageScript } from './storage-state.js';
import { noop, sleep, withTimeout } from './waits.js';

const LAUNCH_TIMEOUT_MS = 30_000;
const CLOSE_TIMEOUT_MS = 10_000;
const PORT_FILE_WAIT_MS = 5_000;

export interface CdpSessionContext extends SessionContext {
  /** Chromium's browser-level websocket, on loopback; only the API's relay should dial it. */
  readonly cdpEndpoint: string;
}

/** Chromium writes the port it picked and the browser target's path once it listens. */
async function readDevToolsEndpoint(userDataDir: string): Promise<string> {
  const deadline = Date.now() + PORT_FILE_WAIT_MS;
  for (;;) {
    const text = await readFile(path.join(userDataDir, 'DevToolsActivePort'), 'utf8').catch(() => '');
    const [port, browserPath] = text.split('\n').map((l) => l.trim());
    if (port && browserPath && /^\d+$/.test(port)) return `ws://127.0.0.1:${port}${browserPath}`;
    if (Date.now() > deadline) throw new ApiError('INTERNAL', { message: 'Chromium did not open its DevTools endpoint' });
    await sleep(50);
  }
}

export async function openCdpSession(executablePath: string, opts: SessionContextOptions): Promise<CdpSessionContext> {
  const proxy = new GuardProxy(undefined);
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'gleaner-cdp-'));
  let context: BrowserContext | undefined;
  const cleanup = async () => {
    if (context) await withTimeout(context.close(), CLOSE_TIMEOUT_MS, 'closing a CDP session browser').catch(noop);
    await proxy.close();
    await rm(userDataDir, { recursive: true, force: true }).catch(noop);
  };
  try {
    const server = await proxy.listen();
    const lease = new Lease(opts.guard, {}, undefined, 'about:blank');
    proxy.lease = lease;
    const { chromium } = await playwright();
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS, '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1'],
      proxy: { server },
      acceptDownloads: false,
      serviceWorkers: 'block',
      timeout: LAUNCH_TIMEOUT_MS,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const cdpEndpoint = await readDevToolsEndpoint(userDataDir);
    if (opts.storageState) {
      await context.addCookies(opts.storageState.cookies);
      const script = restoreLocalStorageScript(opts.storageState);
      if (script) await context.addInitScript(script);
    }
    await context.route('**/*', (route) => void lease.route(route).catch(noop));
    const page = context.pages()[0] ?? (await context.newPage());
    lease.mainFrame = page.mainFrame();
    page.on('request', (r) => lease.onRequest(r));
    // Unlike a shared-browser session, other pages here are the CDP client's own and stay open.
    const ctx = context;
    return { context: ctx, page, lease, cdpEndpoint, close: cleanup };
  } catch (e) {
    await cleanup();
    if (e instanceof ApiError) throw e;
    throw new ApiError('INTERNAL', { message: `Could not start Chromium: ${String((e as Error).message).split('\n')[0]}`, cause: e });
  }
}
