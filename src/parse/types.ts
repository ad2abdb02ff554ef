/** Per-page outputs of the PDF parser; the Document carries them, so they are defined with it. */
export type { PdfBlockItem, PdfPage, PdfPageBlocks } from '../core/document.js';
