/**
 * Scrape throughput through the API beside raw undici fetches of the same local pages, in one
 * run. Pages come from Debian's PostgreSQL manual served by a static server on loopback; the
 * API runs the full pipeline (auth, validation, fetch, main content, markdown) with the cache off,
 * in a process of its own as it is deployed (the client and the page server share this one).
 *
 *   node --import tsx bench/scrape-throughput.ts [--pages 400] [--concurrency 16]
 *
 * BENCH_CPU_PROF=<dir> writes the server's CPU profiles (main and page threads) there.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { pgDocsDir, serveDir } from './corpus.js';
import { startGleanerChild, threadCpuMs } from './gleaner-child.js';

export interface ThroughputResult {
  pages: number;
  concurrency: number;
  rawPagesPerSec: number;
  apiPagesPerSec: number;
  ratio: number;
  /**
   * CPU milliseconds per page during the API pass: the server's main thread, its busiest other
   * thread (the page thread: fetch and transform), the rest of its threads (GC, libuv), and this process (the
   * client and the page server). With every core busy, throughput is their sum's inverse.
   */
  cpuMsPerPage?: { main: number; transform: number; otherThreads: number; benchClient: number };
}

function cpuPerPage(pid: number, before: Map<string, number>, after: Map<string, number>, benchCpu: NodeJS.CpuUsage, pages: number): ThroughputResult['cpuMsPerPage'] {
  if (after.size === 0) return undefined;
  const deltas = [...after].map(([tid, ms]) => ({ tid, ms: ms - (before.get(tid) ?? 0) }));
  const main = deltas.find((d) => d.tid === String(pid))?.ms ?? 0;
  const others = deltas.filter((d) => d.tid !== String(pid)).sort((a, b) => b.ms - a.ms);
  const transform = others[0]?.ms ?? 0;
  const rest = others.slice(1).reduce((a, d) => a + d.ms, 0);
  return { main: main / pages, transform: transform / pages, otherThreads: rest / pages, benchClient: (benchCpu.user + benchCpu.system) / 1000 / pages };
}

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
  return (performance.now() - started) / 1000;
}

export async function runScrapeBench(opts: { pages?: number; concurrency?: number } = {}): Promise<ThroughputResult | undefined> {
  const dir = pgDocsDir();
  if (!dir) return undefined;
  const concurrency = opts.concurrency ?? 16;
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.html')).sort().slice(0, opts.pages ?? 400);
  const site = await serveDir(dir, files);
  const gleaner = await startGleanerChild({ concurrency, cpuProfDir: process.env.BENCH_CPU_PROF });
  try {
    const urls = files.map((f) => `${site.url}/${f}`);
    const agent = new Agent({ connections: concurrency });
    const raw = async (u: string) => {
      const res = await request(u, { dispatcher: agent });
      await res.body.text();
    };
    const api = async (u: string) => {
      const res = await request(`${gleaner.url}/v2/scrape`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${gleaner.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: u, formats: ['markdown'], maxAge: 0, storeInCache: false }),
      });
      const body = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`scrape of ${u} failed: ${res.statusCode} ${body.slice(0, 200)}`);
    };
    // Warm both paths (connection pools, JIT) on a few pages before timing.
    await pool(urls.slice(0, 20), 4, raw);
    await pool(urls.slice(0, 20), 4, api);
    const rawSecs = await pool(urls, concurrency, raw);
    const cpuBefore = threadCpuMs(gleaner.pid);
    const benchBefore = process.cpuUsage();
    const apiSecs = await pool(urls, concurrency, api);
    const cpuMsPerPage = cpuPerPage(gleaner.pid, cpuBefore, threadCpuMs(gleaner.pid), process.cpuUsage(benchBefore), urls.length);
    await agent.close();
    const rawPagesPerSec = urls.length / rawSecs;
    const apiPagesPerSec = urls.length / apiSecs;
    return { pages: urls.length, concurrency, rawPagesPerSec, apiPagesPerSec, ratio: apiPagesPerSec / rawPagesPerSec, ...(cpuMsPerPage ? { cpuMsPerPage } : {}) };
  } finally {
    await gleaner.stop();
    await site.close();
  }
}

export function printScrapeBench(r: ThroughputResult): void {
  console.log(`\nScrape throughput, ${r.pages} local pages of the PostgreSQL manual, concurrency ${r.concurrency}`);
  console.table({
    'raw undici fetch': { 'pages/s': +r.rawPagesPerSec.toFixed(1) },
    'Gleaner POST /v2/scrape': { 'pages/s': +r.apiPagesPerSec.toFixed(1) },
  });
  console.log(`API at ${(r.ratio * 100).toFixed(1)}% of raw-fetch throughput (target: >= 50%)`);
  const c = r.cpuMsPerPage;
  if (c) {
    console.log(
      `CPU ms per API page: server main thread ${c.main.toFixed(2)}, page thread ${c.transform.toFixed(2)}, ` +
        `other server threads ${c.otherThreads.toFixed(2)}; bench client and page server ${c.benchClient.toFixed(2)}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { pages: { type: 'string' }, concurrency: { type: 'string' } } });
  const r = await runScrapeBench({ pages: Number(values.pages ?? 400), concurrency: Number(values.concurrency ?? 16) });
  if (r) printScrapeBench(r);
}
