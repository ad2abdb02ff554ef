/**
 * Opening a PDF with pdf.js, the same way wherever its pages are read (the request's thread or a
 * page thread): no fonts handed to a renderer, no eval, pdf.js's own standard fonts and CMaps,
 * and the two halves of pdf.js linked by a port that copies messages cheaply (see port.ts).
 * Encrypted and damaged files become the catalog's errors.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { ApiError } from '../../errors.js';
import { getDocument, PDFWorker, WorkerMessageHandler, type PDFDocumentProxy } from './pdfjs.js';
import { pdfDocumentClosed, pdfDocumentOpened } from './inflate-scope.js';
import { InProcessPort } from './port.js';

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
const asset = (dir: string) => path.join(PDFJS_DIR, dir) + path.sep;

/** Each open document's worker half, ended by closePdf. */
const workers = new WeakMap<PDFDocumentProxy, InstanceType<typeof PDFWorker>>();

export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const port = new InProcessPort();
  WorkerMessageHandler.initializeFromPort(port);
  // pdf.js's declarations type `port` as null; its code takes any object that posts messages.
  const worker = new PDFWorker({ port: port as unknown as null });
  const task = getDocument({
    worker,
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
  pdfDocumentOpened();
  try {
    const doc = await task.promise;
    workers.set(doc, worker);
    return doc;
  } catch (e) {
    await task.destroy().catch(() => undefined);
    worker.destroy();
    pdfDocumentClosed();
    const name = (e as { name?: string }).name;
    if (name === 'PasswordException') {
      throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'The PDF is encrypted with a password and cannot be parsed' });
    }
    throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'The PDF is damaged or not a PDF', details: { reason: String((e as Error).message ?? e) } });
  }
}

/** Ends a document opened by openPdf, and its worker half. */
export async function closePdf(doc: PDFDocumentProxy): Promise<void> {
  try {
    await doc.destroy();
  } finally {
    const worker = workers.get(doc);
    if (worker) {
      workers.delete(doc);
      worker.destroy();
      pdfDocumentClosed();
    }
  }
}
