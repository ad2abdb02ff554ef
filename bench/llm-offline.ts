/**
 * The offline model tier on a real corpus (Debian's PostgreSQL 15 HTML manual), beside a plain
 * markdown scrape of the same pages in the same run:
 * - through the API (a server process of its own, pages served on loopback): server CPU per page
 *   for formats ["markdown"] against ["markdown", "summary", {highlights}], and against
 *   ["markdown", {json schema}], interleaved rounds, both for scrapes as sent by default (the
 *   page stored in the cache and the search index) and with storeInCache: false;
 * - in process: the same work added to the bare transform (onlyMainContent + markdown), the
 *   strictest reading since a real scrape also fetches and answers;
 * - json: reading the page's structured data and filling a schema, per page.
 * CPU time, not wall time, is compared: the machine's cores may be shared.
 * With `--against DIR` (another checkout, e.g. a git worktree of an earlier commit, with its
 * node_modules), its offline algorithms and its server are timed in the same interleaved rounds:
 * before/after figures on the same machine state.
 *
 *   node --expose-gc --import tsx bench/llm-offline.ts [--limit N] [--rounds N] [--against DIR] [--no-api]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fillSchema } from '../src/llm/offline/fill.js';
import { rankPassages } from '../src/llm/offline/passages.js';
import { readPageData } from '../src/llm/offline/structured.js';
import { extractiveSummary } from '../src/llm/offline/summary.js';
import { analyse } from '../src/llm/offline/text.js';
import { transformPage } from '../src/transform/index.js';
import { Agent, request } from 'undici';
import { pgDocsDir, serveDir } from './corpus.js';
import { startGleanerChild, threadCpuMs, type GleanerChild } from './gleaner-child.js';

/** Server CPU ms per page (all threads) of one kind of scrape, medians over the rounds. */
export interface ScrapeCpu {
  markdown: number;
  summaryHighlights: number;
  json: number;
  /**
   * What summary + highlights add, in % of the markdown scrape, and json in ms per page: each
   * round's variants ran back to back, so the median of the rounds' own differences leaves out
   * what drifts from round to round (the collector, the log's checkpoints, other processes).
   */
  summaryHighlightsPct: number;
  /** The middle half of the rounds' own figures: how far one run's median may be trusted. */
  summaryHighlightsPctRange: [number, number];
  jsonAddedMs: number;
}

export interface ApiCpu {
  /** Scrapes as sent by default: the page is stored in the cache and the search index. */
  stored: ScrapeCpu;
  /** With storeInCache: false: nothing stored, the least work a scrape does. */
  unstored: ScrapeCpu;
}

export interface LlmOfflineBenchResult {
  api?: ApiCpu;
  /** The same figures for the `--against` checkout, from the same rounds. */
  against?: { dir: string; api?: ApiCpu; withSummaryHighlightsMs: number };
  pages: number;
  rounds: number;
  markdownMs: number;
  withSummaryHighlightsMs: number;
  /** Median over the rounds of each round's own overhead (transform and analysis ran back to back). */
  overheadPct: number;
  jsonMedianMs: number;
  jsonMeanMs: number;
  jsonP90Ms: number;
}

const OPTS = { baseUrl: 'https://www.postgresql.org/docs/15/', onlyMainContent: true, includeTags: [], excludeTags: [], removeBase64Images: true };
const WANTS = { markdown: true, html: false, links: false, images: false };
const SCHEMA = { type: 'object', properties: { title: { type: 'string' }, description: { type: 'string' }, author: { type: 'string' }, version: { type: 'string' } } };

/** After each run of scrapes, before its CPU is read. */
const SETTLE_MS = 500;
/** Times each API round goes over the pages, and how many pages each variant scrapes in its turn. */
const PASSES = 3;
const CHUNK = 40;

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

interface OfflineAlgorithms {
  analyse: typeof analyse;
  extractiveSummary: typeof extractiveSummary;
  rankPassages: typeof rankPassages;
}

async function algorithmsOf(dir: string): Promise<OfflineAlgorithms> {
  const load = (m: string) => import(pathToFileURL(path.join(dir, 'src', 'llm', 'offline', m)).href);
  const [text, summary, passages] = await Promise.all([load('text.ts'), load('summary.ts'), load('passages.ts')]);
  return { analyse: text.analyse, extractiveSummary: summary.extractiveSummary, rankPassages: passages.rankPassages };
}

export async function runLlmOfflineBench(opts: { limit?: number; rounds?: number; against?: string; noApi?: boolean } = {}): Promise<LlmOfflineBenchResult | undefined> {
  const dir = pgDocsDir();
  if (!dir) return undefined;
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.html')).sort().slice(0, opts.limit ?? 400);
  const pages = files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
  const queries = pages.map((html) => html.match(/<title>([^<]*)<\/title>/i)?.[1] ?? 'index');
  const rounds = opts.rounds ?? 3;
  const plain: number[] = [];
  const extra: number[] = [];
  const other = opts.against ? await algorithmsOf(opts.against) : undefined;
  const otherExtra: number[] = [];
  const pairedPct: number[] = [];
  const ours = { analyse, extractiveSummary, rankPassages };
  /** The ms the offline summary and highlights of one page's markdown take. */
  const analysisMs = (a: OfflineAlgorithms, markdown: string, query: string): number => {
    const t = performance.now();
    // As the pipeline does: one analysis of the page for both formats.
    const text = a.analyse(markdown);
    a.extractiveSummary(text);
    a.rankPassages(text, query);
    return performance.now() - t;
  };
  // Page by page: each page's transform, then its analysis by ours and, with --against, theirs
  // (which goes first alternating page by page), so that every variant sees the same machine
  // state. Whole passes of each, taking turns by round, gave +18% and +46% in two runs.
  for (let r = 0; r < rounds + 1; r++) {
    let a = 0;
    let b = 0;
    let c = 0;
    pages.forEach((html, i) => {
      const t = performance.now();
      // The markdown is read, as a scrape reads it (the transform builds it on first read).
      const markdown = transformPage(html, OPTS, WANTS).markdown ?? '';
      a += performance.now() - t;
      if (other && (i + r) % 2 === 1) c += analysisMs(other, markdown, queries[i]!);
      b += analysisMs(ours, markdown, queries[i]!);
      if (other && (i + r) % 2 === 0) c += analysisMs(other, markdown, queries[i]!);
    });
    if (r > 0) {
      plain.push(a);
      extra.push(a + b);
      if (other) otherExtra.push(a + c);
      pairedPct.push((b / a) * 100);
    }
  }
  const json: number[] = [];
  // A warm-up pass: the first pages would otherwise carry the JIT's start.
  for (const html of pages.slice(0, 50)) fillSchema(SCHEMA, readPageData(html));
  for (const html of pages) {
    const t = performance.now();
    fillSchema(SCHEMA, readPageData(html));
    json.push(performance.now() - t);
  }
  const [api, againstApi] = opts.noApi ? [] : await apiCpu(dir, files, rounds, opts.against ? [undefined, opts.against] : [undefined]);
  const markdownMs = quantile(plain, 0.5);
  const withSummaryHighlightsMs = quantile(extra, 0.5);
  return {
    ...(api ? { api } : {}),
    ...(opts.against ? { against: { dir: opts.against, withSummaryHighlightsMs: quantile(otherExtra, 0.5), ...(againstApi ? { api: againstApi } : {}) } } : {}),
    pages: pages.length,
    rounds,
    markdownMs,
    withSummaryHighlightsMs,
    overheadPct: quantile(pairedPct, 0.5),
    jsonMedianMs: quantile(json, 0.5),
    jsonMeanMs: json.reduce((n, x) => n + x, 0) / json.length,
    jsonP90Ms: quantile(json, 0.9),
  };
}

/** Server CPU per page for each server root (undefined: this checkout), in the same interleaved rounds. */
async function apiCpu(dir: string, files: string[], rounds: number, roots: (string | undefined)[]): Promise<(ApiCpu | undefined)[]> {
  const site = await serveDir(dir, files);
  const gleaners: GleanerChild[] = [];
  const agent = new Agent({ connections: 8 });
  try {
    for (const root of roots) gleaners.push(await startGleanerChild({ concurrency: 8, ...(root ? { root } : {}) }));
    const urls = files.map((f) => `${site.url}/${f}`);
    const scrape = async (gleaner: GleanerChild, url: string, formats: unknown[], store: boolean) => {
      const res = await request(`${gleaner.url}/v2/scrape`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${gleaner.key}`, 'content-type': 'application/json' },
        // maxAge 0: always fetched and transformed, never answered from the cache.
        body: JSON.stringify({ url, formats, maxAge: 0, ...(store ? {} : { storeInCache: false }) }),
      });
      const body = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`scrape of ${url} failed: ${res.statusCode} ${body.slice(0, 200)}`);
    };
    const highlights = (u: string) => ({ type: 'highlights', query: decodeURIComponent(u.replace(/^.*\//, '').replace(/\.html$/, '').replace(/-/g, ' ')) });
    type Variant = { kind: keyof ApiCpu; name: 'markdown' | 'summaryHighlights' | 'json'; store: boolean; formats: (u: string) => unknown[] };
    const variants: Variant[] = (['stored', 'unstored'] as const).flatMap((kind) => [
      { kind, name: 'markdown' as const, store: kind === 'stored', formats: () => ['markdown'] },
      { kind, name: 'summaryHighlights' as const, store: kind === 'stored', formats: (u: string) => ['markdown', 'summary', highlights(u)] },
      { kind, name: 'json' as const, store: kind === 'stored', formats: () => ['markdown', { type: 'json', schema: SCHEMA }] },
    ]);
    /** Server CPU ms of one chunk of scrapes. */
    const cpuOf = async (gleaner: GleanerChild, v: Variant, chunk: string[]): Promise<number> => {
      const before = threadCpuMs(gleaner.pid);
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < chunk.length) {
            const u = chunk[next++]!;
            await scrape(gleaner, u, v.formats(u), v.store);
          }
        }),
      );
      const after = threadCpuMs(gleaner.pid);
      let ms = 0;
      for (const [tid, t] of after) ms += t - (before.get(tid) ?? 0);
      return ms;
    };
    // Each round goes over the pages PASSES times, in chunks of CHUNK pages that every variant and
    // server scrapes in turn (the first in turn moving on by one each chunk). A machine's speed can
    // drift by a tenth within seconds: phases of a whole pass each, seconds apart, put that drift
    // between the variants, and two runs of the same code gave +16% and +32% for one of them.
    const work = Array.from({ length: PASSES }, () => urls).flat();
    const chunks = Array.from({ length: Math.ceil(work.length / CHUNK) }, (_, c) => work.slice(c * CHUNK, (c + 1) * CHUNK));
    const figures = gleaners.map(() => new Map<string, number[]>(variants.map((v) => [`${v.kind}.${v.name}`, []])));
    for (let r = 0; r < rounds + 1; r++) {
      const sums = gleaners.map(() => new Map<string, number>());
      for (const [c, chunk] of chunks.entries()) {
        const turn = (c + r) % variants.length;
        const inTurn = [...variants.slice(turn), ...variants.slice(0, turn)];
        // Reversed every other chunk too, so that no variant always follows the same one.
        for (const v of (c + r) % 2 === 1 ? inTurn.reverse() : inTurn) {
          const order = gleaners.map((_, i) => i);
          if ((c + r) % 2 === 1) order.reverse();
          for (const i of order) {
            const key = `${v.kind}.${v.name}`;
            sums[i]!.set(key, (sums[i]!.get(key) ?? 0) + (await cpuOf(gleaners[i]!, v, chunk)));
          }
        }
      }
      // The search index writes its batches on a thread of its own, a moment later: that work lands
      // in the chunks that follow, so a round ends after it.
      await new Promise((res) => setTimeout(res, SETTLE_MS));
      if (r > 0) sums.forEach((s, i) => s.forEach((ms, key) => figures[i]!.get(key)!.push(ms / work.length)));
    }
    const kindOf = (f: Map<string, number[]>, kind: keyof ApiCpu): ScrapeCpu => {
      const [md, sh, json] = (['markdown', 'summaryHighlights', 'json'] as const).map((n) => f.get(`${kind}.${n}`)!);
      const pct = md!.map((m, r) => ((sh![r]! - m) / m) * 100);
      return {
        markdown: quantile(md!, 0.5),
        summaryHighlights: quantile(sh!, 0.5),
        json: quantile(json!, 0.5),
        summaryHighlightsPct: quantile(pct, 0.5),
        summaryHighlightsPctRange: [quantile(pct, 0.25), quantile(pct, 0.75)],
        jsonAddedMs: quantile(md!.map((m, r) => json![r]! - m), 0.5),
      };
    };
    return figures.map((f) => (f.get('stored.markdown')!.every((x) => x === 0) ? undefined : { stored: kindOf(f, 'stored'), unstored: kindOf(f, 'unstored') }));
  } finally {
    await agent.close();
    for (const g of gleaners) await g.stop();
    await site.close();
  }
}

function printApi(title: string, api: ApiCpu): void {
  console.log(title);
  const print = (heading: string, c: ScrapeCpu) => {
    console.log(heading);
    console.log(`      formats ["markdown"]                   ${c.markdown.toFixed(2)} ms`);
    console.log(`      + summary + highlights                 ${c.summaryHighlights.toFixed(2)} ms  (+${c.summaryHighlightsPct.toFixed(1)}% paired by round, middle half of rounds ${c.summaryHighlightsPctRange.map((x) => x.toFixed(1)).join(' to ')}%, target <= 20%)`);
    console.log(`      + json {schema} (offline)              ${c.json.toFixed(2)} ms  (+${c.jsonAddedMs.toFixed(2)} ms/page paired by round, target <= 5 ms)`);
  };
  print('    a scrape as sent by default (stored in the cache and the search index):', api.stored);
  print('    with storeInCache: false (nothing stored):', api.unstored);
}

export function printLlmOfflineBench(r: LlmOfflineBenchResult): void {
  console.log(`\nOffline model tier on ${r.pages} PostgreSQL manual pages (median of ${r.rounds} interleaved rounds)`);
  if (r.api) printApi('  through the API, server CPU per page:', r.api);
  if (r.against?.api) printApi(`  the same, ${r.against.dir}'s server:`, r.against.api);
  console.log('  in process, against the bare transform (no fetch, no request: stricter than a scrape):');
  console.log(`  markdown transform                       ${r.markdownMs.toFixed(0).padStart(7)} ms  ${(r.markdownMs / r.pages).toFixed(2)} ms/page`);
  console.log(`  + offline summary + highlights           ${r.withSummaryHighlightsMs.toFixed(0).padStart(7)} ms  ${(r.withSummaryHighlightsMs / r.pages).toFixed(2)} ms/page  (+${r.overheadPct.toFixed(1)}% paired by round, of the transform alone)`);
  if (r.against) {
    const pct = ((r.against.withSummaryHighlightsMs - r.markdownMs) / r.markdownMs) * 100;
    console.log(`    with ${r.against.dir}'s algorithms ${r.against.withSummaryHighlightsMs.toFixed(0).padStart(7)} ms  ${(r.against.withSummaryHighlightsMs / r.pages).toFixed(2)} ms/page  (+${pct.toFixed(1)}%)`);
  }
  console.log(`  offline json from structured data        median ${r.jsonMedianMs.toFixed(2)} ms/page, mean ${r.jsonMeanMs.toFixed(2)}, p90 ${r.jsonP90Ms.toFixed(2)} (target <= 5 ms)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const limit = arg('--limit');
  const rounds = arg('--rounds');
  const against = process.argv.includes('--against') ? path.resolve(process.argv[process.argv.indexOf('--against') + 1]!) : undefined;
  const r = await runLlmOfflineBench({ ...(limit ? { limit } : {}), ...(rounds ? { rounds } : {}), ...(against ? { against } : {}), noApi: process.argv.includes('--no-api') });
  if (r) printLlmOfflineBench(r);
}
