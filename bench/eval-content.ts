/**
 * Main-content extraction quality on the shared datasets (see shared/datasets/README.md).
 *
 *   node --import tsx bench/eval-content.ts [--limit N] [--only wcxb|scrapinghub] [--no-baseline]
 *
 * Our transformPage (onlyMainContent, markdown) and a Readability(linkedom)+turndown baseline run
 * on the same pages in the same process; both markdown outputs are stripped to plain text the
 * same way before scoring. Metrics, as the datasets README defines them:
 *   WCXB: word-level F1 between the text and `ground_truth.main_content` over lower-cased `\w+`
 *     tokens as multisets, averaged over pages, overall and per page type; also precision,
 *     recall, the share of `with` snippets found and of `without` snippets absent.
 *   Scrapinghub: F1 over 4-gram shingles of whitespace tokens against `articleBody`.
 * Snippet matching works on the same `\w+` tokens: a snippet is found when its token sequence
 * occurs contiguously in the text's, so markdown punctuation and spacing do not matter and a
 * short snippet such as "Home" does not match inside "homepage". Snippet shares are averaged
 * per page over the pages that have such snippets.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { transformPage } from '../src/transform/index.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function datasetsDir(): string {
  return process.env.GLEANER_DATASETS ?? path.resolve(REPO_ROOT, '..', 'shared', 'datasets');
}

// ---------------------------------------------------------------------------------------------
// Text normalisation and metrics

/** Markdown → plain text: drops syntax, keeps the words a reader sees. */
export function stripMarkdown(md: string): string {
  const out: string[] = [];
  let inFence = false;
  for (let line of md.split('\n')) {
    if (/^\s{0,3}(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      out.push(line);
      continue;
    }
    if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line)) continue; // table rule
    if (/^\s*([-*_]\s*){3,}$/.test(line)) continue; // thematic break
    line = line
      // A line break inside a table's cell is written as HTML; a reader sees the break, not the tag.
      .replace(/(?<!\\)<br\s*\/?>/gi, ' ')
      .replace(/^\s{0,3}#{1,6}\s+/, '')
      .replace(/^\s*(>\s*)+/, '')
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, '')
      .replace(/!\[((?:\\.|[^\]\\])*)\]\([^)]*\)/g, '$1')
      .replace(/\[((?:\\.|[^\]\\])*)\]\((?:<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\)/g, '$1')
      .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
      // CommonMark lets a backslash escape any ASCII punctuation mark; the reader sees the mark.
      .replace(/\\([!-/:-@[-`{-~])/g, '$1')
      .replace(/(\*\*|\*|~~|`+)(?=\S)([^\n]*?\S)\1/g, '$2')
      // Underscore emphasis only at word edges, so snake_case identifiers keep their underscores.
      .replace(/(^|[^\p{L}\p{N}_])(__?)(?=\S)([^\n]*?\S)\2(?![\p{L}\p{N}_])/gu, '$1$3')
      .replace(/^\s*\|/, '')
      .replace(/\|\s*$/, '')
      .replace(/\s\|\s/g, ' ')
      .replace(/\s*\\$/, '');
    out.push(line);
  }
  return out.join('\n').trim();
}

const WORD = /[\p{L}\p{N}_]+/gu;

/** Lower-cased `\w+` tokens (Unicode-aware, as Python's `\w` is). */
export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

function counts(tokens: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

export interface Prf {
  precision: number;
  recall: number;
  f1: number;
}

/** Precision/recall/F1 of two token multisets. Empty vs empty counts as a perfect match. */
export function multisetPrf(predicted: readonly string[], truth: readonly string[]): Prf {
  if (predicted.length === 0 && truth.length === 0) return { precision: 1, recall: 1, f1: 1 };
  if (predicted.length === 0 || truth.length === 0) return { precision: 0, recall: 0, f1: 0 };
  const truthCounts = counts(truth);
  let common = 0;
  for (const [t, n] of counts(predicted)) common += Math.min(n, truthCounts.get(t) ?? 0);
  const precision = common / predicted.length;
  const recall = common / truth.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** 4-gram shingles of whitespace tokens; a text shorter than n gives one shingle of all its tokens. */
export function shingles(text: string, n = 4): string[] {
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return [];
  const out: string[] = [];
  for (let i = 0; i < Math.max(1, tokens.length - n + 1); i++) out.push(tokens.slice(i, i + n).join('\u0001'));
  return out;
}

/** Share of snippets whose token sequence occurs in the text's token sequence. */
function snippetShareFound(textTokens: readonly string[], snippets: readonly string[]): number | undefined {
  const usable = snippets.map((s) => wordTokens(s)).filter((t) => t.length > 0);
  if (usable.length === 0) return undefined;
  const hay = ` ${textTokens.join(' ')} `;
  let found = 0;
  for (const t of usable) if (hay.includes(` ${t.join(' ')} `)) found++;
  return found / usable.length;
}

// ---------------------------------------------------------------------------------------------
// Extractors

export type Extractor = (html: string, url: string) => string;

export function oursExtractor(): Extractor {
  return (html, url) =>
    stripMarkdown(
      transformPage(
        html,
        { baseUrl: url, onlyMainContent: true, includeTags: [], excludeTags: [], removeBase64Images: true },
        { markdown: true, html: false, links: false, images: false },
      ).markdown ?? '',
    );
}

export function readabilityExtractor(): Extractor {
  // turndown ships no type declarations; it is a dev-only baseline here.
  const require = createRequire(import.meta.url);
  const TurndownService = require('turndown') as new (opts: object) => {
    turndown(html: string): string;
    use(p: unknown): void;
  };
  const { gfm } = require('turndown-plugin-gfm') as { gfm: unknown };
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  td.use(gfm);
  return (html) => {
    const { document } = parseHTML(html);
    const article = new Readability(document).parse();
    return article?.content ? stripMarkdown(td.turndown(article.content)) : '';
  };
}

// ---------------------------------------------------------------------------------------------
// Datasets

interface WcxbPage {
  id: string;
  url: string;
  type: string;
  html: string;
  mainContent: string;
  with: string[];
  without: string[];
}

function loadWcxb(root: string, limit?: number): WcxbPage[] {
  const dir = path.join(root, 'wcxb-dev', 'dev');
  const gtDir = path.join(dir, 'ground-truth');
  if (!fs.existsSync(gtDir)) return [];
  let ids = fs
    .readdirSync(gtDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
  if (limit !== undefined) ids = ids.slice(0, limit);
  const pages: WcxbPage[] = [];
  for (const id of ids) {
    const htmlFile = path.join(dir, 'html', `${id}.html.gz`);
    if (!fs.existsSync(htmlFile)) continue;
    const gt = JSON.parse(fs.readFileSync(path.join(gtDir, `${id}.json`), 'utf8')) as {
      url?: string;
      _internal?: { page_type?: { primary?: string } };
      ground_truth?: { main_content?: string; with?: string[]; without?: string[] };
    };
    pages.push({
      id,
      url: gt.url ?? 'https://example.invalid/',
      type: gt._internal?.page_type?.primary ?? 'unknown',
      html: zlib.gunzipSync(fs.readFileSync(htmlFile)).toString('utf8'),
      mainContent: gt.ground_truth?.main_content ?? '',
      with: gt.ground_truth?.with ?? [],
      without: gt.ground_truth?.without ?? [],
    });
  }
  return pages;
}

interface ShPage {
  id: string;
  url: string;
  html: string;
  body: string;
}

function loadScrapinghub(root: string, limit?: number): ShPage[] {
  const dir = path.join(root, 'article-extraction-benchmark');
  const gtFile = path.join(dir, 'ground-truth.json');
  if (!fs.existsSync(gtFile)) return [];
  const gt = JSON.parse(fs.readFileSync(gtFile, 'utf8')) as Record<string, { articleBody?: string; url?: string }>;
  let ids = Object.keys(gt).sort();
  if (limit !== undefined) ids = ids.slice(0, limit);
  const pages: ShPage[] = [];
  for (const id of ids) {
    const htmlFile = path.join(dir, 'html', `${id}.html.gz`);
    if (!fs.existsSync(htmlFile)) continue;
    pages.push({
      id,
      url: gt[id]?.url ?? 'https://example.invalid/',
      // Pages are UTF-8 (the benchmark stores them decoded and re-encoded).
      html: zlib.gunzipSync(fs.readFileSync(htmlFile)).toString('utf8'),
      body: gt[id]?.articleBody ?? '',
    });
  }
  return pages;
}

// ---------------------------------------------------------------------------------------------
// Scoring

export interface Aggregate {
  pages: number;
  f1: number;
  precision: number;
  recall: number;
}

export interface WcxbScores extends Aggregate {
  withFound: number;
  withoutAbsent: number;
  byType: Record<string, Aggregate>;
}

export interface Throughput {
  mb: number;
  seconds: number;
  mbPerSec: number;
  errors: number;
}

export interface SystemEval {
  wcxb?: WcxbScores & { throughput: Throughput };
  scrapinghub?: Aggregate & { throughput: Throughput };
}

export interface ContentEvalResult {
  datasets: string;
  ours: SystemEval;
  baseline?: SystemEval;
}

export interface ContentEvalOptions {
  limit?: number;
  only?: 'wcxb' | 'scrapinghub';
  baseline?: boolean;
  datasets?: string;
  log?: (line: string) => void;
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

function run<P extends { html: string; url: string }>(
  pages: readonly P[],
  extract: Extractor,
): { texts: string[]; throughput: Throughput } {
  const texts: string[] = [];
  let bytes = 0;
  let errors = 0;
  const t0 = process.hrtime.bigint();
  for (const p of pages) {
    bytes += Buffer.byteLength(p.html);
    try {
      texts.push(extract(p.html, p.url));
    } catch {
      errors++;
      texts.push('');
    }
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { texts, throughput: { mb: bytes / 1e6, seconds, mbPerSec: bytes / 1e6 / seconds, errors } };
}

function scoreWcxb(pages: readonly WcxbPage[], texts: readonly string[]): WcxbScores {
  const per: Array<Prf & { type: string; withFound?: number; withoutAbsent?: number }> = [];
  pages.forEach((p, i) => {
    const tokens = wordTokens(texts[i] ?? '');
    const prf = multisetPrf(tokens, wordTokens(p.mainContent));
    const withFound = snippetShareFound(tokens, p.with);
    const withoutFound = snippetShareFound(tokens, p.without);
    per.push({ ...prf, type: p.type, withFound, withoutAbsent: withoutFound === undefined ? undefined : 1 - withoutFound });
  });
  const agg = (rows: typeof per): Aggregate => ({
    pages: rows.length,
    f1: mean(rows.map((r) => r.f1)),
    precision: mean(rows.map((r) => r.precision)),
    recall: mean(rows.map((r) => r.recall)),
  });
  const byType: Record<string, Aggregate> = {};
  for (const type of [...new Set(per.map((r) => r.type))].sort()) byType[type] = agg(per.filter((r) => r.type === type));
  return {
    ...agg(per),
    withFound: mean(per.flatMap((r) => (r.withFound === undefined ? [] : [r.withFound]))),
    withoutAbsent: mean(per.flatMap((r) => (r.withoutAbsent === undefined ? [] : [r.withoutAbsent]))),
    byType,
  };
}

function scoreScrapinghub(pages: readonly ShPage[], texts: readonly string[]): Aggregate {
  const per = pages.map((p, i) => multisetPrf(shingles(texts[i] ?? ''), shingles(p.body)));
  return {
    pages: per.length,
    f1: mean(per.map((r) => r.f1)),
    precision: mean(per.map((r) => r.precision)),
    recall: mean(per.map((r) => r.recall)),
  };
}

export function runContentEval(opts: ContentEvalOptions = {}): ContentEvalResult {
  const log = opts.log ?? ((line: string) => console.log(line));
  const root = opts.datasets ?? datasetsDir();
  const withBaseline = opts.baseline ?? true;
  const systems: Array<[keyof Pick<ContentEvalResult, 'ours' | 'baseline'>, Extractor]> = [['ours', oursExtractor()]];
  if (withBaseline) systems.push(['baseline', readabilityExtractor()]);
  const result: ContentEvalResult = { datasets: root, ours: {} };
  if (withBaseline) result.baseline = {};

  if (opts.only !== 'scrapinghub') {
    const pages = loadWcxb(root, opts.limit);
    log(`WCXB dev: ${pages.length} pages`);
    if (pages.length > 0) {
      for (const [key, extract] of systems) {
        const r = run(pages, extract);
        result[key]!.wcxb = { ...scoreWcxb(pages, r.texts), throughput: r.throughput };
        log(`  ${key}: F1 ${result[key]!.wcxb!.f1.toFixed(3)} (${r.throughput.seconds.toFixed(1)} s)`);
      }
    }
  }
  if (opts.only !== 'wcxb') {
    const pages = loadScrapinghub(root, opts.limit);
    log(`Scrapinghub: ${pages.length} pages`);
    if (pages.length > 0) {
      for (const [key, extract] of systems) {
        const r = run(pages, extract);
        result[key]!.scrapinghub = { ...scoreScrapinghub(pages, r.texts), throughput: r.throughput };
        log(`  ${key}: F1 ${result[key]!.scrapinghub!.f1.toFixed(3)} (${r.throughput.seconds.toFixed(1)} s)`);
      }
    }
  }
  return result;
}

export function formatContentEval(r: ContentEvalResult): string {
  const lines: string[] = [];
  const f = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(3));
  const table = (head: string[], rows: string[][]) => {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    lines.push(line(head), ...rows.map(line), '');
  };
  const o = r.ours;
  const b = r.baseline;
  if (o.wcxb) {
    lines.push(`WCXB dev (${o.wcxb.pages} pages): word F1, ours vs Readability+turndown`);
    const types = Object.keys(o.wcxb.byType);
    table(
      ['', 'ours F1', 'ours P', 'ours R', 'base F1', 'base P', 'base R', 'pages'],
      [
        ['overall', f(o.wcxb.f1), f(o.wcxb.precision), f(o.wcxb.recall), f(b?.wcxb?.f1), f(b?.wcxb?.precision), f(b?.wcxb?.recall), String(o.wcxb.pages)],
        ...types.map((t) => {
          const ot = o.wcxb!.byType[t]!;
          const bt = b?.wcxb?.byType[t];
          return [t, f(ot.f1), f(ot.precision), f(ot.recall), f(bt?.f1), f(bt?.precision), f(bt?.recall), String(ot.pages)];
        }),
      ],
    );
    table(
      ['', 'ours', 'baseline'],
      [
        ['with found', f(o.wcxb.withFound), f(b?.wcxb?.withFound)],
        ['without absent', f(o.wcxb.withoutAbsent), f(b?.wcxb?.withoutAbsent)],
        ['MB/s', o.wcxb.throughput.mbPerSec.toFixed(2), b?.wcxb ? b.wcxb.throughput.mbPerSec.toFixed(2) : '-'],
        ['errors', String(o.wcxb.throughput.errors), b?.wcxb ? String(b.wcxb.throughput.errors) : '-'],
      ],
    );
  }
  if (o.scrapinghub) {
    lines.push(`Scrapinghub article benchmark (${o.scrapinghub.pages} pages): 4-gram shingle F1`);
    table(
      ['', 'ours', 'baseline'],
      [
        ['F1', f(o.scrapinghub.f1), f(b?.scrapinghub?.f1)],
        ['precision', f(o.scrapinghub.precision), f(b?.scrapinghub?.precision)],
        ['recall', f(o.scrapinghub.recall), f(b?.scrapinghub?.recall)],
        ['MB/s', o.scrapinghub.throughput.mbPerSec.toFixed(2), b?.scrapinghub ? b.scrapinghub.throughput.mbPerSec.toFixed(2) : '-'],
        ['errors', String(o.scrapinghub.throughput.errors), b?.scrapinghub ? String(b.scrapinghub.throughput.errors) : '-'],
      ],
    );
  }
  if (!o.wcxb && !o.scrapinghub) lines.push(`no dataset found under ${r.datasets} (set GLEANER_DATASETS)`);
  return lines.join('\n');
}

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const limit = argValue('--limit');
  const only = argValue('--only');
  const result = runContentEval({
    limit: limit ? Number(limit) : undefined,
    only: only === 'wcxb' || only === 'scrapinghub' ? only : undefined,
    baseline: !process.argv.includes('--no-baseline'),
  });
  console.log('');
  console.log(formatContentEval(result));
}
