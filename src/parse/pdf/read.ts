/**
 * Reading a run of consecutive pages' text layers, in order: what a page thread does with its
 * share of a document, and what the request's thread does with the first share. Only what the
 * layout needs comes back (lines and rules), small enough to cross between threads.
 */
import { giveTurn } from '../../core/event-loop.js';
import type { Line, Rule } from './geometry.js';
import { linesOf } from './layout.js';
import type { PDFDocumentProxy, PDFPageProxy } from './pdfjs.js';
import { readTextLayer, usable, type FontWeights } from './text-layer.js';

export interface PageText {
  pageNumber: number;
  width: number;
  height: number;
  /** Enough text for `auto` not to OCR the page. */
  usable: boolean;
  lines: Line[];
  rules: Rule[];
  ruledToEnd: boolean;
  /** The operator list was read (see TextLayer). */
  drawn: boolean;
  /** The page is damaged. */
  failed?: boolean;
}

export interface PagesRead {
  pages: PageText[];
  /** The deadline passed before the page after the last one read. */
  timedOut: boolean;
}

/**
 * Pages `first`..`last`. `afterRuled`: the page before `first` ended in a ruled table. Font
 * weights learnt from one page's operator list serve the pages after it.
 */
export async function readPages(doc: PDFDocumentProxy, first: number, last: number, deadline: number, afterRuled = false): Promise<PagesRead> {
  const pages: PageText[] = [];
  const weights: FontWeights = new Map();
  let ruledToEnd = afterRuled;
  for (let n = first; n <= last; n++) {
    if (Date.now() > deadline) return { pages, timedOut: true };
    const page = await readPage(doc, n, weights, ruledToEnd);
    ruledToEnd = page.ruledToEnd;
    pages.push(page);
    // pdf.js's halves talk through promises here: without a turn, a long document's pages would
    // be read in one stretch of microtasks.
    await giveTurn();
  }
  return { pages, timedOut: false };
}

export async function readPage(doc: PDFDocumentProxy, n: number, weights: FontWeights, afterRuled: boolean): Promise<PageText> {
  let page: PDFPageProxy | undefined;
  try {
    page = await doc.getPage(n);
    const { width, height } = page.getViewport({ scale: 1 });
    const layer = await readTextLayer(page, weights, afterRuled);
    return {
      pageNumber: n,
      width,
      height,
      usable: usable(layer.runs),
      lines: layer.lines ?? linesOf(layer.runs, layer.rules),
      rules: layer.rules,
      ruledToEnd: layer.ruledToEnd,
      drawn: layer.drawn,
    };
  } catch {
    // One damaged page should not cost the rest of the document.
    return { pageNumber: n, width: 0, height: 0, usable: false, lines: [], rules: [], ruledToEnd: false, drawn: false, failed: true };
  } finally {
    page?.cleanup();
  }
}
