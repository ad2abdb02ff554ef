/**
 * HTML → markdown throughput on a real corpus: Debian's postgresql-doc-15 HTML manual.
 *
 *   node --expose-gc --import tsx bench/markdown.ts [--limit N] [--rounds N]
 *
 * Compares, in one process and on the same pages held in memory: our transformPage
 * (onlyMainContent + markdown), the converter alone on the raw page (the floor our pipeline
 * sits on), turndown + GFM, and Readability (linkedom) + turndown.
 *
 *   ... bench/markdown.ts --against DIR
 *
 * adds the transformPage of another checkout at DIR (a build before a change, say) as a row of
 * its own, timed in the same interleaved rounds as ours: old and new alternate in one run. MB/s is input bytes over
 * total time; per-page figures are medians. The machine's CPUs may be shared, so compare rows
 * of the same run rather than runs with each other.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import kreuzberg from '@kreuzberg/html-to-markdown-node';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { transformPage } from '../src/transform/index.js';
import { pgDocsDir } from './corpus.js';


export interface ConverterFigures {
  name: string;
  mbPerSec: number;
  medianMs: number;
  p90Ms: number;
  maxMs: number;
  totalMs: number;
  outputChars: number;
  errors: number;
  /** Process peak RSS (MB) right after this converter ran; peaks only grow. */
  peakRssMb: number;
}

export interface MarkdownBenchResult {
  skipped?: string;
  corpus?: { dir: string; pages: number; mb: number };
  converters: ConverterFigures[];
  peakRssMb: number;
}

export interface MarkdownBenchOptions {
  dir?: string;
  /** Use only the first N pages (sorted by name). */
  limit?: number;
  /** Timed passes for our pipeline and the bare converter (interleaved); the median is reported. */
  rounds?: number;
  /** Skip the slow JS baselines. */
  skipBaselines?: boolean;
  /** Another checkout's transformPage, timed alongside ours (see --against). */
  against?: { name: string; transformPage: TransformPage };
  log?: (line: string) => void;
}

type Convert = (html: string) => string;
type TransformPage = typeof transformPage;

interface TurndownLike {
  turndown(html: string): string;
  use(plugin: unknown): void;
}

function makeTurndown(): TurndownLike {
  // turndown ships no type declarations; it is a dev-only baseline here.
  const require = createRequire(import.meta.url);
  const TurndownService = require('turndown') as new (opts: object) => TurndownLike;
  const { gfm } = require('turndown-plugin-gfm') as { gfm: unknown };
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  td.use(gfm);
  return td;
}

function converters(against?: MarkdownBenchOptions['against']): Array<{ name: string; convert: Convert; rounds: 'many' | 'one' }> {
  const td = makeTurndown();
  const opts = {
    baseUrl: 'https://www.postgresql.org/docs/15/',
    onlyMainContent: true,
    includeTags: [],
    excludeTags: [],
    removeBase64Images: true,
  };
  const wants = { markdown: true, html: false, links: false, images: false };
  const other = against;
  return [
    { name: 'gleaner transformPage (main content + markdown)', convert: (h) => transformPage(h, opts, wants).markdown ?? '', rounds: 'many' },
    ...(other !== undefined
      ? [{ name: `${other.name} transformPage (main content + markdown)`, convert: (h: string) => other.transformPage(h, opts, wants).markdown ?? '', rounds: 'many' as const }]
      : []),
    {
      name: 'kreuzberg alone on the raw page (reference)',
      convert: (h) => kreuzberg.convert(h, { extractMetadata: false }).content ?? '',
      rounds: 'many',
    },
    { name: 'turndown + gfm', convert: (h) => td.turndown(h), rounds: 'one' },
    {
      name: 'Readability (linkedom) + turndown',
      convert: (h) => {
        const { document } = parseHTML(h);
        const article = new Readability(document).parse();
        return article?.content ? td.turndown(article.content) : '';
      },
      rounds: 'one',
    },
  ];
}

function peakRssMb(): number {
  // maxRSS is in kilobytes.
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function timePass(pages: readonly string[], convert: Convert): { times: number[]; totalMs: number; out: number; errors: number } {
  const times: number[] = [];
  let out = 0;
  let errors = 0;
  const t0 = process.hrtime.bigint();
  for (const html of pages) {
    const s = process.hrtime.bigint();
    try {
      out += convert(html).length;
    } catch {
      errors++;
    }
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  return { times, totalMs: Number(process.hrtime.bigint() - t0) / 1e6, out, errors };
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function runMarkdownBench(options: MarkdownBenchOptions = {}): MarkdownBenchResult {
  const log = options.log ?? ((line: string) => console.log(line));
  const dir = options.dir ?? pgDocsDir();
  if (!dir) return { skipped: 'corpus missing', converters: [], peakRssMb: peakRssMb() };
  let files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.html'))
    .sort();
  if (options.limit !== undefined && options.limit > 0) files = files.slice(0, options.limit);
  const pages = files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
  const bytes = pages.reduce((a, p) => a + Buffer.byteLength(p), 0);
  const rounds = Math.max(1, options.rounds ?? 5);
  log(`corpus: ${pages.length} pages, ${(bytes / 1e6).toFixed(2)} MB from ${dir}; ${rounds} timed rounds for the fast rows`);

  const results: ConverterFigures[] = [];
  const all = converters(options.against).filter((c) => !(options.skipBaselines && c.rounds === 'one'));
  // A server converts pages all day: the JS rows are timed with their code optimised, after one
  // untimed pass over the whole corpus (the slow baselines get a shorter warm-up).
  for (const c of all) for (const html of c.rounds === 'many' ? pages : pages.slice(0, 30)) c.convert(html);
  // Rounds of the fast rows are interleaved so that load from other processes hits them alike.
  // One forced collection before them, not one per pass: a full collection while no page is
  // being converted lets V8 drop the hidden classes of the converter's per-page objects, and the
  // JS code optimised against them is thrown away (about 70 functions each time) and compiled
  // again during the next pass, which a server converting pages all day never goes through.
  const passes = new Map<string, ReturnType<typeof timePass>[]>();
  const fast = all.filter((c) => c.rounds === 'many');
  gc();
  for (let r = 0; r < rounds; r++) {
    for (const c of fast) {
      const list = passes.get(c.name) ?? [];
      list.push(timePass(pages, c.convert));
      passes.set(c.name, list);
    }
  }
  for (const c of all) {
    if (c.rounds === 'one') {
      gc();
      passes.set(c.name, [timePass(pages, c.convert)]);
    }
    const list = [...(passes.get(c.name) ?? [])].sort((a, b) => a.totalMs - b.totalMs);
    const pass = list[Math.floor(list.length / 2)]!;
    const sorted = [...pass.times].sort((a, b) => a - b);
    const fig: ConverterFigures = {
      name: c.name,
      mbPerSec: bytes / 1e6 / (pass.totalMs / 1000),
      medianMs: quantile(sorted, 0.5),
      p90Ms: quantile(sorted, 0.9),
      maxMs: sorted[sorted.length - 1] ?? 0,
      totalMs: pass.totalMs,
      outputChars: pass.out,
      errors: pass.errors,
      peakRssMb: peakRssMb(),
    };
    results.push(fig);
    log(`  ${fig.name}: ${fig.mbPerSec.toFixed(2)} MB/s`);
  }
  return { corpus: { dir, pages: pages.length, mb: bytes / 1e6 }, converters: results, peakRssMb: peakRssMb() };
}

export function formatMarkdownBench(r: MarkdownBenchResult): string {
  if (r.skipped) return `markdown bench skipped: ${r.skipped}`;
  const head = ['converter', 'MB/s', 'median ms/page', 'p90 ms', 'max ms', 'peak RSS MB'];
  const rows = r.converters.map((c) => [
    c.name,
    c.mbPerSec.toFixed(2),
    c.medianMs.toFixed(2),
    c.p90Ms.toFixed(2),
    c.maxMs.toFixed(0),
    String(c.peakRssMb),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), ...rows.map(line), `peak RSS of the process: ${r.peakRssMb} MB`].join('\n');
}

export function printMarkdownBench(r: MarkdownBenchResult): void {
  console.log(formatMarkdownBench(r));
}

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  if (!(globalThis as { gc?: unknown }).gc) console.log('(run with --expose-gc for steadier figures)');
  const limit = argValue('--limit');
  const rounds = argValue('--rounds');
  const againstDir = argValue('--against');
  const against = againstDir
    ? {
        name: path.basename(path.resolve(againstDir)),
        transformPage: ((await import(pathToFileURL(transformEntry(againstDir)).href)) as { transformPage: TransformPage }).transformPage,
      }
    : undefined;
  const result = runMarkdownBench({
    limit: limit ? Number(limit) : undefined,
    rounds: rounds ? Number(rounds) : undefined,
    skipBaselines: process.argv.includes('--no-baselines'),
    against,
  });
  console.log('');
  printMarkdownBench(result);
}

/** Another checkout's transform entry: src/transform, or src/scrape/transform in older trees. */
function transformEntry(dir: string): string {
  const current = path.resolve(dir, 'src/transform/index.ts');
  return fs.existsSync(current) ? current : path.resolve(dir, 'src/scrape/transform/index.ts');
}
