/**
 * Browser resources and latency: (1) N browser scrapes with actions in a row against a local
 * page — RSS of this process at scrape 100 and at the end, and, after the engine shuts down,
 * the Chromium processes and contexts left over (both should be zero); (2) p50 latency of a
 * browser scrape of a local page beside a bare Playwright `goto` + `content` of the same page
 * in a reused context, in the same run.
 *
 *   node --import tsx bench/browser.ts [--scrapes 1000] [--latency 100]
 *
 * Runs Gleaner's runtime in this process (no HTTP layer) against the fixture site.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { createRuntime } from '../src/runtime.js';
import { launchChromium, findChromium } from '../src/scrape/engines/chromium.js';
import type { BrowserEngine } from '../src/scrape/engines/browser.js';
import { scrapeOptionsSchema } from '../src/scrape/options.js';
import { alive, chromiumProcessTree } from '../src/scrape/engines/browser/testing/processes.js';
import { startFixtureSite } from '../test/fixture-site/server.js';

export interface BrowserBenchResult {
  scrapes: number;
  rssAt100Mb: number;
  rssEndMb: number;
  failures: number;
  leftoverProcesses: number;
  leftoverContexts: number;
  latencyRuns: number;
  gleanerP50Ms: number;
  playwrightP50Ms: number;
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;

export async function runBrowserBench(argv: string[] = []): Promise<BrowserBenchResult | undefined> {
  const { values } = parseArgs({ args: argv, options: { scrapes: { type: 'string' }, latency: { type: 'string' } }, strict: false });
  const scrapes = Number(values.scrapes ?? 1000);
  const latencyRuns = Number(values.latency ?? 100);
  const chromium = findChromium(process.env.CHROMIUM_PATH);
  if (!chromium) {
    console.log('browser bench skipped: no Chromium');
    return undefined;
  }
  const site = await startFixtureSite();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-bench-browser-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ALLOW_PRIVATE_ADDRESSES: '127.0.0.0/8', CHROMIUM_PATH: chromium });
  const rt = await createRuntime(config, createLogger(config));
  const ctx = { teamId: 'bench', absoluteUrl: (p: string) => `http://127.0.0.1${p}` };
  const withActions = scrapeOptionsSchema.parse({
    maxAge: 0,
    actions: [
      { type: 'click', selector: '#username' },
      { type: 'write', text: 'bench' },
      { type: 'press', key: 'Tab' },
      { type: 'executeJavascript', script: 'document.title' },
      { type: 'scrape' },
    ],
  });
  let failures = 0;
  let rssAt100 = 0;
  try {
    for (let i = 1; i <= scrapes; i++) {
      try {
        await rt.scraper.scrape(`${site.url}/app/login`, withActions, ctx);
      } catch {
        failures++;
      }
      if (i === Math.min(100, scrapes)) {
        globalThis.gc?.();
        rssAt100 = process.memoryUsage().rss;
      }
    }
    globalThis.gc?.();
    const rssEnd = process.memoryUsage().rss;

    // Latency: the same small local page through the pipeline (browser forced by waitFor=1)...
    const plain = scrapeOptionsSchema.parse({ maxAge: 0, waitFor: 1, formats: ['markdown'] });
    const ours: number[] = [];
    for (let i = 0; i < latencyRuns; i++) {
      const t = performance.now();
      await rt.scraper.scrape(`${site.url}/article`, plain, ctx);
      ours.push(performance.now() - t);
    }
    // ...and bare Playwright in one reused context of its own Chromium.
    const browser = await launchChromium(chromium);
    const context = await browser.newContext();
    const bare: number[] = [];
    for (let i = 0; i < latencyRuns; i++) {
      const t = performance.now();
      const page = await context.newPage();
      await page.goto(`${site.url}/article`, { waitUntil: 'load' });
      await page.content();
      await page.close();
      bare.push(performance.now() - t);
    }
    await browser.close();

    const engine = rt.browser as BrowserEngine | undefined;
    const stats = engine?.stats();
    const before = chromiumProcessTree().all;
    await rt.close();
    await new Promise((r) => setTimeout(r, 500));
    const leftover = before.filter(alive).length;
    return {
      scrapes,
      rssAt100Mb: mb(rssAt100),
      rssEndMb: mb(rssEnd),
      failures,
      leftoverProcesses: leftover,
      leftoverContexts: Math.max(0, (stats?.contextsOpen ?? 0) - (stats?.contextsIdle ?? 0)) + rt.browserSessions.openCount(),
      latencyRuns,
      gleanerP50Ms: Math.round(p50(ours) * 10) / 10,
      playwrightP50Ms: Math.round(p50(bare) * 10) / 10,
    };
  } finally {
    await rt.close();
    await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printBrowserBench(r: BrowserBenchResult): void {
  console.log(`\nbrowser: ${r.scrapes} scrapes with 5 actions each (${r.failures} failed)`);
  console.log(`  RSS at scrape 100: ${r.rssAt100Mb} MB; at the end: ${r.rssEndMb} MB; growth ${Math.round((r.rssEndMb - r.rssAt100Mb) * 10) / 10} MB (target < 50 MB)`);
  console.log(`  left over after shutdown: ${r.leftoverProcesses} Chromium processes, ${r.leftoverContexts} busy contexts or sessions`);
  console.log(`  p50 of ${r.latencyRuns} local-page loads: Gleaner browser scrape ${r.gleanerP50Ms} ms, bare Playwright goto+content ${r.playwrightP50Ms} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runBrowserBench(process.argv.slice(2));
  if (r) printBrowserBench(r);
}
