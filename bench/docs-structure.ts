/**
 * Documentation structure: how much of a manual page's own structure (headings, table cells,
 * code blocks, links, list items) survives in the markdown, with onlyMainContent on and off.
 *
 *   node --import tsx bench/docs-structure.ts [--only pg|python] [--page NAME] [--verbose]
 *
 * Corpus: about 250 pages of two manuals installed by Debian packages, chosen by file name so
 * every kind is there: command and library references, tutorials, function and catalog tables,
 * release notes, and index pages whose body is a table of contents. PostgreSQL 15
 * (postgresql-doc-15, DocBook) and Python 3 (python3-doc, Sphinx); a manual that is not
 * installed is skipped with a note.
 *
 * Ground truth is the page's own main element, read with the HTML parser: for DocBook, the body's
 * content between its navigation header and footer; for Sphinx, `div[role=main]` (or
 * `div.body`). Tables of contents (DocBook's `div.toc` and lists of tables, Sphinx's toctree and
 * local contents) are left out of every measure but the last. Measures, each a share of the true
 * items found in the markdown:
 * - headings: h1-h6 whose words are a markdown heading's;
 * - cells: F1 of table cells' words, true cells against the cells of emitted tables that share a
 *   cell with the truth (a navigation table is no table of the page's);
 * - code: `<pre>` blocks (outside tables) whose text is a fenced block's, line for line;
 * - links: targets of links with text (headings' anchor glyphs and links inside code blocks
 *   aside), as a multiset;
 * - lists: `<li>` (outside tables) emitted as a list item at the same nesting depth whose
 *   words start as the item's do;
 * - toc pages: on pages whose body is mostly a table of contents, that table's links.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, type CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { transformPage } from '../src/transform/index.js';
import { PG_DOCS_DIR } from './corpus.js';
import { stripMarkdown, wordTokens } from './eval-content.js';

export const PYTHON_DOCS_DIR = '/usr/share/doc/python3/html';

type Manual = 'pg' | 'python';
type Kind = 'reference' | 'tutorial' | 'function tables' | 'catalog' | 'release notes' | 'toc page' | 'other';

export interface CorpusPage {
  manual: Manual;
  file: string;
  url: string;
  kind: Kind;
}

const MEASURES = ['headings', 'cells', 'code', 'links', 'lists', 'tocLinks'] as const;
type Measure = (typeof MEASURES)[number];

/** Found and true counts (cells: also emitted, for precision). */
export interface Tally {
  found: number;
  truth: number;
  emitted: number;
}

export type PageScores = Record<Measure, Tally> & { misses: Record<Measure, string[]> };

// ---------------------------------------------------------------------------------------------
// Corpus

function everyNth<T>(items: readonly T[], n: number): T[] {
  return items.filter((_, i) => i % n === 0);
}

function listHtml(dir: string, sub = ''): string[] {
  const at = path.join(dir, sub);
  if (!fs.existsSync(at)) return [];
  return fs.readdirSync(at).filter((f) => f.endsWith('.html')).sort().map((f) => (sub ? `${sub}/${f}` : f));
}

/** DocBook pages whose top division is a part, a chapter or a reference: tables of contents. */
const PG_TOC_CLASSES = /^(?:chapter|part|reference|book|set|appendix|preface)$/;

function pgTopClass(dir: string, file: string): string {
  const html = fs.readFileSync(path.join(dir, file), 'utf8');
  const m = /<\/div><div class="([a-z0-9]+)"/.exec(html.slice(html.indexOf('navheader')));
  return m?.[1] ?? '';
}

export function pgCorpus(dir: string): CorpusPage[] {
  const files = listHtml(dir);
  const page = (file: string, kind: Kind): CorpusPage => ({ manual: 'pg', file, url: `https://www.postgresql.org/docs/15/${file}`, kind });
  const by = (re: RegExp) => files.filter((f) => re.test(f));
  const toc = files.filter((f) => PG_TOC_CLASSES.test(pgTopClass(dir, f)));
  const chosen: CorpusPage[] = [
    ...everyNth(by(/^sql-/), 6).map((f) => page(f, 'reference')),
    ...by(/^functions-/).map((f) => page(f, 'function tables')),
    ...everyNth(by(/^(?:catalog|view|infoschema)-/), 8).map((f) => page(f, 'catalog')),
    ...everyNth(by(/^release-/), 2).map((f) => page(f, 'release notes')),
    ...everyNth(by(/^tutorial-/), 2).map((f) => page(f, 'tutorial')),
    ...everyNth(toc, 5).map((f) => page(f, 'toc page')),
  ];
  const taken = new Set(chosen.map((p) => p.file));
  const rest = files.filter((f) => !taken.has(f) && !/^(?:sql|functions|catalog|view|infoschema|release|tutorial)-/.test(f) && !toc.includes(f));
  return [...chosen, ...everyNth(rest, 25).map((f) => page(f, 'other'))];
}

export function pythonCorpus(dir: string): CorpusPage[] {
  const page = (file: string, kind: Kind): CorpusPage => ({ manual: 'python', file, url: `https://docs.python.org/3/${file}`, kind });
  const notIndex = (f: string) => !f.endsWith('/index.html');
  const tocPages = ['index.html', 'contents.html', 'library/index.html', 'tutorial/index.html', 'reference/index.html', 'howto/index.html', 'whatsnew/index.html', 'c-api/index.html', 'using/index.html', 'extending/index.html', 'faq/index.html'];
  return [
    ...everyNth(listHtml(dir, 'library').filter(notIndex), 7).map((f) => page(f, 'reference')),
    ...everyNth(listHtml(dir, 'c-api').filter(notIndex), 8).map((f) => page(f, 'reference')),
    ...everyNth(listHtml(dir, 'reference').filter(notIndex), 2).map((f) => page(f, 'reference')),
    ...everyNth(listHtml(dir, 'tutorial').filter(notIndex), 2).map((f) => page(f, 'tutorial')),
    ...everyNth(listHtml(dir, 'howto').filter(notIndex), 3).map((f) => page(f, 'tutorial')),
    ...listHtml(dir, 'whatsnew').filter(notIndex).map((f) => page(f, 'release notes')),
    ...tocPages.filter((f) => fs.existsSync(path.join(dir, f))).map((f) => page(f, 'toc page')),
    ...['glossary.html', 'bugs.html', 'faq/programming.html', 'using/cmdline.html'].filter((f) => fs.existsSync(path.join(dir, f))).map((f) => page(f, 'other')),
  ];
}

// ---------------------------------------------------------------------------------------------
// Ground truth

const TOC = '.toc, .toctree-wrapper, nav.contents, div.contents, .list-of-tables, .list-of-figures, .list-of-examples, .list-of-equations';
/** The anchor glyph Sphinx puts in headings and captions ("¶"): not the page's text. */
const GLYPHS = 'a.headerlink';

interface Truth {
  headings: string[];
  cells: string[];
  code: string[];
  links: string[];
  lists: Array<{ depth: number; words: string[] }>;
  tocLinks: string[];
}

function mainElement($: CheerioAPI, manual: Manual): Element[] {
  if (manual === 'python') {
    const main = $('div[role=main]').first();
    return (main.length > 0 ? main : $('div.body').first()).toArray() as Element[];
  }
  const kids = $('#docContent').children().not('.navheader, .navfooter');
  if (kids.length > 0) return kids.toArray() as Element[];
  return $('.sect1, .refentry, .chapter, .part, .appendix, .reference, .sect2').first().toArray() as Element[];
}

/** Words as the scores compare them: markdown's emphasis rules may eat an identifier's edge underscores (`__init__`). */
const tokens = (text: string) => wordTokens(text.replace(/\u00a0|_/g, ' '));
const words = (text: string) => tokens(text).join(' ');

export function groundTruth(html: string, manual: Manual, url: string): Truth {
  const $ = load(html);
  $(GLYPHS).remove();
  const roots = mainElement($, manual);
  const all = (sel: string) => roots.flatMap((r) => $(r).find(sel).addBack(sel).toArray() as Element[]);
  const outsideToc = (el: Element) => $(el).closest(TOC).length === 0;
  const inTable = (el: Element) => $(el).parents('table').length > 0;
  const target = (href: string) => {
    try {
      return new URL(href, url).href;
    } catch {
      return href;
    }
  };
  const linkTargets = (els: Element[]) =>
    els.filter((a) => words($(a).text()) !== '').map((a) => target($(a).attr('href')!));

  const headings = all('h1, h2, h3, h4, h5, h6').filter(outsideToc).map((h) => words($(h).text())).filter((w) => w !== '');
  const cells = all('td, th')
    .filter((c) => outsideToc(c) && $(c).find('table').length === 0)
    .map((c) => words($(c).text()))
    .filter((w) => w !== '');
  const code = all('pre')
    .filter((p) => outsideToc(p) && !inTable(p))
    .map((p) => normaliseCode($(p).text()));
  const anchors = all('a[href]');
  // (A link inside a code block cannot be one in a fenced block: grammar productions link their terms.)
  const links = linkTargets(anchors.filter((a) => outsideToc(a) && $(a).parents('pre').length === 0));
  const lists = all('li')
    .filter((li) => outsideToc(li) && !inTable(li))
    .map((li) => {
      const depth = $(li).parents('ul, ol').length;
      const own = $(li).clone();
      own.find('ul, ol, pre, table').remove();
      return { depth, words: tokens(own.text()) };
    })
    .filter((l) => l.words.length > 0);
  // A page whose body is mostly a table of contents (an index page): that table is its content.
  const rootText = roots.reduce((n, r) => n + $(r).text().replace(/\s+/g, ' ').length, 0);
  const tocs = roots.flatMap((r) => $(r).find(TOC).toArray() as Element[]).filter((t) => $(t).parents(TOC).length === 0);
  const tocText = tocs.reduce((n, t) => n + $(t).text().replace(/\s+/g, ' ').length, 0);
  const tocLinks = tocText >= 0.5 * rootText ? linkTargets(tocs.flatMap((t) => $(t).find('a[href]').toArray() as Element[])) : [];
  return { headings, cells, code, links, lists, tocLinks };
}

function normaliseCode(text: string): string {
  return text
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

// ---------------------------------------------------------------------------------------------
// What the markdown holds

interface Emitted {
  headings: string[];
  /** Cells of each emitted table. */
  tables: string[][];
  code: string[];
  links: string[];
  lists: Array<{ depth: number; words: string[] }>;
}

const FENCE = /^(\s*)(`{3,}|~{3,})/;
/** A block quote's line: its indent, its markers, its text. */
const QUOTE = /^(\s*)((?:>\s?)+)(.*)$/;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$/;
// (A target may hold balanced parentheses, "wiki/Cursor_(databases)", as CommonMark allows.)
const MD_LINK = /\]\(<?((?:[^()\s>]|\([^()\s]*\))+)>?(?:\s+"[^"]*")?\)/g;

function splitRow(line: string): string[] {
  const cells: string[] = [];
  let cur = '';
  let code = false;
  const body = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\' && i + 1 < body.length) {
      cur += c + body[++i];
      continue;
    }
    if (c === '`') code = !code;
    if (c === '|' && !code) {
      cells.push(cur);
      cur = '';
    } else cur += c;
  }
  cells.push(cur);
  return cells;
}

/** A line's inline text: stripMarkdown on a part of a line, which must not read "9. Classes" as a list item. */
function inlineText(part: string): string {
  return stripMarkdown(`\u0001${part}`);
}

export function readMarkdown(md: string): Emitted {
  const out: Emitted = { headings: [], tables: [], code: [], links: [], lists: [] };
  // (The writer escapes a target's parentheses as %28 and %29: the same address.)
  for (const m of md.matchAll(MD_LINK)) out.links.push(m[1]!.replace(/%28/gi, '(').replace(/%29/gi, ')'));
  const lines = md.split('\n');
  let fence: string | undefined;
  let fenceIndent = 0;
  let quotePrefix = '';
  let codeLines: string[] = [];
  let table: string[] | undefined;
  let indents: number[] = [];
  for (const quoted of lines) {
    // Code fenced inside a block quote ("> ```") is read without the quote's markers.
    const inQuote = QUOTE.exec(quoted);
    if (fence === undefined && inQuote !== null && FENCE.test(inQuote[3]!)) quotePrefix = inQuote[1]! + inQuote[2]!;
    else if (fence === undefined) quotePrefix = '';
    const line = quotePrefix !== '' && quoted.startsWith(quotePrefix.trimEnd()) ? quoted.slice(quotePrefix.length) : quoted;
    if (fence !== undefined) {
      const close = FENCE.exec(line);
      if (close && close[2]!.startsWith(fence) && line.trim() === close[2]) {
        out.code.push(normaliseCode(codeLines.join('\n')));
        fence = undefined;
      } else codeLines.push(line.slice(Math.min(fenceIndent, line.length - line.trimStart().length)));
      continue;
    }
    const open = FENCE.exec(line);
    if (open) {
      fence = open[2]!;
      fenceIndent = open[1]!.length;
      codeLines = [];
      continue;
    }
    const trimmed = line.trim();
    // (A table's rows inside a block quote, "> | a | b |", are its rows too.)
    const row = (QUOTE.exec(line)?.[3] ?? line).trim();
    if (row.startsWith('|')) {
      table ??= [];
      if (!/^\|?\s*:?-{3,}/.test(row)) for (const c of splitRow(row)) table.push(words(inlineText(c.trim())));
      continue;
    }
    if (table !== undefined) {
      out.tables.push(table.filter((c) => c !== ''));
      table = undefined;
    }
    const h = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      out.headings.push(words(inlineText(h[1]!)));
      indents = [];
      continue;
    }
    // A block quote's lines ("   > - item") close the list items they are not inside (those
    // opened at the quote's indent or deeper) and hold a list of their own, read as one without
    // the quote's markers at the column its text starts.
    const quote = QUOTE.exec(line);
    let itemLine = line;
    if (quote) {
      const at = quote[1]!.length;
      while (indents.length > 0 && indents[indents.length - 1]! >= at) indents.pop();
      itemLine = ' '.repeat(at + quote[2]!.length) + quote[3]!;
    }
    const li = LIST_ITEM.exec(itemLine);
    if (li) {
      const indent = li[1]!.length;
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
      out.lists.push({ depth: indents.length, words: tokens(inlineText(li[2]!)) });
    } else if (trimmed !== '' && line.length - line.trimStart().length === 0) indents = [];
  }
  if (table !== undefined) out.tables.push(table.filter((c) => c !== ''));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Scores

function multisetFound(truth: readonly string[], emitted: readonly string[]): { found: number; missed: string[] } {
  const left = new Map<string, number>();
  for (const e of emitted) left.set(e, (left.get(e) ?? 0) + 1);
  let found = 0;
  const missed: string[] = [];
  for (const t of truth) {
    const n = left.get(t) ?? 0;
    if (n > 0) {
      found++;
      left.set(t, n - 1);
    } else missed.push(t);
  }
  return { found, missed };
}

/** Whether an emitted item's words start as a true item's do (the first few words, or all of the shorter). */
const LIST_KEY_WORDS = 6;
function sameItemStart(truth: readonly string[], emitted: readonly string[]): boolean {
  const k = Math.min(LIST_KEY_WORDS, truth.length, emitted.length);
  if (k === 0) return false;
  if (emitted.length < Math.min(LIST_KEY_WORDS, truth.length) && emitted.length < 2) return false;
  for (let i = 0; i < k; i++) if (truth[i] !== emitted[i]) return false;
  return true;
}

export function scorePage(html: string, md: string, page: CorpusPage): PageScores {
  const t = groundTruth(html, page.manual, page.url);
  const e = readMarkdown(md);
  const tally = (found: number, truth: number, emitted = 0): Tally => ({ found, truth, emitted });

  const headings = multisetFound(t.headings, e.headings);
  const truthCells = new Set(t.cells);
  const tableCells = e.tables.filter((cells) => cells.some((c) => truthCells.has(c))).flat();
  const cells = multisetFound(t.cells, tableCells);
  const code = multisetFound(t.code, e.code);
  const links = multisetFound(t.links, e.links);
  const tocLinks = multisetFound(t.tocLinks, e.links);
  const used = new Uint8Array(e.lists.length);
  const missedItems: string[] = [];
  let listFound = 0;
  for (const item of t.lists) {
    let hit = -1;
    for (let i = 0; i < e.lists.length && hit < 0; i++) if (used[i] === 0 && e.lists[i]!.depth === item.depth && sameItemStart(item.words, e.lists[i]!.words)) hit = i;
    if (hit >= 0) {
      used[hit] = 1;
      listFound++;
    } else missedItems.push(`${item.depth}: ${item.words.slice(0, LIST_KEY_WORDS).join(' ')}`);
  }
  return {
    headings: tally(headings.found, t.headings.length),
    cells: tally(cells.found, t.cells.length, tableCells.length),
    code: tally(code.found, t.code.length),
    links: tally(links.found, t.links.length),
    lists: tally(listFound, t.lists.length),
    tocLinks: tally(tocLinks.found, t.tocLinks.length),
    misses: {
      headings: headings.missed,
      cells: cells.missed,
      code: code.missed.map((c) => c.split('\n')[0]!),
      links: links.missed,
      lists: missedItems,
      tocLinks: tocLinks.missed,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Run

export interface DocsStructureResult {
  skipped: string[];
  pages: number;
  byKind: Record<string, number>;
  /** Summed tallies per setting (onlyMainContent true/false). */
  totals: Record<'main' | 'all', Record<Measure, Tally>>;
  perPage: Array<{ page: CorpusPage; main: PageScores; all: PageScores }>;
}

export interface DocsStructureOptions {
  only?: Manual;
  page?: string;
}

function markdownOf(html: string, url: string, onlyMainContent: boolean): string {
  const opts = { baseUrl: url, onlyMainContent, includeTags: [], excludeTags: [], removeBase64Images: true };
  return transformPage(html, opts, { markdown: true, html: false, links: false, images: false }).markdown ?? '';
}

const emptyTotals = (): Record<Measure, Tally> =>
  Object.fromEntries(MEASURES.map((m) => [m, { found: 0, truth: 0, emitted: 0 }])) as Record<Measure, Tally>;

export function runDocsStructureBench(opts: DocsStructureOptions = {}): DocsStructureResult {
  const skipped: string[] = [];
  const corpus: Array<CorpusPage & { dir: string }> = [];
  if (opts.only !== 'python') {
    if (fs.existsSync(PG_DOCS_DIR)) corpus.push(...pgCorpus(PG_DOCS_DIR).map((p) => ({ ...p, dir: PG_DOCS_DIR })));
    else skipped.push(`PostgreSQL manual not installed (Debian package postgresql-doc-15, ${PG_DOCS_DIR})`);
  }
  if (opts.only !== 'pg') {
    if (fs.existsSync(PYTHON_DOCS_DIR)) corpus.push(...pythonCorpus(PYTHON_DOCS_DIR).map((p) => ({ ...p, dir: PYTHON_DOCS_DIR })));
    else skipped.push(`Python manual not installed (Debian package python3-doc, ${PYTHON_DOCS_DIR})`);
  }
  const pages = opts.page === undefined ? corpus : corpus.filter((p) => p.file === opts.page || p.file.endsWith(`/${opts.page}`));
  const totals = { main: emptyTotals(), all: emptyTotals() };
  const byKind: Record<string, number> = {};
  const perPage: DocsStructureResult['perPage'] = [];
  for (const p of pages) {
    const html = fs.readFileSync(path.join(p.dir, p.file), 'utf8');
    const main = scorePage(html, markdownOf(html, p.url, true), p);
    const all = scorePage(html, markdownOf(html, p.url, false), p);
    for (const m of MEASURES) {
      for (const [k, s] of [['main', main], ['all', all]] as const) {
        totals[k][m].found += s[m].found;
        totals[k][m].truth += s[m].truth;
        totals[k][m].emitted += s[m].emitted;
      }
    }
    byKind[`${p.manual} ${p.kind}`] = (byKind[`${p.manual} ${p.kind}`] ?? 0) + 1;
    const { dir: _dir, ...page } = p;
    perPage.push({ page, main, all });
  }
  return { skipped, pages: pages.length, byKind, totals, perPage };
}

const LABELS: Record<Measure, string> = {
  headings: 'headings recall (outside tocs)',
  cells: 'table cells F1',
  code: 'code blocks verbatim',
  links: 'links recall (outside tocs)',
  lists: 'list items at depth (outside tocs)',
  tocLinks: 'toc pages: toc links recall',
};
const TARGETS: Partial<Record<Measure, string>> = { headings: '≥ 99.5%', cells: '≥ 0.970', code: '100%', links: '≥ 99%', lists: '≥ 99%' };

function figure(m: Measure, t: Tally): string {
  if (t.truth === 0) return 'n/a';
  if (m === 'cells') {
    const p = t.emitted === 0 ? 0 : t.found / t.emitted;
    const r = t.found / t.truth;
    return (p + r === 0 ? 0 : (2 * p * r) / (p + r)).toFixed(3);
  }
  return `${((100 * t.found) / t.truth).toFixed(1)}%`;
}

export function printDocsStructureBench(r: DocsStructureResult, log: (line: string) => void = console.log, verbose = false): void {
  log('');
  log('Documentation structure (PostgreSQL and Python manuals)');
  for (const s of r.skipped) log(`  skipped: ${s}`);
  if (r.pages === 0) return;
  log(`  ${r.pages} pages: ${Object.entries(r.byKind).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  log(`  ${'measure'.padEnd(38)} ${'onlyMain false'.padStart(15)} ${'onlyMain true'.padStart(14)}   target (true)   found / items (true)`);
  for (const m of MEASURES) {
    log(`  ${LABELS[m].padEnd(38)} ${figure(m, r.totals.all[m]).padStart(15)} ${figure(m, r.totals.main[m]).padStart(14)}   ${(TARGETS[m] ?? '').padEnd(14)}  ${r.totals.main[m].found} / ${r.totals.main[m].truth}`);
  }
  const worst = [...r.perPage]
    .map((p) => ({ p, lost: MEASURES.reduce((n, m) => n + (p.main[m].truth - p.main[m].found) - Math.max(0, p.all[m].truth - p.all[m].found), 0) }))
    .filter((x) => x.lost > 0)
    .sort((a, b) => b.lost - a.lost);
  log(`  pages losing items only with onlyMain true: ${worst.length}; most: ${worst.slice(0, 8).map((x) => `${x.p.page.file} (${x.lost})`).join(', ')}`);
  if (!verbose) return;
  for (const { p } of worst) {
    log(`  ${p.page.manual} ${p.page.file} [${p.page.kind}]`);
    for (const m of MEASURES) {
      const lost = p.main.misses[m].filter((x) => !p.all.misses[m].includes(x));
      if (lost.length > 0) log(`    ${m}: ${lost.slice(0, 12).map((x) => JSON.stringify(x.slice(0, 80))).join(', ')}${lost.length > 12 ? ` … (${lost.length})` : ''}`);
    }
  }
}

function arg(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const only = arg('--only');
  const r = runDocsStructureBench({ only: only === 'pg' || only === 'python' ? only : undefined, page: arg('--page') });
  printDocsStructureBench(r, console.log, process.argv.includes('--verbose'));
}
