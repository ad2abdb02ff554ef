/**
 * What the credit ledger costs scrape and crawl throughput: two Gleaner servers from the same
 * source, one with the ledger (bench/ledger-child.ts) and one with it replaced by a ledger that
 * admits everything and writes nothing, embedded SQLite each, over a generated local site.
 * Rounds alternate which side goes first; each round times a batch of synchronous scrapes and a
 * crawl on both. Reported: the median pages per second of each side, the median of the
 * per-round ratios, and the server's CPU milliseconds per page (steadier than wall time on a
 * shared machine). Then, in this process, the CPU the ledger's own calls take per page (the
 * check before a request or crawl page, and its charge), which a loaded machine does not blur.
 *
 *   node --import tsx bench/ledger.ts [--rounds 6] [--pages 400] [--concurrency 16]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { serveSynthetic } from './crawl.js';
import { CreditLedger } from '../src/billing/ledger.js';
import { plans } from '../src/billing/plans.js';
import { openStore } from '../src/store/db.js';
import { api, procCpuSeconds, startGleanerChild, threadCpuMs, type GleanerChild } from './gleaner-child.js';

export interface LedgerBenchOptions {
  rounds?: number;
  pages?: number;
  concurrency?: number;
}

interface Pass {
  pagesPerSec: number;
  /** The server's CPU per page, all threads, and its main thread alone (where the ledger runs). */
  cpuMsPerPage: number;
  mainMsPerPage: number;
}

type Side = 'on' | 'off';
type Work = 'scrape' | 'crawl';

export interface LedgerBenchResult {
  rounds: number;
  pages: number;
  concurrency: number;
  passes: Record<Work, Record<Side, Pass[]>>;
  calls: LedgerCalls;
}

/** CPU microseconds per ledger call, on embedded SQLite, warmed. */
export interface LedgerCalls {
  canPay: number;
  /** A scrape's charge: a transaction of its own. */
  charge: number;
  /** A crawl page's charge: two statements in the transaction that stores the page. */
  chargeInTransaction: number;
}

async function measureCalls(n = 3000): Promise<LedgerCalls> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-ledger-calls-'));
  const store = await openStore({ dataDir });
  try {
    const ledger = new CreditLedger(store.db, plans(100), 'standard');
    await store.db.insertInto('teams').values({ id: 'bench', name: 'bench', plan: 'standard', created_at: Date.now() }).execute();
    await ledger.setPeriodCredits('bench', 1_000_000_000);
    const perCall = async (fn: (i: number) => Promise<unknown>) => {
      for (let i = 0; i < n; i++) await fn(-i - 1);
      const before = process.cpuUsage();
      for (let i = 0; i < n; i++) await fn(i);
      const d = process.cpuUsage(before);
      return (d.user + d.system) / n;
    };
    const empty = await perCall(() => store.db.transaction().execute(async () => undefined));
    return {
      canPay: await perCall(() => ledger.canPay('bench', 1)),
      charge: await perCall((i) => ledger.charge({ teamId: 'bench', cause: `scrape:${i}`, credits: 1 })),
      // Less the transaction itself, which the crawl page's storing pays for anyway.
      chargeInTransaction:
        (await perCall((i) => store.db.transaction().execute((trx) => ledger.charge({ teamId: 'bench', cause: `crawl:${i}`, credits: 1 }, trx)))) - empty,
    };
  } finally {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const PAGE_OPTIONS = { formats: ['markdown'], maxAge: 0, storeInCache: false };

/** Runs one pass and measures it by the pages it reports done. */
async function timed(g: GleanerChild, run: () => Promise<number>): Promise<Pass> {
  const mainMs = () => threadCpuMs(g.pid).get(String(g.pid)) ?? 0;
  const cpu = procCpuSeconds(g.pid) ?? 0;
  const main = mainMs();
  const started = performance.now();
  const done = await run();
  const seconds = (performance.now() - started) / 1000;
  return { pagesPerSec: done / seconds, cpuMsPerPage: (((procCpuSeconds(g.pid) ?? 0) - cpu) * 1000) / done, mainMsPerPage: (mainMs() - main) / done };
}

function scrapes(g: GleanerChild, urls: string[], concurrency: number, agent: Agent): Promise<number> {
  let next = 0;
  let done = 0;
  const one = async (url: string) => {
    const res = await request(`${g.url}/v2/scrape`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: `Bearer ${g.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, ...PAGE_OPTIONS }),
    });
    const body = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`scrape of ${url}: ${res.statusCode} ${body.slice(0, 200)}`);
    done++;
  };
  return Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < urls.length) await one(urls[next++]!);
  })).then(() => done);
}

async function crawl(g: GleanerChild, startUrl: string, limit: number, concurrency: number): Promise<number> {
  const { id } = await api<{ id: string }>(g, 'POST', '/v2/crawl', { url: startUrl, limit, maxConcurrency: concurrency, sitemap: 'skip', scrapeOptions: PAGE_OPTIONS });
  for (;;) {
    // A status read of one document every 25 ms: a coarse poll would add its interval to the time.
    await new Promise((r) => setTimeout(r, 25));
    const st = await api<{ status: string; completed: number }>(g, 'GET', `/v2/crawl/${id}?limit=1`);
    if (st.status === 'completed') return st.completed;
    if (st.status !== 'scraping') throw new Error(`crawl ended ${st.status}`);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export async function runLedgerBench(opts: LedgerBenchOptions = {}): Promise<LedgerBenchResult> {
  const rounds = opts.rounds ?? 6;
  const pages = opts.pages ?? 400;
  const concurrency = opts.concurrency ?? 16;
  const site = await serveSynthetic(pages);
  const entry = ['--import', import.meta.resolve('tsx'), new URL('./ledger-child.ts', import.meta.url).pathname];
  const servers: Record<Side, GleanerChild | undefined> = { on: undefined, off: undefined };
  const agent = new Agent({ connections: concurrency });
  const passes: LedgerBenchResult['passes'] = { scrape: { on: [], off: [] }, crawl: { on: [], off: [] } };
  try {
    servers.on = await startGleanerChild({ concurrency, entry, env: { BENCH_LEDGER: 'on' } });
    servers.off = await startGleanerChild({ concurrency, entry, env: { BENCH_LEDGER: 'off' } });
    const urls = Array.from({ length: pages }, (_, n) => (n === 0 ? `${site.url}/` : `${site.url}/p/${n}`));
    // Warm both (JIT, connection pools, the first ledger rows) before anything is timed.
    for (const g of [servers.on, servers.off]) {
      await scrapes(g, urls.slice(0, 50), 4, agent);
      await crawl(g, `${site.url}/`, 50, concurrency);
    }
    for (let r = 0; r < rounds; r++) {
      const order: Side[] = r % 2 ? ['off', 'on'] : ['on', 'off'];
      for (const side of order) {
        const g = servers[side]!;
        passes.scrape[side].push(await timed(g, () => scrapes(g, urls, concurrency, agent)));
        passes.crawl[side].push(await timed(g, () => crawl(g, `${site.url}/`, pages, concurrency)));
      }
    }
    return { rounds, pages, concurrency, passes, calls: await measureCalls() };
  } finally {
    await agent.close();
    await Promise.all([servers.on?.stop(), servers.off?.stop()]);
    await site.close();
  }
}

export function printLedgerBench(r: LedgerBenchResult): void {
  console.log(`\nCredit ledger cost: ${r.pages} pages a pass, concurrency ${r.concurrency}, ${r.rounds} alternating rounds, embedded SQLite; medians`);
  const table: Record<string, Record<string, number | string>> = {};
  for (const work of ['scrape', 'crawl'] as const) {
    const { on, off } = r.passes[work];
    const ratios = on.map((p, i) => p.pagesPerSec / off[i]!.pagesPerSec);
    table[work] = {
      'pages/s ledger off': +median(off.map((p) => p.pagesPerSec)).toFixed(1),
      'pages/s ledger on': +median(on.map((p) => p.pagesPerSec)).toFixed(1),
      'on/off (median of rounds)': +median(ratios).toFixed(3),
      'throughput cost': `${((1 - median(ratios)) * 100).toFixed(1)}%`,
      'server CPU ms/page off': +median(off.map((p) => p.cpuMsPerPage)).toFixed(2),
      'server CPU ms/page on': +median(on.map((p) => p.cpuMsPerPage)).toFixed(2),
      'main thread ms/page off': +median(off.map((p) => p.mainMsPerPage)).toFixed(2),
      'main thread ms/page on': +median(on.map((p) => p.mainMsPerPage)).toFixed(2),
    };
  }
  console.table(table);
  const c = r.calls;
  const perPage = { scrape: c.canPay + c.charge, crawl: c.canPay + c.chargeInTransaction };
  console.log(
    `Ledger calls, CPU µs each: canPay ${c.canPay.toFixed(1)}, charge ${c.charge.toFixed(1)}, charge inside a page's transaction ${c.chargeInTransaction.toFixed(1)}`,
  );
  for (const work of ['scrape', 'crawl'] as const) {
    const off = median(r.passes[work].off.map((p) => p.cpuMsPerPage)) * 1000;
    console.log(`${work}: ${perPage[work].toFixed(0)} µs of ledger work per page = ${((perPage[work] / off) * 100).toFixed(1)}% of the server's CPU per page without it`);
  }
  for (const work of ['scrape', 'crawl'] as const) {
    const list = (side: Side) => r.passes[work][side].map((p) => p.pagesPerSec.toFixed(0)).join(' ');
    console.log(`${work} pages/s by round: off ${list('off')}; on ${list('on')}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { rounds: { type: 'string' }, pages: { type: 'string' }, concurrency: { type: 'string' } } });
  const result = await runLedgerBench({
    ...(values.rounds ? { rounds: Number(values.rounds) } : {}),
    ...(values.pages ? { pages: Number(values.pages) } : {}),
    ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}),
  });
  printLedgerBench(result);
}
