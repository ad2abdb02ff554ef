/**
 * Crawl benchmarks, each crawler in a child process of its own so its peak RSS is its own:
 *
 * 1. Gleaner (`gleaner serve`, POST /v2/crawl) beside Crawlee's CheerioCrawler + turndown
 *    (bench/crawlee-child.ts) on the same local copy of Debian's PostgreSQL manual, from
 *    index.html, same page limit and concurrency. Each crawler crawls the pages `--warmups`
 *    times (default 2) in one process, then once more, measured: the target names that warm
 *    crawl, as a service that runs for days does it. Every crawl is shown. pages/s is completed
 *    pages over the wall time from the crawl request to its completion; CPU ms/page counts every
 *    thread of the crawler's process; peak RSS is the child's VmHWM over all its crawls.
 * 2. A crawl of a generated 10,000-page site, sampling Gleaner's RSS every 1,000 pages, to show
 *    memory stays flat as the crawl grows.
 *
 *   node --expose-gc --import tsx bench/crawl.ts [--pages 1000] [--concurrency 16] [--rounds 3]
 *       [--synthetic 10000 | --synthetic 0] [--skip-crawlee] [--cpu-prof] [--warmups 2 | --cold]
 *
 * This machine's speed drifts within a minute, so one crawler's run may land in a faster spell
 * than the other's: each round runs both, one after the other, and the summary takes the median
 * of the rounds' ratios.
 *
 * `--cpu-prof` writes a V8 CPU profile of each Gleaner child to a temporary folder (printed).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pgDocsDir, serveDir } from './corpus.js';
import { api, procCpuSeconds, procStatusKb, startGleanerChild, tail, threadCpuMs, waitExit, type GleanerChild } from './gleaner-child.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const MB = 1024;

interface CrawlStatus {
  success?: boolean;
  status?: string;
  completed?: number;
  total?: number;
  error?: string;
}

interface GleanerCrawlResult {
  status: string;
  completed: number;
  total: number;
  seconds: number;
  /** CPU seconds the child used from the crawl request to its completion. */
  cpuSeconds: number | undefined;
  /** Of those, the main thread's: it stores, queues and fetches, so it bounds pages/s. */
  mainCpuSeconds: number | undefined;
  peakRssKb: number | undefined;
  endRssKb: number | undefined;
  /** VmRSS of the child when `completed` first reached each multiple of `sampleEvery`. */
  samples: Array<{ completed: number; seconds: number; rssKb: number | undefined }>;
  /** The warm-up crawls before the measured one, the first being the server's first after it started. */
  warmups: CrawlFigures[];
}

type CrawlFigures = Omit<GleanerCrawlResult, 'peakRssKb' | 'endRssKb' | 'warmups'>;

/** One crawl on a running Gleaner child, from the request to the job's end. */
async function crawlOnce(
  g: GleanerChild,
  opts: { startUrl: string; limit: number; concurrency: number; timeoutMs: number; sampleEvery?: number },
): Promise<CrawlFigures> {
  const started = performance.now();
  const cpuBefore = procCpuSeconds(g.pid);
  const mainBefore = mainThreadCpuMs(g.pid);
  const created = await api<{ success: boolean; id: string }>(g, 'POST', '/v2/crawl', {
    url: opts.startUrl,
    limit: opts.limit,
    maxConcurrency: opts.concurrency,
    sitemap: 'skip',
    scrapeOptions: { formats: ['markdown'], maxAge: 0, storeInCache: false },
  });
  if (!created.id) throw new Error(`POST /v2/crawl returned no id: ${JSON.stringify(created)}`);
  const samples: GleanerCrawlResult['samples'] = [];
  let nextSample = opts.sampleEvery ?? Infinity;
  let st: CrawlStatus;
  for (;;) {
    // A cheap status read (one document at most) every 25 ms: a coarser poll would add up to its
    // own interval to a crawl that lasts a few seconds.
    await new Promise((r) => setTimeout(r, 25));
    st = await api<CrawlStatus>(g, 'GET', `/v2/crawl/${created.id}?limit=1`);
    const completed = st.completed ?? 0;
    if (completed >= nextSample) {
      samples.push({ completed, seconds: (performance.now() - started) / 1000, rssKb: procStatusKb(g.pid, 'VmRSS') });
      while (nextSample <= completed) nextSample += opts.sampleEvery!;
    }
    if (st.status === 'completed' || st.status === 'failed' || st.status === 'cancelled') break;
    if (performance.now() - started > opts.timeoutMs) {
      await api(g, 'DELETE', `/v2/crawl/${created.id}`).catch(() => undefined);
      throw new Error(`crawl still ${st.status} after ${opts.timeoutMs / 1000} s (${completed}/${st.total ?? '?'} pages)`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = procCpuSeconds(g.pid);
  const mainAfter = mainThreadCpuMs(g.pid);
  return {
    status: st.status ?? 'unknown',
    completed: st.completed ?? 0,
    total: st.total ?? 0,
    seconds,
    cpuSeconds: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
    mainCpuSeconds: mainBefore !== undefined && mainAfter !== undefined ? (mainAfter - mainBefore) / 1000 : undefined,
    samples,
  };
}

/** The main thread's CPU milliseconds so far (its thread id is the process id). */
const mainThreadCpuMs = (pid: number) => threadCpuMs(pid).get(String(pid));

/**
 * Runs one measured crawl on a fresh Gleaner child and stops it; the figures are the child's.
 * With `warmups`, that many crawls of the same pages go first, unmeasured: a service runs for
 * days, and a just-started one spends about half its first thousand pages' CPU compiling its own
 * code, and still a fifth of the second thousand's (V8's optimising compiler, measured with
 * --trace-opt: some 2.8 s of compile in the first crawl, 0.6 s in the second, 0.1 s from the
 * fourth on). The warm-up crawls' figures are kept too.
 */
async function gleanerCrawl(opts: {
  startUrl: string;
  limit: number;
  concurrency: number;
  timeoutMs: number;
  warmups?: number;
  sampleEvery?: number;
  cpuProfDir?: string | undefined;
}): Promise<GleanerCrawlResult> {
  const g = await startGleanerChild({ concurrency: opts.concurrency, cpuProfDir: opts.cpuProfDir });
  let stopped: { peakRssKb: number | undefined } | undefined;
  try {
    const warmups: CrawlFigures[] = [];
    for (let i = 0; i < (opts.warmups ?? 0); i++) warmups.push(await crawlOnce(g, { ...opts, sampleEvery: undefined }));
    const figures = await crawlOnce(g, opts);
    const endRssKb = procStatusKb(g.pid, 'VmRSS');
    stopped = await g.stop();
    return { ...figures, warmups, peakRssKb: stopped.peakRssKb, endRssKb };
  } catch (e) {
    const out = g.output();
    if (out) (e as Error).message += `\n--- Gleaner output (tail) ---\n${out}`;
    throw e;
  } finally {
    if (!stopped) await g.stop();
  }
}

interface CrawleeRun {
  pages: number;
  failed: number;
  seconds: number;
  cpuSeconds: number | undefined;
}

interface CrawleeResult extends CrawleeRun {
  warmups: CrawleeRun[];
  peakRssKb: number | undefined;
}

async function crawleeCrawl(opts: { startUrl: string; limit: number; concurrency: number; timeoutMs: number; warmups: number }): Promise<CrawleeResult> {
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlee-bench-'));
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), path.join(REPO_ROOT, 'bench/crawlee-child.ts'), '--url', opts.startUrl, '--pages', String(opts.limit), '--concurrency', String(opts.concurrency), '--warmups', String(opts.warmups)],
    // cwd is the temp folder too, so nothing Crawlee might write lands in the repository.
    { cwd: storage, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CRAWLEE_STORAGE_DIR: path.join(storage, 'storage') } },
  );
  let result: CrawleeResult | undefined;
  const stdout = tail(child.stdout, (line) => {
    if (!line.startsWith('BENCH_RESULT ')) return;
    const r = JSON.parse(line.slice('BENCH_RESULT '.length)) as CrawleeRun & { warmups?: CrawleeRun[]; vmHwmKb?: number; maxRssKb?: number };
    result = { pages: r.pages, failed: r.failed, seconds: r.seconds, cpuSeconds: r.cpuSeconds, warmups: r.warmups ?? [], peakRssKb: r.vmHwmKb ?? r.maxRssKb };
  });
  const stderr = tail(child.stderr);
  try {
    const code = await waitExit(child, opts.timeoutMs);
    if (!result) throw new Error(`Crawlee child exited with code ${code} without a result:\n${stdout()}\n${stderr()}`);
    return result;
  } finally {
    fs.rmSync(storage, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Gleaner vs Crawlee on the PostgreSQL manual

interface RunFigures {
  pages: number;
  seconds: number;
  pagesPerSec: number;
  /** CPU time per page over all the crawler's threads: steadier than pages/s on a busy machine. */
  cpuMsPerPage: number | undefined;
  /** Gleaner only: the main thread's share of that. */
  mainCpuMsPerPage?: number | undefined;
}

interface SideFigures extends RunFigures {
  /** The crawler's unmeasured crawls before the measured one, the first after it started first. */
  warmups: RunFigures[];
  /** The process's peak over both crawls. */
  peakRssMb: number | undefined;
  note?: string;
}

function runFigures(r: { pages: number; seconds: number; cpuSeconds: number | undefined; mainCpuSeconds?: number | undefined }): RunFigures {
  const perPage = (s: number | undefined) => (s !== undefined && r.pages > 0 ? (s * 1000) / r.pages : undefined);
  return {
    pages: r.pages,
    seconds: r.seconds,
    pagesPerSec: r.pages / r.seconds,
    cpuMsPerPage: perPage(r.cpuSeconds),
    ...(r.mainCpuSeconds !== undefined ? { mainCpuMsPerPage: perPage(r.mainCpuSeconds) } : {}),
  };
}

export interface CrawlBenchResult {
  pages: number;
  concurrency: number;
  gleaner: SideFigures | { error: string };
  crawlee?: SideFigures | { error: string };
  cpuProfDir?: string;
}

export interface CrawlBenchOptions {
  /** Rounds of both crawlers, one after the other (default 1). */
  rounds?: number;
  pages?: number;
  concurrency?: number;
  skipCrawlee?: boolean;
  cpuProf?: boolean;
  /** Unmeasured crawls of the pages before the measured one, by each crawler (default 2). */
  warmups?: number;
}

const errorOf = (e: unknown) => ({ error: (e as Error).message ?? String(e) });

/** `opts.rounds` rounds of the crawl bench; undefined when the manual is not installed. */
export async function runCrawlBench(opts: CrawlBenchOptions = {}): Promise<CrawlBenchResult[] | undefined> {
  const results: CrawlBenchResult[] = [];
  for (let r = 0; r < Math.max(1, opts.rounds ?? 1); r++) {
    const one = await runCrawlRound(opts);
    if (!one) return undefined;
    results.push(one);
  }
  return results;
}

async function runCrawlRound(opts: CrawlBenchOptions): Promise<CrawlBenchResult | undefined> {
  const dir = pgDocsDir();
  if (!dir) return undefined;
  const pages = opts.pages ?? 1000;
  const concurrency = opts.concurrency ?? 16;
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.html'));
  const site = await serveDir(dir, files);
  const startUrl = `${site.url}/index.html`;
  const cpuProfDir = opts.cpuProf ? fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-crawl-prof-')) : undefined;
  const timeoutMs = Math.max(120_000, pages * 600);
  const warmups = opts.warmups ?? 2;
  try {
    let gleaner: CrawlBenchResult['gleaner'];
    try {
      const r = await gleanerCrawl({ startUrl, limit: pages, concurrency, timeoutMs, warmups, cpuProfDir });
      gleaner = {
        ...runFigures({ ...r, pages: r.completed }),
        warmups: r.warmups.map((w) => runFigures({ ...w, pages: w.completed })),
        peakRssMb: r.peakRssKb !== undefined ? r.peakRssKb / MB : undefined,
        ...(r.status !== 'completed' ? { note: `status ${r.status}` } : {}),
      };
    } catch (e) {
      gleaner = errorOf(e);
    }
    let crawlee: CrawlBenchResult['crawlee'];
    if (!opts.skipCrawlee) {
      try {
        const r = await crawleeCrawl({ startUrl, limit: pages, concurrency, timeoutMs, warmups });
        crawlee = {
          ...runFigures(r),
          warmups: r.warmups.map(runFigures),
          peakRssMb: r.peakRssKb !== undefined ? r.peakRssKb / MB : undefined,
          ...(r.failed ? { note: `${r.failed} failed` } : {}),
        };
      } catch (e) {
        crawlee = errorOf(e);
      }
    }
    return { pages, concurrency, gleaner, ...(crawlee ? { crawlee } : {}), ...(cpuProfDir ? { cpuProfDir } : {}) };
  } finally {
    await site.close();
  }
}

const row = (s: RunFigures, peakRssMb: number | undefined, note = '') => ({
  pages: s.pages,
  seconds: +s.seconds.toFixed(2),
  'pages/s': +s.pagesPerSec.toFixed(1),
  'CPU ms/page': s.cpuMsPerPage !== undefined ? +s.cpuMsPerPage.toFixed(2) : '?',
  'main-thread CPU ms/page': s.mainCpuMsPerPage !== undefined ? +s.mainCpuMsPerPage.toFixed(2) : '',
  'peak RSS MB': peakRssMb !== undefined ? +peakRssMb.toFixed(0) : '?',
  note,
});

function ratios(label: string, g: RunFigures, c: RunFigures): string {
  const cpu = g.cpuMsPerPage !== undefined && c.cpuMsPerPage !== undefined ? `, ${(c.cpuMsPerPage / g.cpuMsPerPage).toFixed(2)}× less CPU per page` : '';
  return `${label}: Gleaner at ${(g.pagesPerSec / c.pagesPerSec).toFixed(2)}× Crawlee's pages/s${cpu}`;
}

export function printCrawlBench(rounds: CrawlBenchResult[]): void {
  rounds.forEach((r, i) => printCrawlRound(r, rounds.length > 1 ? ` (round ${i + 1} of ${rounds.length})` : ''));
  if (rounds.length < 2) return;
  const warm: number[] = [];
  for (const r of rounds) {
    if (!r.crawlee || 'error' in r.gleaner || 'error' in r.crawlee) continue;
    warm.push(r.gleaner.pagesPerSec / r.crawlee.pagesPerSec);
  }
  if (warm.length === 0) return;
  const sorted = [...warm].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  console.log(`Median over ${warm.length} rounds: Gleaner at ${median.toFixed(2)}× Crawlee's pages/s (rounds: ${warm.map((w) => `${w.toFixed(2)}×`).join(', ')}; target: >= 8×)`);
}

function printCrawlRound(r: CrawlBenchResult, label: string): void {
  console.log(`\nCrawl of up to ${r.pages} pages of the PostgreSQL manual from index.html, concurrency ${r.concurrency}, each crawler in its own process${label}`);
  const table: Record<string, ReturnType<typeof row>> = {};
  const sides: Array<[string, SideFigures | { error: string } | undefined]> = [
    ['Gleaner POST /v2/crawl (markdown)', r.gleaner],
    ['Crawlee CheerioCrawler + turndown', r.crawlee],
  ];
  for (const [name, s] of sides) {
    if (!s) continue;
    if ('error' in s) {
      console.log(`${name} failed:\n${s.error}`);
      continue;
    }
    s.warmups.forEach((w, i) => (table[`${name}, crawl ${i + 1}`] = row(w, s.peakRssMb, 'warm-up')));
    table[s.warmups.length ? `${name}, crawl ${s.warmups.length + 1}` : name] = row(s, s.peakRssMb, s.note ?? 'measured');
  }
  console.table(table);
  const g = r.gleaner;
  const c = r.crawlee;
  if (c && !('error' in g) && !('error' in c)) {
    const [g1, c1] = [g.warmups[0], c.warmups[0]];
    if (g1 && c1) console.log(ratios('1st crawl after start', g1, c1));
    console.log(`${ratios(g.warmups.length ? `Crawl ${g.warmups.length + 1}, warm (the target)` : 'Crawl', g, c)} (target: >= 8× pages/s)`);
    const rss = g.peakRssMb !== undefined && c.peakRssMb !== undefined ? g.peakRssMb / c.peakRssMb : undefined;
    console.log(`Peak RSS ${rss !== undefined ? `${rss.toFixed(2)}×` : '?'} Crawlee's (target: <= 1×)`);
  }
  if (r.cpuProfDir) console.log(`CPU profile of the Gleaner child: ${r.cpuProfDir}`);
}

// ---------------------------------------------------------------------------------------------
// 2. A 10,000-page generated site: memory as the crawl grows

const WORDS = (
  'index query table column row schema replication backup server client transaction lock vacuum ' +
  'planner executor statistics tuple page buffer checkpoint archive standby primary function ' +
  'trigger operator type domain sequence view cursor role privilege extension partition ' +
  'constraint foreign key unique sort hash join merge scan parallel worker memory cache ' +
  'write ahead log segment timeline restore recovery configuration parameter setting'
).split(' ');

/** Deterministic pseudo-random words, so each page differs but every run serves the same site. */
function words(seed: number, n: number): string {
  let x = (seed * 2654435761 + 1013904223) >>> 0;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out.push(WORDS[x % WORDS.length]!);
  }
  return out.join(' ');
}

const pagePath = (n: number) => (n === 0 ? '/' : `/p/${n}`);

/** Page `n` of `total`: a docs-like page (nav, headings, paragraphs, a list, code) of ~6 KB linking to pages 10n+1..10n+10. */
export function syntheticPage(n: number, total: number): string {
  const title = words(n, 4);
  const link = (k: number, text: string) => `<a href="${pagePath(k)}">${text}</a>`;
  const children = Array.from({ length: 10 }, (_, i) => 10 * n + 1 + i).filter((k) => k < total);
  const nav = [0, 1, 2, 3, 4, 5].filter((k) => k < total).map((k) => `<li>${link(k, `Section ${k}`)}</li>`).join('');
  const sections = Array.from({ length: 5 }, (_, s) => {
    const seed = n * 31 + s;
    return (
      `<h2 id="s${s}">${words(seed, 3)}</h2>\n` +
      `<p>${words(seed + 1, 60)}.</p>\n<p>${words(seed + 2, 45)}, see ${link((n + s + 1) % total, words(seed + 3, 2))}.</p>\n` +
      (s % 2 === 0
        ? `<ul>${[0, 1, 2].map((i) => `<li>${words(seed + 4 + i, 8)}</li>`).join('')}</ul>\n`
        : `<pre><code>SELECT ${words(seed + 5, 3).replaceAll(' ', ', ')} FROM t${n} WHERE id = ${s};</code></pre>\n`)
    );
  }).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title} — Synthetic manual</title>
<meta name="description" content="${words(n + 7, 12)}"><link rel="stylesheet" href="/style.css"></head>
<body>
<header><a class="logo" href="/">Synthetic manual</a><nav><ul>${nav}</ul></nav></header>
<div class="layout">
<aside class="sidebar"><h3>In this chapter</h3><ul>${children.map((k) => `<li>${link(k, words(k, 3))}</li>`).join('')}</ul></aside>
<main><article>
<h1>${n}. ${title}</h1>
${sections}<h2>Subsections</h2>
<ul>${children.map((k) => `<li>${link(k, `${k}. ${words(k, 4)}`)}</li>`).join('')}</ul>
<p class="pager">${n > 0 ? link(n - 1, 'Previous') : ''} ${n + 1 < total ? link(n + 1, 'Next') : ''}</p>
</article></main>
</div>
<footer><p>Generated page ${n} of ${total}. ${words(n + 11, 10)}.</p></footer>
</body></html>
`;
}

export async function serveSynthetic(total: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const u = req.url ?? '';
    const m = /^\/p\/(\d+)$/.exec(u);
    const n = u === '/' ? 0 : m ? Number(m[1]) : -1;
    if (n < 0 || n >= total) return void res.writeHead(404).end();
    const body = Buffer.from(syntheticPage(n, total));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

export interface SyntheticCrawlResult {
  pages: number;
  concurrency: number;
  pageBytes: number;
  result: GleanerCrawlResult | { error: string };
  cpuProfDir?: string;
}

export async function runSyntheticCrawlBench(opts: { pages?: number; concurrency?: number; cpuProf?: boolean } = {}): Promise<SyntheticCrawlResult> {
  const pages = opts.pages ?? 10_000;
  const concurrency = opts.concurrency ?? 16;
  const site = await serveSynthetic(pages);
  const cpuProfDir = opts.cpuProf ? fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-crawl-prof-')) : undefined;
  const pageBytes = Buffer.byteLength(syntheticPage(Math.floor(pages / 2), pages));
  try {
    let result: SyntheticCrawlResult['result'];
    try {
      result = await gleanerCrawl({
        startUrl: `${site.url}/`,
        limit: pages,
        concurrency,
        timeoutMs: Math.max(300_000, pages * 600),
        sampleEvery: Math.max(1, Math.round(pages / 10)),
        cpuProfDir,
      });
    } catch (e) {
      result = errorOf(e);
    }
    return { pages, concurrency, pageBytes, result, ...(cpuProfDir ? { cpuProfDir } : {}) };
  } finally {
    await site.close();
  }
}

export function printSyntheticCrawlBench(r: SyntheticCrawlResult): void {
  console.log(
    `\nGleaner crawl of a generated ${r.pages}-page site (~${(r.pageBytes / 1024).toFixed(1)} KB pages), concurrency ${r.concurrency}: RSS of the Gleaner process as the crawl grows`,
  );
  const res = r.result;
  if ('error' in res) {
    console.log(`failed:\n${res.error}`);
    return;
  }
  const mb = (kb: number | undefined) => (kb !== undefined ? +(kb / MB).toFixed(0) : '?');
  const table: Record<string, { completed: number; seconds: number; 'RSS MB': number | string }> = {};
  for (const s of res.samples) {
    // The last poll usually sees the finished crawl: that is the `end` row.
    if (s.completed < res.completed) table[`at ${s.completed} pages`] = { completed: s.completed, seconds: +s.seconds.toFixed(1), 'RSS MB': mb(s.rssKb) };
  }
  table['end'] = { completed: res.completed, seconds: +res.seconds.toFixed(1), 'RSS MB': mb(res.endRssKb) };
  console.table(table);
  const first = res.samples[0];
  const growth = first?.rssKb !== undefined && res.endRssKb !== undefined ? (res.endRssKb - first.rssKb) / MB : undefined;
  console.log(
    `status ${res.status}, ${res.completed}/${res.total} pages, ${(res.completed / res.seconds).toFixed(1)} pages/s, peak RSS ${mb(res.peakRssKb)} MB; ` +
      `RSS at ${first?.completed ?? '?'} pages ${mb(first?.rssKb)} MB, at the end ${mb(res.endRssKb)} MB: ` +
      `${growth !== undefined ? `${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB` : '?'} (target: within 100 MB)`,
  );
  if (r.cpuProfDir) console.log(`CPU profile of the Gleaner child: ${r.cpuProfDir}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string' },
      concurrency: { type: 'string' },
      synthetic: { type: 'string' },
      'skip-crawlee': { type: 'boolean' },
      'cpu-prof': { type: 'boolean' },
      rounds: { type: 'string' },
      warmups: { type: 'string' },
      // One crawl per crawler, on a just-started process, instead of a warm one.
      cold: { type: 'boolean' },
    },
  });
  const concurrency = Number(values.concurrency ?? 16);
  const pages = Number(values.pages ?? 1000);
  const synthetic = Number(values.synthetic ?? 10_000);
  const cpuProf = values['cpu-prof'] ?? false;
  if (pages > 0) {
    const r = await runCrawlBench({ pages, concurrency, rounds: Number(values.rounds ?? 3),
      skipCrawlee: values['skip-crawlee'] ?? false,
      cpuProf,
      warmups: values.cold ? 0 : Number(values.warmups ?? 2),
    });
    if (r) printCrawlBench(r);
  }
  if (synthetic > 0) printSyntheticCrawlBench(await runSyntheticCrawlBench({ pages: synthetic, concurrency, cpuProf }));
}
