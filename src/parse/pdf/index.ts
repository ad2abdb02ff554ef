/**
 * PDF to pages of typed blocks. The text layer (pdf.js) is read first; pages are rendered and
 * OCR'd when the mode asks for it (`ocr`) or the page has no usable text (`auto`). Both text
 * sources go through the same layout code.
 */
import { ApiError } from '../../errors.js';
import type { Ocr } from '../ocr.js';
import type { PdfSettings } from '../parsers.js';
import { giveTurn } from '../../core/event-loop.js';
import { closePdf, openPdf } from './document.js';
import type { Rule } from './geometry.js';
import { blocksOf, linesOf, readingOrder, typeScale, type LaidOutBlock, type Line, type TextRun } from './layout.js';
import type { PDFDocumentProxy, PDFPageProxy } from './pdfjs.js';
import { readPage, readPages, type PageText, type PagesRead } from './read.js';
import { MIN_PAGES_PER_RUN, type PdfThreads } from './threads.js';

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

/** `threads`: page threads for long documents' text layers; without them every page is read here. */
export async function parsePdf(bytes: Buffer, settings: PdfSettings, ocr: Ocr, deadline: number, threads?: PdfThreads): Promise<PdfResult> {
  const doc = await openPdf(bytes);
  try {
    const numPages = doc.numPages;
    const last = Math.min(numPages, settings.maxPages ?? numPages);
    const texts = settings.mode === 'ocr' ? undefined : await readTextLayers(doc, bytes, last, deadline, threads);
    const raw: PageRaw[] = [];
    for (let n = 1; n <= last; n++) {
      const text = texts?.[n - 1];
      if (text && (text.failed || settings.mode === 'fast' || text.usable)) {
        raw.push({ pageNumber: n, width: text.width, height: text.height, source: 'text', lines: text.lines, rules: text.rules, ...(text.failed ? { failed: true } : {}) });
        continue;
      }
      if (Date.now() > deadline) {
        throw new ApiError('SCRAPE_TIMEOUT', { message: `Timed out after ${n - 1} of ${last} PDF pages; raise timeout or lower maxPages` });
      }
      let page: PDFPageProxy | undefined;
      try {
        page = await doc.getPage(n);
        const { width, height } = page.getViewport({ scale: 1 });
        const runs = await ocrRuns(doc, page, ocr, deadline);
        raw.push({ pageNumber: n, width, height, source: 'ocr', lines: linesOf(runs, []), rules: [] });
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
    const pages: PdfPageResult[] = [];
    for (const p of raw) {
      const scale = scales[p.source];
      const blocks = blocksOf(readingOrder(p.lines, scale), scale, p.pageNumber === 1, p.rules);
      const status = p.failed ? 'failed' : blocks.length ? 'ok' : 'empty';
      pages.push({ pageNumber: p.pageNumber, width: p.width, height: p.height, status, source: blocks.length ? p.source : null, blocks });
      // A page's layout at a time: other requests are answered between pages.
      await giveTurn();
    }
    const info = (await doc.getMetadata().catch(() => undefined))?.info as { Title?: unknown } | undefined;
    // Chromium titles untitled pages after their URL; that is no title.
    const title = typeof info?.Title === 'string' && info.Title.trim() && info.Title !== 'about:blank' ? info.Title.trim() : undefined;
    return { numPages, pages, title };
  } finally {
    await closePdf(doc).catch(() => undefined);
  }
}

/**
 * The text layers of pages 1..last: the first run of pages here, the others on page threads when
 * the document is long enough to share. A run read on a thread did not know whether the page
 * before it ended in a ruled table; where it did and the run's first page was read without its
 * rules, that page is read again here. A run whose thread failed is read here too.
 */
async function readTextLayers(doc: PDFDocumentProxy, bytes: Buffer, last: number, deadline: number, threads: PdfThreads | undefined): Promise<PageText[]> {
  const runs = Math.min(1 + (threads?.size ?? 0), Math.floor(last / MIN_PAGES_PER_RUN));
  if (runs <= 1 || !threads) return complete(await readPages(doc, 1, last, deadline), last);
  const bounds = Array.from({ length: runs }, (_, k) => [Math.floor((k * last) / runs) + 1, Math.floor(((k + 1) * last) / runs)] as const);
  const onThreads = bounds.slice(1).map(([first, end]) => threads.read(bytes, first, end, deadline).catch(() => undefined));
  const parts: (PagesRead | undefined)[] = [await readPages(doc, bounds[0]![0], bounds[0]![1], deadline), ...(await Promise.all(onThreads))];
  const pages: PageText[] = [];
  for (const [k, part] of parts.entries()) {
    const [first, end] = bounds[k]!;
    const read = part ?? (await readPages(doc, first, end, deadline, pages.at(-1)?.ruledToEnd));
    if (read.timedOut) return complete({ pages: [...pages, ...read.pages], timedOut: true }, last);
    const [head, ...rest] = read.pages;
    const seam = pages.at(-1)?.ruledToEnd === true && head !== undefined && !head.drawn && !head.failed;
    pages.push(seam ? await readPage(doc, first, new Map(), true) : head!, ...rest);
  }
  return pages;
}

function complete(read: PagesRead, last: number): PageText[] {
  if (read.timedOut) {
    throw new ApiError('SCRAPE_TIMEOUT', { message: `Timed out after ${read.pages.length} of ${last} PDF pages; raise timeout or lower maxPages` });
  }
  return read.pages;
}
