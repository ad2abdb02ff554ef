/**
 * Search benchmarks:
 *
 * 1. The local index with 100,000 synthetic pages made from the PostgreSQL manual's text (each
 *    page a title and a few paragraphs drawn from different manual pages), on SQLite (FTS5) and
 *    on PostgreSQL (when DATABASE_URL is set): query latency p50/p99 over two-word queries of
 *    the manual's vocabulary, and the index's bytes per page.
 * 2. Crawl throughput of the manual with indexing on and off, crawls taking turns in the same
 *    run, each setting in a Gleaner child process of its own, all running side by side: each
 *    round a first crawl of pages new to the index, then the same pages fetched again, as a
 *    recurring crawl does. The site answers at once from loopback, which makes the crawl bound
 *    by the CPU (the worst case for indexing, whose work then competes with the crawl's), or
 *    with a latency per page, as a site across a network does.
 *
 * `node --import tsx bench/search.ts [--pages N] [--queries N] [--skip-index] [--skip-crawl]
 * [--rounds N] [--latency-ms N] [--against DIR]` runs it alone: N crawl rounds (3 by default),
 * indexing off and on, and with `--against` on in another checkout (its own build and
 * node_modules), for before/after figures from the same rounds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { PostgresIndex } from '../src/search/local/postgres-index.js';
import { SqliteIndex } from '../src/search/local/sqlite-index.js';
import type { LocalIndex } from '../src/search/local/local-index.js';
import { urlWords, type PageText } from '../src/search/local/page-text.js';
import { dropSchema, openStore, type Store } from '../src/store/db.js';
import { pgDocsDir, serveDir } from './corpus.js';
import { api, procCpuSeconds, startGleanerChild, type GleanerChild } from './gleaner-child.js';

const TEAM = 'bench-team';

interface Corpus {
  titles: string[];
  paragraphs: string[];
  vocabulary: string[];
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&amp;/g, '&');

/** Titles, paragraphs and frequent words of the manual, read once with plain expressions. */
export function readCorpus(dir: string): Corpus {
  const titles: string[] = [];
  const paragraphs: string[] = [];
  const counts = new Map<string, number>();
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.html'))) {
    const html = fs.readFileSync(path.join(dir, f), 'utf8');
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
    if (title) titles.push(decode(title).trim());
    for (const m of html.matchAll(/<p>([\s\S]*?)<\/p>/g)) {
      const text = decode(m[1]!.replace(/<[^>]+>/g, '')).replace(/\s+/g, ' ').trim();
      if (text.length < 80) continue;
      paragraphs.push(text);
      for (const w of text.toLowerCase().match(/[a-z]{4,}/g) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  // Words neither rare nor everywhere: what people search for.
  const vocabulary = [...counts.entries()].filter(([, n]) => n >= 20 && n <= 2000).map(([w]) => w);
  return { titles, paragraphs, vocabulary };
}

/** A small deterministic generator, so every run indexes the same pages. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function syntheticPage(c: Corpus, i: number, rand: () => number): PageText {
  const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)]!;
  const title = `${pick(c.titles)} (${i})`;
  const paras = Array.from({ length: 3 + Math.floor(rand() * 5) }, () => pick(c.paragraphs));
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const url = `https://docs${i % 50}.example.org/manual/${slug}.html`;
  return {
    url,
    host: `docs${i % 50}.example.org`,
    title,
    description: paras[0]!.slice(0, 160),
    headings: [pick(c.titles), pick(c.titles)].join('\n'),
    body: paras.join('\n\n'),
    urlWords: urlWords(url),
    publishedAt: undefined,
  };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export interface IndexFigures {
  backend: string;
  pages: number;
  indexSeconds: number;
  bytesPerPage: number;
  p50Ms: number;
  p99Ms: number;
  meanHits: number;
}

async function benchIndex(backend: string, store: Store, index: LocalIndex, c: Corpus, pages: number, queries: string[]): Promise<IndexFigures> {
  const rand = rng(42);
  const started = performance.now();
  const inFlight = store.dialect === 'postgres' ? 8 : 64;
  for (let i = 0; i < pages; i += inFlight) {
    const batch = Array.from({ length: Math.min(inFlight, pages - i) }, (_, k) => syntheticPage(c, i + k, rand));
    await Promise.all(batch.map((p) => index.upsert(TEAM, p)));
  }
  const indexSeconds = (performance.now() - started) / 1000;
  if (store.dialect === 'postgres') await sql`ANALYZE search_pages`.execute(store.db);
  // Warm the caches the way a running server has them.
  for (const q of queries.slice(0, 20)) await index.search({ teamId: TEAM, query: q, limit: 10 });
  const times: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const t = performance.now();
    const r = await index.search({ teamId: TEAM, query: q, limit: 10 });
    times.push(performance.now() - t);
    hits += r.length;
  }
  times.sort((a, b) => a - b);
  const { bytes } = await index.stats();
  return { backend, pages, indexSeconds, bytesPerPage: bytes / pages, p50Ms: quantile(times, 0.5), p99Ms: quantile(times, 0.99), meanHits: hits / queries.length };
}

export async function runIndexBench(opts: { pages?: number; queries?: number } = {}): Promise<IndexFigures[] | undefined> {
  const dir = pgDocsDir();
  if (!dir) return undefined;
  const c = readCorpus(dir);
  const pages = opts.pages ?? 100_000;
  const rand = rng(7);
  const queries = Array.from({ length: opts.queries ?? 500 }, () => `${c.vocabulary[Math.floor(rand() * c.vocabulary.length)]} ${c.vocabulary[Math.floor(rand() * c.vocabulary.length)]}`);
  const out: IndexFigures[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-search-bench-'));
  try {
    const store = await openStore({ dataDir });
    const index = new SqliteIndex(path.join(dataDir, 'search.sqlite'));
    try {
      out.push(await benchIndex('SQLite FTS5', store, index, c, pages, queries));
    } finally {
      await index.close();
      await store.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const schema = `bench_search_${Date.now().toString(36)}`;
    const store = await openStore({ dataDir, databaseUrl, schema });
    try {
      out.push(await benchIndex('PostgreSQL full-text', store, new PostgresIndex(store.db), c, pages, queries));
    } finally {
      await store.close();
      await dropSchema(databaseUrl, schema);
    }
  } else {
    console.error('DATABASE_URL is not set: the PostgreSQL index is not measured.');
  }
  return out;
}

export function printIndexBench(rows: IndexFigures[]): void {
  console.log(`\nLocal search index, ${rows[0]?.pages.toLocaleString('en-US')} synthetic pages from the PostgreSQL manual, one team, two-word queries, top 10 (target: p50 <= 10 ms, p99 <= 50 ms)`);
  console.table(
    Object.fromEntries(
      rows.map((r) => [
        r.backend,
        {
          'index s': +r.indexSeconds.toFixed(1),
          'pages/s indexed': Math.round(r.pages / r.indexSeconds),
          'bytes/page': Math.round(r.bytesPerPage),
          'p50 ms': +r.p50Ms.toFixed(2),
          'p99 ms': +r.p99Ms.toFixed(2),
          'hits/query': +r.meanHits.toFixed(1),
        },
      ]),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Crawl throughput with indexing on and off

interface CrawlFigures {
  label: string;
  pages: number;
  seconds: number;
  /** The server's CPU (every thread) per page: steadier than pages/s on a busy machine. */
  cpuMsPerPage: number;
  /** The same for the first crawl of the round, after the warm-up: every page new to the index. */
  firstCpuMsPerPage: number;
  /** The first crawl's pages/s. */
  firstPagesPerSecond: number;
}

interface IndexingCrawlBench {
  /** How long the site held each answer back. */
  latencyMs: number;
  rows: CrawlFigures[];
}

/**
 * One crawl, timed to its completion. Its CPU is read `settleMs` after that: writes the crawl
 * handed to the index's writer thread may still be under way, and are the crawl's cost, not the
 * next one's.
 */
async function crawlOnce(g: GleanerChild, startUrl: string, limit: number, settleMs = 0): Promise<{ pages: number; seconds: number; cpuMsPerPage: number }> {
  const started = performance.now();
  const cpu = procCpuSeconds(g.pid) ?? 0;
  const cpuMsPerPage = (pages: number) => (((procCpuSeconds(g.pid) ?? 0) - cpu) * 1000) / Math.max(1, pages);
  // storeInCache stays on (the default) so that indexing, when on, happens; maxAge 0 fetches anew.
  const { id } = await api<{ id: string }>(g, 'POST', '/v2/crawl', { url: startUrl, limit, maxConcurrency: 16, sitemap: 'skip', scrapeOptions: { formats: ['markdown'], maxAge: 0 } });
  for (;;) {
    await new Promise((r) => setTimeout(r, 25));
    const st = await api<{ status: string; completed?: number }>(g, 'GET', `/v2/crawl/${id}?limit=1`);
    if (['completed', 'failed', 'cancelled'].includes(st.status)) {
      const seconds = (performance.now() - started) / 1000;
      if (settleMs > 0) await new Promise((r) => setTimeout(r, settleMs));
      return { pages: st.completed ?? 0, seconds, cpuMsPerPage: cpuMsPerPage(st.completed ?? 0) };
    }
  }
}

const SETTLE_MS = 1000;
const WARM_UP_PAGES = 300;
/** The label of the `--against` checkout's rounds (indexing on, its code). */
const AGAINST = 'indexing on, --against';

/**
 * The servers (indexing off, on, and on in the `--against` checkout) run side by side, each
 * warmed up first by a crawl of another copy of the site (its compiler, its pools, the index's
 * files). Each round serves the manual at a new address, so its pages are new to every index:
 * each server crawls it in turn (the first to go moving on by one each round), then crawls it
 * again in the reverse order. A server of its own per round, started afresh and seconds from
 * the other's turn, put the machine's drift between them: two runs of the same code gave +2% and
 * +18% of CPU for the first crawl.
 */
export async function runIndexingCrawlBench(opts: { pages?: number; rounds?: number; against?: string; latencyMs?: number } = {}): Promise<IndexingCrawlBench | undefined> {
  const dir = pgDocsDir();
  if (!dir) return undefined;
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.html'));
  const limit = opts.pages ?? 1000;
  const runs: Array<{ label: string; on: boolean; root?: string }> = [
    { label: 'indexing off', on: false },
    { label: 'indexing on', on: true },
    ...(opts.against ? [{ label: AGAINST, on: true, root: opts.against }] : []),
  ];
  const servers: GleanerChild[] = [];
  const out: CrawlFigures[] = [];
  try {
    const warmUp = await serveDir(dir, files);
    try {
      for (const { on, root } of runs) {
        const g = await startGleanerChild({ concurrency: 16, env: { SEARCH_INDEX: on ? 'true' : 'false' }, ...(root ? { root } : {}) });
        servers.push(g);
        await crawlOnce(g, `${warmUp.url}/index.html`, WARM_UP_PAGES, SETTLE_MS);
      }
    } finally {
      await warmUp.close();
    }
    for (let round = 0; round < (opts.rounds ?? 3); round++) {
      const site = await serveDir(dir, files, { latencyMs: opts.latencyMs ?? 0 });
      try {
        const order = runs.map((_, i) => (i + round) % runs.length);
        const first = new Map<number, { cpuMsPerPage: number; pagesPerSecond: number }>();
        for (const i of order) {
          const r = await crawlOnce(servers[i]!, `${site.url}/index.html`, limit, SETTLE_MS);
          first.set(i, { cpuMsPerPage: r.cpuMsPerPage, pagesPerSecond: r.pages / r.seconds });
        }
        for (const i of order.reverse()) {
          const r = await crawlOnce(servers[i]!, `${site.url}/index.html`, limit, SETTLE_MS);
          out.push({ label: runs[i]!.label, ...r, firstCpuMsPerPage: first.get(i)!.cpuMsPerPage, firstPagesPerSecond: first.get(i)!.pagesPerSecond });
        }
      } finally {
        await site.close();
      }
    }
  } finally {
    for (const g of servers) await g.stop();
  }
  return { latencyMs: opts.latencyMs ?? 0, rows: out };
}

export function printIndexingCrawlBench({ latencyMs, rows }: IndexingCrawlBench): void {
  const labels = [...new Set(rows.map((r) => r.label))];
  const of = (label: string) => rows.filter((r) => r.label === label);
  const pagesPerSecond = (r: CrawlFigures) => r.pages / r.seconds;
  const firstPagesPerSecond = (r: CrawlFigures) => r.firstPagesPerSecond;
  const best = (label: string, f: (r: CrawlFigures) => number) => Math.max(...of(label).map(f));
  const median = (label: string, f: (r: CrawlFigures) => number) => quantile(of(label).map(f).sort((a, b) => a - b), 0.5);
  const slower = (offRate: number, onRate: number) => {
    const d = (offRate / onRate - 1) * 100;
    return `${Math.abs(d).toFixed(1)}% ${d >= 0 ? 'slower' : 'faster'}`;
  };
  const site = latencyMs ? `served with ${latencyMs} ms of latency a page, as across a network` : 'served on loopback at once, so that the crawl is bound by the CPU';
  console.log(`\nCrawl of up to ${of('indexing off')[0]!.pages} pages of the PostgreSQL manual (${site}), concurrency 16, with the local search index on and off (${of('indexing off').length} rounds each, taking turns; target: at most 5% slower)`);
  console.table(
    Object.fromEntries(
      labels.map((label) => [
        label,
        { 'crawl again, best pages/s': +best(label, pagesPerSecond).toFixed(1), 'first crawl, best pages/s': +best(label, firstPagesPerSecond).toFixed(1), 'first crawl, CPU ms/page': +median(label, (r) => r.firstCpuMsPerPage).toFixed(2) },
      ]),
    ),
  );
  for (const label of labels.filter((l) => l !== 'indexing off')) {
    for (const [what, f] of [
      ['crawl again', pagesPerSecond],
      ['first crawl (pages new to the index)', firstPagesPerSecond],
    ] as const) {
      const rounds = rows.filter((r) => r.label === 'indexing off' || r.label === label).map((r) => `${r.label === 'indexing off' ? 'off' : 'on'} ${f(r).toFixed(0)}`).join(', ');
      console.log(`${label}, ${what}: best of rounds ${slower(best('indexing off', f), best(label, f))}, median ${slower(median('indexing off', f), median(label, f))} (rounds: ${rounds} pages/s)`);
    }
    for (const [what, f] of [
      ['crawl again', (r: CrawlFigures) => r.cpuMsPerPage],
      ['first crawl', (r: CrawlFigures) => r.firstCpuMsPerPage],
    ] as const) {
      const [cpuOff, cpuOn] = [median('indexing off', f), median(label, f)];
      console.log(`${label}, server CPU per page, ${what} (median of rounds): off ${cpuOff.toFixed(2)} ms, on ${cpuOn.toFixed(2)} ms (${(((cpuOn - cpuOff) / cpuOff) * 100).toFixed(1)}% more)`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const pages = arg('--pages');
  const queries = arg('--queries');
  if (!process.argv.includes('--skip-index')) {
    const idx = await runIndexBench({ ...(pages ? { pages } : {}), ...(queries ? { queries } : {}) });
    if (idx) printIndexBench(idx);
  }
  if (!process.argv.includes('--skip-crawl')) {
    const rounds = arg('--rounds');
    const at = process.argv.indexOf('--against');
    const against = at > 0 ? path.resolve(process.argv[at + 1]!) : undefined;
    const latencyMs = arg('--latency-ms');
    const crawl = await runIndexingCrawlBench({ ...(rounds ? { rounds } : {}), ...(against ? { against } : {}), ...(latencyMs ? { latencyMs } : {}) });
    if (crawl) printIndexingCrawlBench(crawl);
  }
}
