/**
 * The Document returned by scrape (and by every feature built on it), as the v2 interface has it,
 * with the shapes it is made of. A leaf: every layer may import it.
 */

export type MetadataValue = string | string[];

export interface PageMetadata {
  title?: string;
  description?: string;
  language?: string;
  [key: string]: MetadataValue | number | boolean | undefined;
}

export interface DocumentMetadata extends PageMetadata {
  /** The URL exactly as requested. */
  sourceURL: string;
  /** Final URL after redirects. */
  url: string;
  statusCode: number;
  contentType: string;
  scrapeId: string;
  proxyUsed: 'basic' | 'enhanced';
  creditsUsed: number;
  cacheState?: 'hit' | 'miss';
  cachedAt?: string;
  error?: string;
}

export interface Document {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  rawBase64?: string;
  links?: string[];
  images?: string[];
  screenshot?: string;
  /** Documents (PDF parser `pages` / `blocks`). */
  pages?: PdfPage[];
  blocks?: PdfPageBlocks[];
  warning?: string;
  /** Model-layer formats (src/scrape/formats): values in the SDK's shapes. */
  json?: unknown;
  summary?: string;
  answer?: string;
  highlights?: string;
  branding?: Record<string, unknown>;
  product?: object;
  menu?: object;
  /** The `changeTracking` format's result (monitor/change-tracking.ts). */
  changeTracking?: unknown;
  /** What the `actions` option produced; files as signed URLs. */
  actions?: DocumentActions;
  metadata: DocumentMetadata;
}

export interface DocumentActions {
  screenshots: string[];
  scrapes: { url: string; html: string }[];
  javascriptReturns: { type: string; value: unknown }[];
  pdfs: string[];
}

/** Per-page outputs of the PDF parser, as the Document carries them (`pages`, `blocks`). */
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
