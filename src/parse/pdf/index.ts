/**
 * PDF to pages of typed blocks. The text layer (pdf.js) is read first; pages are rendered and
 * OCR'd when the mode asks for it (`ocr`) or the page has no usable text (`auto`). Both text
 * sources go through the same layout code.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, Util, type PDFDocumentProxy, type PDFPageProxy } from './pdfjs.js';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import { ApiError } from '../../errors.js';
import type { Ocr } from '../ocr.js';
import type { PdfSettings } from '../parsers.js';
import type { Rule } from './geometry.js';
import { blocksOf, linesOf, readingOrder, typeScale, type LaidOutBlock, type Line, type TextRun } from './layout.js';
import { rulesOf } from './rules.js';

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
const asset = (dir: string) => path.join(PDFJS_DIR, dir) + path.sep;

/** Rendering resolution for OCR: about 180 dpi, capped so a poster-sized page stays affordable. */
const OCR_SCALE = 2.5;
const OCR_MAX_SIDE = 3000;
/** Fewer visible characters than this and `auto` treats the page as a scan. */
const USABLE_TEXT_CHARS = 16;

export type PageSource = 'text' | 'ocr';

export interface PdfPageResult {
  pageNumber: number;
  width: number;
  height: number;
  /** `ok`; `empty` when neither the text layer nor OCR found anything; `failed` when the page is damaged. */
  status: 'ok' | 'empty' | 'failed';
  source: PageSource | null;
  blocks: LaidOutBlock[];
}

export interface PdfResult {
  numPages: number;
  pages: PdfPageResult[];
  title: string | undefined;
}

interface PageRaw {
  pageNumber: number;
  width: number;
  height: number;
  source: PageSource;
  lines: Line[];
  rules: Rule[];
  failed?: boolean;
}

async function open(bytes: Buffer): Promise<PDFDocumentProxy> {
  const task = getDocument({
    // pdf.js takes ownership of the array it is given; hand it a copy.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: asset('standard_fonts'),
    cMapUrl: asset('cmaps'),
    cMapPacked: true,
    wasmUrl: asset('wasm'),
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (e) {
    await task.destroy().catch(() => undefined);
    const name = (e as { name?: string }).name;
    if (name === 'PasswordException') {
      throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'The PDF is encrypted with a password and cannot be parsed' });
    }
    throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'The PDF is damaged or not a PDF', details: { reason: String((e as Error).message ?? e) } });
  }
}

/**
 * Whether each font is bold, by its PostScript name (the text layer gives only a generic family).
 * pdf.js hands a page's fonts over only with its operator list, so that is built, once per page
 * whose fonts are new to the document; later pages mostly reuse the same fonts.
 */
async function readDrawing(page: PDFPageProxy, fontNames: Iterable<string>, bold: Map<string, boolean>): Promise<Rule[]> {
  const unknown = [...new Set(fontNames)].filter((n) => !bold.has(n));
  let rules: Rule[] = [];
  try {
    rules = rulesOf(await page.getOperatorList(), page.getViewport({ scale: 1 }).transform);
  } catch {
    // A page that cannot be drawn still has its text; its weights stay unknown (regular).
  }
  for (const name of unknown) {
    const font = page.commonObjs.has(name) ? (page.commonObjs.get(name) as { name?: unknown; bold?: unknown; black?: unknown }) : undefined;
    const psName = typeof font?.name === 'string' ? font.name : '';
    bold.set(name, font?.bold === true || font?.black === true || BOLD_NAME.test(psName));
  }
  return rules;
}

const BOLD_NAME = /bold|black|heavy|semibold|demi|[-,](sb|bd)$/i;

async function textRuns(page: PDFPageProxy, bold: Map<string, boolean>): Promise<{ runs: TextRun[]; rules: Rule[] }> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const all = content.items.filter((item): item is TextItem => 'str' in item);
  const items = all.filter((t) => t.str.trim().length > 0);
  // A word space drawn between two runs joins them as words. Printers also fill the gap between
  // table cells with one wide "space": that one is no word space.
  const wordSpace = (t: TextItem) => t.str.trim() === '' && t.width < 0.6 * Math.hypot(t.transform[2] as number, t.transform[3] as number);
  const spaced = new Set(all.filter((t, k) => k > 0 && t.str.trim().length > 0 && (/^\s/.test(t.str) || wordSpace(all[k - 1]!) || /\S\s$/.test(all[k - 1]!.str))));
  const mono = (font: string) => content.styles[font]?.fontFamily === 'monospace';
  const rules = usable(items.map((t) => ({ text: t.str }))) ? await readDrawing(page, items.map((t) => t.fontName), bold) : [];
  const runs: TextRun[] = [];
  for (const t of items) {
    // Into viewport space: top-left origin, page rotation applied.
    const m = Util.transform(viewport.transform, t.transform) as number[];
    const size = Math.hypot(m[2]!, m[3]!);
    runs.push({ text: t.str, x: m[4]!, w: t.width, baseline: m[5]!, size: size || t.height, mono: mono(t.fontName), bold: bold.get(t.fontName) === true, spaced: spaced.has(t) });
  }
  return { runs, rules };
}

const usable = (runs: { text: string }[]) => {
  const text = runs.map((r) => r.text).join('');
  // Text layers of broken fonts decode to private-use or replacement characters.
  const visible = text.replace(/[\s\uFFFD\uE000-\uF8FF]/g, '');
  return visible.length >= USABLE_TEXT_CHARS;
};

async function ocrRuns(doc: PDFDocumentProxy, page: PDFPageProxy, ocr: Ocr, deadline: number): Promise<TextRun[]> {
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(OCR_SCALE, OCR_MAX_SIDE / Math.max(base.width, base.height));
  const viewport = page.getViewport({ scale });
  const factory = doc.canvasFactory as {
    create(w: number, h: number): { canvas: { encode(f: 'png'): Promise<Buffer> }; context: unknown };
    destroy(c: unknown): void;
  };
  const target = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
  let png: Buffer;
  try {
    const ctx = target.context as CanvasRenderingContext2D;
    // Scans are often transparent where nothing was drawn; OCR wants black on white.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, Math.ceil(viewport.width), Math.ceil(viewport.height));
    await page.render({ canvasContext: ctx, viewport, canvas: target.canvas as unknown as HTMLCanvasElement }).promise;
    png = await target.canvas.encode('png');
  } finally {
    factory.destroy(target);
  }
  const result = await ocr.recognize(png, deadline);
  return result.runs.map((r) => ({ ...r, x: r.x / scale, w: r.w / scale, baseline: r.baseline / scale, size: r.size / scale }));
}

export async function parsePdf(bytes: Buffer, settings: PdfSettings, ocr: Ocr, deadline: number): Promise<PdfResult> {
  const doc = await open(bytes);
  try {
    const numPages = doc.numPages;
    const last = Math.min(numPages, settings.maxPages ?? numPages);
    const raw: PageRaw[] = [];
    const bold = new Map<string, boolean>();
    for (let n = 1; n <= last; n++) {
      if (Date.now() > deadline) {
        throw new ApiError('SCRAPE_TIMEOUT', { message: `Timed out after ${n - 1} of ${last} PDF pages; raise timeout or lower maxPages` });
      }
      let page: PDFPageProxy | undefined;
      try {
        page = await doc.getPage(n);
        const { width, height } = page.getViewport({ scale: 1 });
        let { runs, rules } = settings.mode === 'ocr' ? { runs: [], rules: [] } : await textRuns(page, bold);
        let source: PageSource = 'text';
        if (settings.mode === 'ocr' || (settings.mode === 'auto' && !usable(runs))) {
          runs = await ocrRuns(doc, page, ocr, deadline);
          rules = [];
          source = 'ocr';
        }
        raw.push({ pageNumber: n, width, height, source, lines: linesOf(runs, rules), rules });
      } catch (e) {
        if (e instanceof ApiError) throw e;
        // One damaged page should not cost the rest of the document.
        raw.push({ pageNumber: n, width: 0, height: 0, source: 'text', lines: [], rules: [], failed: true });
      } finally {
        page?.cleanup();
      }
    }
    // OCR sizes come from row heights, text-layer sizes from fonts: each source gets its own scale.
    const scales = {
      text: typeScale(raw.filter((p) => p.source === 'text').flatMap((p) => p.lines)),
      ocr: typeScale(raw.filter((p) => p.source === 'ocr').flatMap((p) => p.lines)),
    };
    const pages = raw.map((p): PdfPageResult => {
      const scale = scales[p.source];
      const blocks = blocksOf(readingOrder(p.lines, scale), scale, p.pageNumber === 1, p.rules);
      const status = p.failed ? 'failed' : blocks.length ? 'ok' : 'empty';
      return { pageNumber: p.pageNumber, width: p.width, height: p.height, status, source: blocks.length ? p.source : null, blocks };
    });
    const info = (await doc.getMetadata().catch(() => undefined))?.info as { Title?: unknown } | undefined;
    // Chromium titles untitled pages after their URL; that is no title.
    const title = typeof info?.Title === 'string' && info.Title.trim() && info.Title !== 'about:blank' ? info.Title.trim() : undefined;
    return { numPages, pages, title };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
