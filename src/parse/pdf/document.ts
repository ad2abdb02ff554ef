/**
 * Opening a PDF with pdf.js, the same way wherever its pages are read (the request's thread or a
 * page thread): no fonts handed to a renderer, no eval, pdf.js's own standard fonts and CMaps.
 * Encrypted and damaged files become the catalog's errors.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { ApiError } from '../../errors.js';
import { getDocument, type PDFDocumentProxy } from './pdfjs.js';

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
const asset = (dir: string) => path.join(PDFJS_DIR, dir) + path.sep;

export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
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
