/**
 * PDF structure: how much of a document's headings, tables and code survives parsing, on
 * text-layer PDFs and on image-only scans, beside poppler's `pdftotext` and the tesseract
 * command line in the same run.
 *
 *   node --import tsx bench/pdf-structure.ts [--fresh] [--no-ocr] [--limit N] [--pdf-threads N] [--verbose]
 *
 * Corpus: pages of Debian's PostgreSQL manual and a few generated documents (serif and sans
 * fonts, two columns, numbered headings, tables with wrapped header cells, code in monospace),
 * printed to PDF by headless Chromium. The ground truth is read from the same rendered HTML
 * (visible h1–h6, table rows and cells, lines of <pre>). Scans: some of those pages rasterised
 * by pdftoppm at 150 and 300 dpi and wrapped, one JPEG a page, into image-only PDFs. The corpus
 * is cached in the temp dir between runs (--fresh makes it anew).
 *
 * Scores (all from the markdown, `mode: auto`):
 * - headings: recall of true headings among `#` lines; false = emitted headings that are none;
 * - tables: true cells that sit, at their column, in an emitted table row (best row per true row);
 * - code: true code lines found inside fenced code blocks (text layer), or anywhere as a line
 *   (scans, where tesseract has no fences either);
 * - words: bag-of-words F1 against pdftotext's text of the text-layer PDF.
 *
 * Speed: the first pass over the corpus after one document (the target's figure: pdf.js's code
 * is still being compiled and optimised), then a second pass over the same documents, as a
 * server that has parsed a few hundred pages would.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { closePdf, openPdf } from '../src/parse/pdf/document.js';
import { DEFAULT_PDF } from '../src/parse/parsers.js';
import { nativeTesseract } from '../src/parse/ocr.js';
import { DocumentParser, type ParseRequest } from '../src/parse/service.js';
import { findChromium, launchChromium } from '../src/scrape/engines/browser/chromium.js';
import { jpegPagesToPdf, jpegSize } from '../test/helpers/image-pdf.js';
import { PG_DOCS_DIR } from './corpus.js';
import { wordScores } from './parse.js';

const exec = promisify(execFile);
const args = process.argv.slice(2);
const flag = (f: string) => args.includes(f);
const limitArg = args.indexOf('--limit');
const LIMIT = limitArg >= 0 ? Number(args[limitArg + 1]) : Infinity;
const VERBOSE = flag('--verbose');
const threadsArg = args.indexOf('--pdf-threads');
/** Page threads for long PDFs (PDF_THREADS; none unless given). */
const THREADS = threadsArg >= 0 ? Number(args[threadsArg + 1]) : 0;
const CACHE = path.join(os.tmpdir(), 'gleaner-pdf-structure');

/** Manual pages of several kinds: command references (synopses, clause headings), tutorials with
 * output, data-type chapters with tables, procedural-language pages with code. */
const MANUAL_PAGES = [
  'sql-createpolicy.html',
  'sql-insert.html',
  'sql-createindex.html',
  'sql-copy.html',
  'sql-select.html',
  'sql-createrole.html',
  'textsearch-debugging.html',
  'textsearch-parsers.html',
  'datatype-numeric.html',
  'datatype-boolean.html',
  'datatype-character.html',
  'tutorial-join.html',
  'tutorial-select.html',
  'tutorial-agg.html',
  'queries-with.html',
  'ddl-constraints.html',
  'indexes-types.html',
  'plpgsql-control-structures.html',
  'functions-math.html',
  'app-pgdump.html',
];
/** Documents that are also scanned (their first page each: OCR is slow on a shared machine). */
const SCANNED = ['sql-createpolicy.html', 'tutorial-join.html', 'textsearch-debugging.html', 'datatype-numeric.html', 'gen-report', 'gen-columns'];
const SCAN_DPIS = [150, 300];

interface Truth {
  headings: string[];
  tables: string[][][];
  code: string[];
}

interface CorpusDoc {
  name: string;
  pdf: string;
  truth: Truth;
  pages: number;
}

// ---------------------------------------------------------------- generated documents

const WORDS =
  'harvest river stone field barn orchard season grain mill wheel water frost summer market ledger cellar pasture fence meadow valley plough tractor seed apple cider barley storage timber granary cattle shepherd'.split(' ');
function prose(seed: number, words: number): string {
  let x = seed * 7919 + 17;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[x % WORDS.length]!);
  }
  out[0] = out[0]![0]!.toUpperCase() + out[0]!.slice(1);
  return out.join(' ') + '.';
}

const CODE_C = `static int count_rows(struct table_state *state, int max_rows)
{
    int n_rows = 0;
    while (state->next_row != NULL && n_rows < max_rows) {
        n_rows += 1; /* keep_going */
    }
    return n_rows;
}`;
const CODE_SH = `$ ./configure --prefix=/usr/local/pg_data --with-openssl
$ make -j4 && make install
$ export PG_HOME=/usr/local/pg_data`;
const PSQL_OUT = ` id |   alias   |   description
----+-----------+------------------
  1 | asciiword | Word, all ASCII
  2 | word      | Word, all letters
  3 | numword   | Word, letters and digits
  4 | email     | Email address`;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function generated(): { name: string; html: string }[] {
  const report = `<style>body{font-family:"Liberation Serif",serif;font-size:15px;margin:0 20px}
  h1{font-size:26px} h2{font-size:15px;font-weight:bold} h3{font-size:15px;font-weight:bold;font-style:italic}
  pre{font-family:"Liberation Mono",monospace;font-size:12px} th,td{border:1px solid #444;padding:3px 8px;vertical-align:top}
  table{border-collapse:collapse}</style>
  <h1>Storage Cooperative Annual Review</h1><p>${prose(1, 80)}</p>
  <h2>1. Introduction</h2><p>${prose(2, 120)}</p><p>${prose(3, 60)}</p>
  <h3>1.1 Scope of the review</h3><p>${prose(4, 90)}</p>
  <h2>2. Holdings</h2><p>${prose(5, 40)}</p>
  <table><tr><th style="width:90px">Storage location name</th><th style="width:80px">Capacity in tonnes</th><th style="width:110px">Percentage used at year end</th><th>Remarks</th></tr>
  <tr><td>North barn</td><td>1200</td><td>84</td><td>Roof repaired in March</td></tr>
  <tr><td>River granary</td><td>860</td><td>91</td><td>Damp in the east bay</td></tr>
  <tr><td>Old mill</td><td>300</td><td>40</td><td>Used for seed only</td></tr>
  <tr><td>Hill store</td><td>515</td><td>77</td><td>New scales fitted</td></tr></table>
  <h3>2.1 Counting the stock</h3><p>${prose(6, 50)}</p><pre>${esc(CODE_C)}</pre><p>${prose(7, 70)}</p>
  <h2>3. Installation notes</h2><p>${prose(8, 50)}</p><pre>${esc(CODE_SH)}</pre><p>${prose(9, 90)}</p>
  <h2>4. Outlook</h2><p>${prose(10, 150)}</p>`;

  const columns = `<style>body{font-family:"DejaVu Serif",serif;font-size:12px;margin:0}
  h1{font-size:24px;column-span:all} h2{font-size:16px} .cols{column-count:2;column-gap:36px}
  pre{font-family:"DejaVu Sans Mono",monospace;font-size:10px;white-space:pre-wrap}
  td,th{padding:2px 6px;text-align:left;font-size:11px}</style>
  <h1>Notes from the Valley Survey</h1><div class="cols">
  <h2>Soil and drainage</h2><p>${prose(11, 140)}</p><p>${prose(12, 90)}</p>
  <h2>Water rights</h2><p>${prose(13, 120)}</p>
  <table><tr><th>Parcel</th><th>Area</th><th>Owner</th></tr><tr><td>A-12</td><td>4.5 ha</td><td>Miller</td></tr><tr><td>B-7</td><td>2.1 ha</td><td>Carter</td></tr><tr><td>C-3</td><td>6.0 ha</td><td>Shepherd</td></tr></table>
  <p>${prose(14, 100)}</p>
  <h2>Sampling script</h2><p>${prose(15, 40)}</p><pre>${esc(`for parcel in parcels:\n    sample_id = parcel.next_id()\n    store_sample(sample_id, depth=30)`)}</pre>
  <h2>Conclusions</h2><p>${prose(16, 160)}</p><p>${prose(17, 120)}</p></div>`;

  const manual = `<style>body{font-family:"Liberation Sans",sans-serif;font-size:12px;margin:0}
  h1{font-size:20px} h2{font-size:14px} h3{font-size:12px;font-weight:bold}
  pre{font-family:"Liberation Mono",monospace;font-size:11px;background:#eee;padding:6px}
  td,th{padding:3px 10px;border-bottom:1px solid #999;text-align:left;vertical-align:top}</style>
  <h1>Parser Reference</h1><p>${prose(21, 60)}</p>
  <h2>Token types</h2><p>${prose(22, 50)}</p><pre>${esc(PSQL_OUT)}</pre>
  <h3>Default configuration</h3><p>${prose(23, 80)}</p>
  <table><tr><th>Option</th></tr><tr><td>${prose(24, 30)}</td></tr><tr><td>${prose(25, 25)}</td></tr><tr><td>${prose(26, 35)}</td></tr></table>
  <h3>Limits</h3><p>${prose(27, 60)}</p>
  <table><tr><th>Setting</th><th>Default</th><th>Meaning</th></tr>
  <tr><td><code>max_token_length</code></td><td>2047</td><td>${prose(28, 14)}</td></tr>
  <tr><td><code>stop_words</code></td><td>english</td><td>${prose(29, 18)}</td></tr>
  <tr><td><code>prefix_match</code></td><td>off</td><td>${prose(30, 9)}</td></tr></table>
  <h2>Examples</h2><p>${prose(31, 40)}</p><pre>${esc(`SELECT alias, token FROM ts_debug('english', 'a_b c');\nSELECT * FROM ts_token_type('default') WHERE tokid < 5;`)}</pre><p>${prose(32, 90)}</p>`;
  return [
    { name: 'gen-report', html: report },
    { name: 'gen-columns', html: columns },
    { name: 'gen-manual', html: manual },
  ];
}

// ---------------------------------------------------------------- corpus

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

const TRUTH_SCRIPT = `(() => {
  const visible = (e) => e.offsetParent !== null || e.getClientRects().length > 0;
  const text = (e) => e.innerText.replace(/\\s+/g, ' ').trim();
  const headings = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].filter(visible).map(text).filter(Boolean);
  const tables = [...document.querySelectorAll('table')]
    .filter((t) => visible(t) && !t.querySelector('table'))
    .map((t) => [...t.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('th,td')].map(text)))
    .filter((rows) => rows.some((r) => r.some((c) => c.length > 0)));
  const code = [...document.querySelectorAll('pre')].filter(visible).flatMap((p) => p.innerText.split('\\n'));
  return { headings, tables, code };
})()`;

async function printDoc(browser: Browser, html: string, file: string): Promise<Truth> {
  const page = await browser.newPage();
  try {
    await page.setContent(html, { waitUntil: 'load' });
    // A string, not a function: the TypeScript loader would wrap a function in helpers the page lacks.
    const truth = (await page.evaluate(TRUTH_SCRIPT)) as Truth;
    await page.pdf({ path: file, format: 'A4', margin: { top: '40px', bottom: '40px', left: '40px', right: '40px' } });
    return { ...truth, code: truth.code.map(collapse).filter(Boolean) };
  } finally {
    await page.close();
  }
}

const pdfPages = (file: string) => Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1] ?? 0);

async function buildCorpus(): Promise<CorpusDoc[]> {
  const index = path.join(CACHE, 'corpus.json');
  if (!flag('--fresh') && fs.existsSync(index)) return JSON.parse(fs.readFileSync(index, 'utf8')) as CorpusDoc[];
  fs.rmSync(CACHE, { recursive: true, force: true });
  fs.mkdirSync(CACHE, { recursive: true });
  const sources: { name: string; html: string }[] = [];
  if (fs.existsSync(PG_DOCS_DIR)) {
    for (const f of MANUAL_PAGES) {
      const html = fs.readFileSync(path.join(PG_DOCS_DIR, f), 'utf8')
        // Navigation bars are not the page's content; the manual's style sheet is not loaded.
        .replace(/<div class="nav(header|footer)">[\s\S]*?<\/div>/g, '')
        .replace(/<script\b[\s\S]*?<\/script>/gi, '');
      sources.push({ name: f, html });
    }
  } else console.error('PostgreSQL manual not installed (apt-get install postgresql-doc-15): generated documents only.');
  sources.push(...generated());
  const exe = findChromium(process.env.CHROMIUM_PATH);
  if (!exe) throw new Error('Chromium is needed to print the corpus');
  const browser = await launchChromium(exe);
  const docs: CorpusDoc[] = [];
  try {
    for (const s of sources) {
      const pdf = path.join(CACHE, `${s.name.replace(/\.html$/, '')}.pdf`);
      const truth = await printDoc(browser, s.html, pdf);
      docs.push({ name: s.name, pdf, truth, pages: pdfPages(pdf) });
    }
  } finally {
    await browser.close();
  }
  fs.writeFileSync(index, JSON.stringify(docs));
  return docs;
}

interface Scan {
  name: string;
  dpi: number;
  pdf: string;
  pages: number;
  /** pdftotext of the same pages of the text-layer PDF. */
  reference: string;
  code: string[];
}

async function buildScans(docs: CorpusDoc[]): Promise<Scan[]> {
  const index = path.join(CACHE, 'scans.json');
  if (fs.existsSync(index)) return JSON.parse(fs.readFileSync(index, 'utf8')) as Scan[];
  const scans: Scan[] = [];
  for (const name of SCANNED) {
    const doc = docs.find((d) => d.name === name);
    if (!doc) continue;
    const last = 1;
    const reference = (await exec('pdftotext', ['-enc', 'UTF-8', '-l', String(last), doc.pdf, '-'])).stdout;
    const refLines = new Set(reference.split('\n').map(collapse));
    // Only the code lines on the scanned pages count.
    const code = doc.truth.code.filter((l) => refLines.has(l));
    for (const dpi of SCAN_DPIS) {
      const prefix = path.join(CACHE, `scan-${name.replace(/\.html$/, '')}-${dpi}`);
      await exec('pdftoppm', ['-r', String(dpi), '-gray', '-jpeg', '-jpegopt', 'quality=85', '-l', String(last), doc.pdf, prefix]);
      const jpegs = fs.readdirSync(CACHE).filter((f) => f.startsWith(path.basename(prefix) + '-') && f.endsWith('.jpg')).sort();
      const pages = jpegs.map((f) => {
        const jpeg = fs.readFileSync(path.join(CACHE, f));
        const size = jpegSize(jpeg);
        return { jpeg, ...size, pageWidth: (size.width * 72) / dpi, pageHeight: (size.height * 72) / dpi };
      });
      const pdf = `${prefix}.pdf`;
      fs.writeFileSync(pdf, jpegPagesToPdf(pages));
      scans.push({ name, dpi, pdf, pages: pages.length, reference, code });
    }
  }
  fs.writeFileSync(index, JSON.stringify(scans));
  return scans;
}

// ---------------------------------------------------------------- scoring

const unescape = (s: string) => s.replace(/\\([\\`*[\]<|#>+\-_.!])/g, '$1');
const norm = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).join(' ');

interface Parsed {
  headings: string[];
  rows: string[][];
  fenced: string[];
  lines: string[];
  text: string;
}

function readMarkdown(md: string): Parsed {
  const out: Parsed = { headings: [], rows: [], fenced: [], lines: [], text: '' };
  let inFence = false;
  const words: string[] = [];
  for (const raw of md.split('\n')) {
    if (/^```/.test(raw)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      out.fenced.push(collapse(raw));
      out.lines.push(collapse(raw));
      words.push(raw);
      continue;
    }
    const h = /^#{1,6} (.*)$/.exec(raw);
    if (h) {
      out.headings.push(unescape(h[1]!));
      words.push(unescape(h[1]!));
      continue;
    }
    if (/^\|.*\|$/.test(raw)) {
      if (/^\|( ---+ \|)+$/.test(raw)) continue;
      const cells = raw.slice(1, -1).split(/(?<!\\)\|/).map((c) => unescape(c.trim()));
      out.rows.push(cells);
      words.push(cells.join(' '));
      continue;
    }
    const line = unescape(raw.replace(/^(- |\d+\. )/, ''));
    out.lines.push(collapse(line));
    words.push(line);
  }
  out.text = words.join('\n');
  return out;
}

/** Plain text (pdftotext, tesseract): lines only. */
const readPlain = (text: string): Parsed => ({ headings: [], rows: [], fenced: [], lines: text.split('\n').map(collapse), text });

interface Tally {
  headings: number;
  headingsFound: number;
  emitted: number;
  falseHeadings: number;
  cells: number;
  cellsAligned: number;
  code: number;
  codeFenced: number;
  codeAnywhere: number;
}

const emptyTally = (): Tally => ({ headings: 0, headingsFound: 0, emitted: 0, falseHeadings: 0, cells: 0, cellsAligned: 0, code: 0, codeFenced: 0, codeAnywhere: 0 });

function multiset(xs: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

function score(truth: Truth, got: Parsed, t: Tally, name: string): void {
  const trueHeads = multiset(truth.headings.map(norm));
  const gotHeads = multiset(got.headings.map(norm));
  t.headings += truth.headings.length;
  t.emitted += got.headings.length;
  const missed: string[] = [];
  for (const [h, n] of trueHeads) {
    const found = Math.min(n, gotHeads.get(h) ?? 0);
    t.headingsFound += found;
    if (found < n) missed.push(h);
  }
  const falses: string[] = [];
  for (const [h, n] of gotHeads) {
    const extra = n - Math.min(n, trueHeads.get(h) ?? 0);
    t.falseHeadings += extra;
    if (extra > 0) falses.push(h);
  }
  const gotRows = got.rows.map((r) => r.map(norm));
  let cellsMissed = 0;
  for (const table of truth.tables) {
    for (const row of table) {
      const want = row.map(norm);
      const filled = want.filter((c) => c.length > 0).length;
      t.cells += filled;
      let best = 0;
      for (const r of gotRows) {
        let hits = 0;
        for (let i = 0; i < want.length; i++) if (want[i] && r[i] === want[i]) hits++;
        if (hits > best) best = hits;
        if (best === filled) break;
      }
      t.cellsAligned += best;
      cellsMissed += filled - best;
    }
  }
  const fenced = multiset(got.fenced);
  const anywhere = multiset(got.lines);
  const codeMissed: string[] = [];
  for (const line of truth.code) {
    t.code++;
    const f = fenced.get(line) ?? 0;
    if (f > 0) {
      t.codeFenced++;
      fenced.set(line, f - 1);
    } else codeMissed.push(line);
    const a = anywhere.get(line) ?? 0;
    if (a > 0) {
      t.codeAnywhere++;
      anywhere.set(line, a - 1);
    }
  }
  if (VERBOSE && name) {
    console.error(`  ${name}: missed headings ${JSON.stringify(missed.slice(0, 20))} false ${JSON.stringify(falses.slice(0, 20))} cells missed ${cellsMissed} code missed ${codeMissed.length} ${JSON.stringify(codeMissed.slice(0, 3))}`);
  }
}

const ratio = (a: number, b: number) => (b ? a / b : NaN);
const f3 = (x: number) => (Number.isNaN(x) ? '  -  ' : x.toFixed(3));

function request(mode: 'auto' | 'fast' | 'ocr'): ParseRequest {
  return {
    settings: { pdf: { ...DEFAULT_PDF, mode, blocks: true }, image: true },
    wants: { markdown: true, html: false, links: false, images: false },
    transform: { baseUrl: 'file:///bench.pdf', onlyMainContent: true, includeTags: [], excludeTags: [], removeBase64Images: true },
    deadline: Date.now() + 3_600_000,
  };
}

const stripForWords = (p: Parsed) => p.text;

async function main(): Promise<void> {
  const docs = (await buildCorpus()).slice(0, LIMIT);
  const pages = docs.reduce((a, d) => a + d.pages, 0);
  console.error(`Corpus: ${docs.length} documents, ${pages} pages (cached in ${CACHE})`);
  const parser = new DocumentParser({ pdfThreads: THREADS });
  try {
    // Text layer: ours.
    const bytes = docs.map((d) => fs.readFileSync(d.pdf));
    await parser.parse({ body: bytes[0]! }, request('auto'));
    const ours: string[] = [];
    const blockTypes = new Map<string, number>();
    let blocksTotal = 0;
    let blocksBoxed = 0;
    let orderOk = true;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    for (const b of bytes) {
      const r = await parser.parse({ body: b }, request('auto'));
      ours.push(r.markdown);
      for (const p of r.blocks ?? []) {
        p.items.forEach((it, i) => {
          blocksTotal++;
          if (it.bbox) blocksBoxed++;
          if (it.readingOrder !== i) orderOk = false;
          blockTypes.set(it.type, (blockTypes.get(it.type) ?? 0) + 1);
        });
      }
    }
    const oursMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const oursCpuMs = (cpu.user + cpu.system) / 1000;
    // The same documents again: a long-running server parses with pdf.js's code compiled and
    // optimised, which the first pass is still doing (the first pass stays the headline figure).
    const tw = performance.now();
    const cpuw0 = process.cpuUsage();
    for (const b of bytes) await parser.parse({ body: b }, request('auto'));
    const warmMs = performance.now() - tw;
    const cpuw = process.cpuUsage(cpuw0);
    const warmCpuMs = (cpuw.user + cpuw.system) / 1000;

    // pdf.js reading the text alone, as warm as the second pass: what any structure is built on.
    const tp = performance.now();
    for (const b of bytes) {
      const doc = await openPdf(b);
      try {
        for (let n = 1; n <= doc.numPages; n++) await (await doc.getPage(n)).getTextContent();
      } finally {
        await closePdf(doc);
      }
    }
    const pdfjsMs = performance.now() - tp;

    const theirs: string[] = [];
    const t1 = performance.now();
    for (const d of docs) theirs.push((await exec('pdftotext', ['-enc', 'UTF-8', d.pdf, '-'], { maxBuffer: 64 << 20 })).stdout);
    const theirMs = performance.now() - t1;

    const tOurs = emptyTally();
    const tTheirs = emptyTally();
    let f1Sum = 0;
    docs.forEach((d, i) => {
      const got = readMarkdown(ours[i]!);
      score(d.truth, got, tOurs, d.name);
      score(d.truth, readPlain(theirs[i]!), tTheirs, '');
      f1Sum += wordScores(stripForWords(got), theirs[i]!).f1 * d.pages;
    });
    const allF1 = wordScores(ours.map((m) => stripForWords(readMarkdown(m))).join('\n'), theirs.join('\n')).f1;

    const row = (label: string, a: string, b: string, target = '') => console.log(`  ${label.padEnd(34)} ${a.padStart(9)} ${b.padStart(11)}   ${target}`);
    console.log(`\nText-layer PDFs: ${docs.length} documents, ${pages} pages (mode auto)`);
    row('', 'gleaner', 'pdftotext', 'target');
    row('headings recall', f3(ratio(tOurs.headingsFound, tOurs.headings)), '-', '>= 0.90');
    row('false headings (share of emitted)', f3(ratio(tOurs.falseHeadings, tOurs.emitted)), '-', '<= 0.05');
    row('table cells in aligned rows', f3(ratio(tOurs.cellsAligned, tOurs.cells)), '-', '>= 0.80');
    row('code lines in fenced blocks', f3(ratio(tOurs.codeFenced, tOurs.code)), '-', '>= 0.90');
    row('code lines present as lines', f3(ratio(tOurs.codeAnywhere, tOurs.code)), f3(ratio(tTheirs.codeAnywhere, tTheirs.code)));
    row('word F1 vs pdftotext (all words)', f3(allF1), '1.000', '>= 0.995');
    row('word F1 vs pdftotext (page-weighted)', f3(f1Sum / pages), '1.000');
    row(`pages/s, wall clock (${THREADS} page threads)`, ((pages * 1000) / oursMs).toFixed(1), ((pages * 1000) / theirMs).toFixed(1), '>= 100');
    // The machine may be shared: time on the CPU is the steadier figure (all threads counted).
    row('pages per CPU second', ((pages * 1000) / oursCpuMs).toFixed(1), '-');
    row('pages/s, wall clock, second pass', ((pages * 1000) / warmMs).toFixed(1), '-');
    row('pages per CPU second, second pass', ((pages * 1000) / warmCpuMs).toFixed(1), '-');
    row('pages/s, pdf.js text alone (warm)', ((pages * 1000) / pdfjsMs).toFixed(1), '-');
    console.log(`  truth: ${tOurs.headings} headings, ${tOurs.cells} table cells, ${tOurs.code} code lines; emitted ${tOurs.emitted} headings`);
    console.log(`  blocks: ${blocksTotal} (${f3(ratio(blocksBoxed, blocksTotal))} with bbox, reading order ${orderOk ? 'sequential' : 'BROKEN'}); types ${JSON.stringify(Object.fromEntries(blockTypes))}`);

    if (flag('--no-ocr')) return;
    const scans = await buildScans(docs);
    for (const dpi of SCAN_DPIS) {
      const set = scans.filter((s) => s.dpi === dpi);
      const scanPages = set.reduce((a, s) => a + s.pages, 0);
      const ocrOurs: string[] = [];
      const ta = performance.now();
      for (const s of set) ocrOurs.push((await parser.parse({ body: fs.readFileSync(s.pdf) }, request('auto'))).markdown);
      const oursOcrMs = performance.now() - ta;
      const cli: string[] = [];
      const tb = performance.now();
      for (const s of set) cli.push(await tesseractCli(s.pdf, dpi));
      const cliMs = performance.now() - tb;
      const refs = set.map((s) => s.reference).join('\n');
      const codeTally = (outs: string[], parse: (s: string) => Parsed) => {
        let found = 0;
        let total = 0;
        set.forEach((s, i) => {
          const lines = multiset(parse(outs[i]!).lines);
          for (const l of s.code) {
            total++;
            const n = lines.get(l) ?? 0;
            if (n > 0) {
              found++;
              lines.set(l, n - 1);
            }
          }
        });
        return ratio(found, total);
      };
      const underscores = (outs: string[]) => (outs.join('\n').match(/\w_\w/g) ?? []).length;
      const engine = (await nativeTesseract()) ? 'native tesseract' : 'tesseract.js';
      console.log(`\nScans at ${dpi} dpi: ${set.length} documents, ${scanPages} pages (mode auto, OCR by ${engine}; GLEANER_TESSERACT=off for tesseract.js)`);
      row('', 'gleaner', 'tesseract', '');
      row('word F1 vs text layer', f3(wordScores(ocrOurs.map((m) => readMarkdown(m).text).join('\n'), refs).f1), f3(wordScores(cli.join('\n'), refs).f1), '>= tesseract');
      row('code-line recall', f3(codeTally(ocrOurs, readMarkdown)), f3(codeTally(cli, readPlain)), '>= tesseract');
      row('words with underscores (ref ' + String((refs.match(/\w_\w/g) ?? []).length) + ')', String(underscores(ocrOurs.map((m) => unescape(m)))), String(underscores(cli)));
      row('pages/s end to end', ((scanPages * 1000) / oursOcrMs).toFixed(2), ((scanPages * 1000) / cliMs).toFixed(2), '>= tesseract');
    }
  } finally {
    await parser.close();
  }
}

/** The command-line pipeline a person would run: rasterise with pdftoppm, then tesseract per page. */
async function tesseractCli(pdf: string, dpi: number): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-tess-'));
  try {
    await exec('pdftoppm', ['-r', String(dpi), '-gray', '-png', pdf, path.join(dir, 'p')]);
    const out: string[] = [];
    for (const f of fs.readdirSync(dir).sort()) out.push((await exec('tesseract', [path.join(dir, f), '-', '-l', 'eng'], { maxBuffer: 64 << 20 })).stdout);
    return out.join('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
