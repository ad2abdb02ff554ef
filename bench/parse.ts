/**
 * PDF parsing: text-layer speed and fidelity beside poppler's `pdftotext`, and OCR speed and
 * word accuracy on scans of known text.
 *
 *   node --import tsx bench/parse.ts [--limit N]
 *
 * The PDFs are printed by headless Chromium from the fixture site's pages plus the first N pages
 * of Debian's PostgreSQL manual (when installed). Text layer: our parser in `fast` mode and
 * `pdftotext` read the same files in the same run; word F1 compares our text with pdftotext's
 * (bags of words, markdown syntax stripped). OCR: fixture pages are screenshotted, wrapped into
 * image-only PDFs, parsed in `ocr` mode and scored against the page's own text (innerText).
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_PDF } from '../src/parse/parsers.js';
import { DocumentParser, type ParseRequest } from '../src/parse/service.js';
import { pages as fixturePages } from '../test/fixture-site/pages.js';
import { closeDocumentBrowser, htmlToPdf, htmlToScannedPdf } from '../test/helpers/documents.js';
import { PG_DOCS_DIR } from './corpus.js';

const run = promisify(execFile);

export interface ParseBenchResult {
  skipped?: string;
  files: number;
  pages: number;
  ours: { pagesPerSec: number; totalMs: number };
  pdftotext?: { pagesPerSec: number; totalMs: number; wordF1: number };
  ocr?: { pages: number; pagesPerSec: number; wordF1: number; recall: number };
}

const TEXT_PAGES = ['/article', '/tall', '/links', '/'];
const OCR_PAGES = ['/article', '/links'];

function request(mode: 'fast' | 'ocr'): ParseRequest {
  return {
    settings: { pdf: { ...DEFAULT_PDF, mode }, image: true },
    wants: { markdown: true, html: false, links: false, images: false },
    transform: { baseUrl: 'file:///bench.pdf', onlyMainContent: true, includeTags: [], excludeTags: [], removeBase64Images: true },
    deadline: Date.now() + 600_000,
  };
}

const tokens = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const stripMarkdown = (md: string) => md.replace(/^#{1,6} |^\s*[-*] |^\| --- .*$|\||\\(?=[\\`*[\]<])/gm, ' ');

/** Bag-of-words precision, recall and F1 of `got` against `want`. */
export function wordScores(got: string, want: string): { precision: number; recall: number; f1: number } {
  const count = (ws: string[]) => ws.reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>());
  const g = count(tokens(got));
  const w = count(tokens(want));
  let common = 0;
  for (const [word, n] of g) common += Math.min(n, w.get(word) ?? 0);
  const gn = [...g.values()].reduce((a, b) => a + b, 0);
  const wn = [...w.values()].reduce((a, b) => a + b, 0);
  const precision = gn ? common / gn : 0;
  const recall = wn ? common / wn : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

function hasPdftotext(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function runParseBench(opts: { limit?: number; log?: (l: string) => void } = {}): Promise<ParseBenchResult> {
  const log = opts.log ?? ((l: string) => console.error(l));
  const origin = 'http://127.0.0.1:9';
  const sources: { name: string; html: string }[] = TEXT_PAGES.map((p) => ({ name: `fixture${p}`, html: fixturePages[p]!(origin) }));
  if (fs.existsSync(PG_DOCS_DIR)) {
    const files = fs.readdirSync(PG_DOCS_DIR).filter((f) => f.endsWith('.html')).sort().slice(0, opts.limit ?? 24);
    for (const f of files) sources.push({ name: f, html: fs.readFileSync(path.join(PG_DOCS_DIR, f), 'utf8') });
  } else {
    log('PostgreSQL manual not installed (apt-get install postgresql-doc-15): text-layer figures use the fixture pages only.');
  }

  log(`Printing ${sources.length} pages to PDF with Chromium…`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-parse-bench-'));
  const parser = new DocumentParser();
  try {
    const pdfs: { file: string; bytes: Buffer }[] = [];
    for (const s of sources) {
      const bytes = await htmlToPdf(s.html.replace(/<script\b[\s\S]*?<\/script>/gi, ''));
      const file = path.join(dir, `${pdfs.length}.pdf`);
      fs.writeFileSync(file, bytes);
      pdfs.push({ file, bytes });
    }

    // Warm-up: pdf.js loads its worker code on first use.
    await parser.parse({ body: pdfs[0]!.bytes }, request('fast'));
    let pages = 0;
    const ourText: string[] = [];
    const t0 = performance.now();
    for (const p of pdfs) {
      const r = await parser.parse({ body: p.bytes }, request('fast'));
      pages += r.numPages ?? 0;
      ourText.push(r.markdown);
    }
    const oursMs = performance.now() - t0;
    const result: ParseBenchResult = { files: pdfs.length, pages, ours: { totalMs: oursMs, pagesPerSec: (pages * 1000) / oursMs } };

    if (hasPdftotext()) {
      const theirText: string[] = [];
      const t1 = performance.now();
      for (const p of pdfs) theirText.push((await run('pdftotext', ['-enc', 'UTF-8', p.file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout);
      const theirMs = performance.now() - t1;
      const f1 = wordScores(stripMarkdown(ourText.join('\n')), theirText.join('\n')).f1;
      result.pdftotext = { totalMs: theirMs, pagesPerSec: (pages * 1000) / theirMs, wordF1: f1 };
    } else {
      log('Skipping the pdftotext baseline: install Debian package poppler-utils (apt-get install -y poppler-utils).');
    }

    log('Rendering scans for OCR…');
    const truth = await Promise.all(OCR_PAGES.map((p) => innerText(fixturePages[p]!(origin))));
    const scan = await htmlToScannedPdf(OCR_PAGES.map((p) => fixturePages[p]!(origin).replace(/<script\b[\s\S]*?<\/script>/gi, '')));
    const t2 = performance.now();
    const ocr = await parser.parse({ body: scan }, request('ocr'));
    const ocrMs = performance.now() - t2;
    const ocrPages = ocr.numPages ?? 0;
    const scores = wordScores(stripMarkdown(ocr.markdown), truth.join('\n'));
    result.ocr = { pages: ocrPages, pagesPerSec: (ocrPages * 1000) / ocrMs, wordF1: scores.f1, recall: scores.recall };
    return result;
  } finally {
    await parser.close();
    await closeDocumentBrowser();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The text a reader sees on the rendered page: the reference for OCR accuracy. */
async function innerText(html: string): Promise<string> {
  const { chromium } = await import('playwright-core');
  const { findChromium } = await import('../src/scrape/engines/browser/chromium.js');
  const browser = await chromium.launch({ executablePath: findChromium(process.env.CHROMIUM_PATH)! });
  try {
    const page = await browser.newPage({ viewport: { width: 800, height: 400 } });
    await page.setContent(`<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:"DejaVu Sans",sans-serif;font-size:14px;line-height:1.5;margin:0}</style></head><body>${html.replace(/<script\b[\s\S]*?<\/script>/gi, '')}</body></html>`);
    return await page.evaluate(() => document.body.innerText);
  } finally {
    await browser.close();
  }
}

export function printParseBench(r: ParseBenchResult): void {
  const f = (n: number, d = 1) => n.toFixed(d);
  console.log('\n## PDF parsing');
  console.log(`${r.files} PDFs printed by Chromium, ${r.pages} pages`);
  console.log('| reader | pages/s | total ms | word F1 vs pdftotext |');
  console.log('| --- | --- | --- | --- |');
  console.log(`| Gleaner (fast, text layer → markdown) | ${f(r.ours.pagesPerSec)} | ${f(r.ours.totalMs, 0)} | ${r.pdftotext ? f(r.pdftotext.wordF1, 3) : 'n/a'} |`);
  if (r.pdftotext) console.log(`| pdftotext (poppler) | ${f(r.pdftotext.pagesPerSec)} | ${f(r.pdftotext.totalMs, 0)} | 1.000 |`);
  else console.log('| pdftotext (poppler) | skipped: not installed | | |');
  if (r.ocr) {
    console.log(`OCR (tesseract.js, eng, one worker): ${r.ocr.pages} scanned pages at ${f(r.ocr.pagesPerSec, 2)} pages/s; word F1 ${f(r.ocr.wordF1, 3)}, recall ${f(r.ocr.recall, 3)} against the pages' own text`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--limit');
  const limit = i > 0 ? Number(process.argv[i + 1]) : undefined;
  printParseBench(await runParseBench(limit !== undefined ? { limit } : {}));
}
