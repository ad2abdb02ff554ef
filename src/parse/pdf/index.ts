/**
 * PDF to pages of typed blocks. The text layer (pdf.js) is read first; pages are rendered and
 * OCR'd when the mode asks for it (`ocr`) or the page has no usable text (`auto`). Both text
 * sources go through the same layout code.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, type PDFDocumentProxy, type PDFPageProxy } from './pdfjs.js';
import { ApiError } from '../../errors.js';
import type { Ocr } from '../ocr.js';
import type { PdfSettings } from '../parsers.js';
import type { Rule } from './geometry.js';
import { blocksOf, linesOf, readingOrder, typeScale, type LaidOutBlock, type Line, type TextRun } from './layout.js';
import { readTextLayer, usable, type FontWeights, type TextLayer } from './text-layer.js';

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
const asset = (dir: string) => path.join(PDFJS_DIR, dir) + path.sep;

/** Rendering resolution for OCR: about 180 dpi, capped so a poster-sized page stays affordable. */
const OCR_SCALE = 2.5;
const OCR_MAX_SIDE = 3000;

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
    const weights: FontWeights = new Map();
    let ruledToEnd = false;
    for (let n = 1; n <= last; n++) {
      if (Date.now() > deadline) {
        throw new ApiError('SCRAPE_TIMEOUT', { message: `Timed out after ${n - 1} of ${last} PDF pages; raise timeout or lower maxPages` });
      }
      let page: PDFPageProxy | undefined;
      try {
        page = await doc.getPage(n);
        const { width, height } = page.getViewport({ scale: 1 });
        const layer: TextLayer | undefined = settings.mode === 'ocr' ? undefined : await readTextLayer(page, weights, ruledToEnd);
        ruledToEnd = layer?.ruledToEnd === true;
        let { runs, rules } = layer ?? { runs: [], rules: [] };
        let source: PageSource = 'text';
        if (settings.mode === 'ocr' || (settings.mode === 'auto' && !usable(runs))) {
          runs = await ocrRuns(doc, page, ocr, deadline);
          rules = [];
          source = 'ocr';
        }
        raw.push({ pageNumber: n, width, height, source, lines: (source === 'text' && layer?.lines) || linesOf(runs, rules), rules });
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
