/** Per-page outputs of the PDF parser, as the v2 Document carries them (`pages`, `blocks`). */

export interface PdfPage {
  pageNumber: number;
  markdown: string;
}

export interface PdfBlockItem {
  id: string;
  type: string;
  label: string | null;
  bbox: [number, number, number, number] | null;
  content: string;
  markdownSpan: [number, number] | null;
  readingOrder: number;
  source: string | null;
  confidence: { layout: number | null; ocr: number | null };
}

export interface PdfPageBlocks {
  pageNumber: number;
  width: number | null;
  height: number | null;
  status: string;
  items: PdfBlockItem[];
}
