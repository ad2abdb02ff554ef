/**
 * Monitors: (1) 1,000 monitors on a one-minute cron against local pages, all due at the same
 * instant: scheduling lag (check start minus due time) p50/p99 and checks per second, for a
 * first round (every page new, full scrapes) and a second (nothing changed); (2) the cost of an
 * unchanged check of one page (a 304 to a conditional request, or the same bytes again) beside
 * a full scrape of the same page, in the same run.
 *
 *   node --import tsx bench/monitor.ts [--monitors 1000] [--iterations 200]
 *
 * Runs Gleaner in this process (embedded store and queue, as `gleaner serve` does) against the
 * fixture site, so the figures include the page server's share of the CPU.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { startWorkers } from '../src/workers.js';
import { createLogger } from '../src/log.js';
import { checkOptions } from '../src/monitor/runner.js';
import { createRuntime, type Runtime } from '../src/runtime.js';
import { setWatchedPage } from '../test/fixture-site/monitor-pages.js';
import { startFixtureSite } from '../test/fixture-site/server.js';

export interface MonitorBenchResult {
  monitors: number;
  rounds: { name: string; lagP50Ms: number; lagP99Ms: number; checksPerSec: number }[];
  iterations: number;
  fullScrapeMs: number;
  notModifiedMs: number;
  sameBytesMs: number;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

/** A page of about 40 KB of article text, like a typical watched page. */
function pageBody(i: number): string {
  return Array.from({ length: 60 }, (_, p) => `<h2>Section ${p}</h2><p>Item ${i}.${p}: ${'the quick brown fox jumps over the lazy dog '.repeat(12)}</p>`).join('');
}

async function round(rt: Runtime, ids: string[], name: string) {
  const db = rt.store.db;
  const due = Date.now() + 2000;
  await db.updateTable('monitors').set({ next_run_at: due }).where('id', 'in', ids).execute();
  const started = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const rows = await db
      .selectFrom('monitor_checks')
      .select(['scheduled_for', 'started_at', 'finished_at', 'status'])
      .where('scheduled_for', '=', due)
      .where('status', 'in', ['completed', 'partial', 'failed'])
      .execute();
    if (rows.length >= ids.length || Date.now() - started > 300_000) {
      const lags = rows.map((r) => r.started_at! - r.scheduled_for!);
      const first = Math.min(...rows.map((r) => r.started_at!));
      const last = Math.max(...rows.map((r) => r.finished_at!));
      return { name, lagP50Ms: pct(lags, 50), lagP99Ms: pct(lags, 99), checksPerSec: rows.length / ((last - first) / 1000) };
    }
  }
}

export async function runMonitorBench(opts: { monitors?: number; iterations?: number } = {}): Promise<MonitorBenchResult> {
  const monitors = opts.monitors ?? 1000;
  const iterations = opts.iterations ?? 200;
  const site = await startFixtureSite();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-bench-monitor-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ALLOW_PRIVATE_ADDRESSES: '127.0.0.0/8', DISABLE_BROWSER: 'true', MONITOR_TICK_MS: '100', MONITOR_CONCURRENCY: '32' });
  const rt = await createRuntime(config, createLogger(config));
  const workers = startWorkers(rt);
  try {
    const teamId = await rt.keys.ensureTeam('bench');
    const ids: string[] = [];
    for (let i = 0; i < monitors; i++) {
      setWatchedPage(`bench-${i}`, pageBody(i));
      const m = await rt.monitors.service.create(teamId, {
        name: `bench ${i}`,
        schedule: { cron: '* * * * *', text: null, timezone: null },
        targets: [{ type: 'scrape', urls: [`${site.url}/watch/bench-${i}`] }],
        retentionDays: 1,
        judgeEnabled: false,
      });
      ids.push(m.id);
    }
    const rounds = [await round(rt, ids, 'first check (all new)'), await round(rt, ids, 'second check (unchanged)')];
    workers.stop();

    // One page, three ways, sequentially.
    setWatchedPage('bench-cost', pageBody(-1));
    const options = checkOptions(undefined);
    const ctx = { teamId, absoluteUrl: (p: string) => p };
    const etagUrl = `${site.url}/watch/bench-cost`;
    const plainUrl = `${site.url}/watch-plain/bench-cost`;
    const first = await rt.scraper.revalidate(etagUrl, options, ctx, {});
    const plain = await rt.scraper.revalidate(plainUrl, options, ctx, {});
    if (first.unchanged || plain.unchanged) throw new Error('first fetch cannot be unchanged');
    const time = async (fn: () => Promise<unknown>) => {
      for (let i = 0; i < 20; i++) await fn();
      const t0 = performance.now();
      for (let i = 0; i < iterations; i++) await fn();
      return (performance.now() - t0) / iterations;
    };
    const fullScrapeMs = await time(() => rt.scraper.scrape(etagUrl, options, ctx));
    const notModifiedMs = await time(() => rt.scraper.revalidate(etagUrl, options, ctx, first.validators));
    const sameBytesMs = await time(() => rt.scraper.revalidate(plainUrl, options, ctx, plain.validators));
    return { monitors, rounds, iterations, fullScrapeMs, notModifiedMs, sameBytesMs };
  } finally {
    await rt.close();
    await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printMonitorBench(r: MonitorBenchResult): void {
  console.log(`\nMonitors: ${r.monitors} monitors, one-minute cron, all due at once (embedded store and queue)`);
  for (const x of r.rounds) {
    console.log(`  ${x.name.padEnd(26)} scheduling lag p50 ${x.lagP50Ms.toFixed(0)} ms, p99 ${x.lagP99Ms.toFixed(0)} ms; ${x.checksPerSec.toFixed(0)} checks/s`);
  }
  console.log(`  one ~40 KB page, ${r.iterations} sequential runs each:`);
  console.log(`    full scrape (baseline)          ${r.fullScrapeMs.toFixed(2)} ms`);
  console.log(`    unchanged, 304 to If-None-Match ${r.notModifiedMs.toFixed(2)} ms  (${((100 * r.notModifiedMs) / r.fullScrapeMs).toFixed(1)}% of a full scrape)`);
  console.log(`    unchanged, same bytes (no ETag) ${r.sameBytesMs.toFixed(2)} ms  (${((100 * r.sameBytesMs) / r.fullScrapeMs).toFixed(1)}% of a full scrape)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { monitors: { type: 'string' }, iterations: { type: 'string' } } });
  printMonitorBench(await runMonitorBench({ monitors: Number(values.monitors ?? 1000), iterations: Number(values.iterations ?? 200) }));
}
