/** The Document returned by scrape (and by every feature built on it), as the v2 interface has it. */
import type { PdfPage, PdfPageBlocks } from '../parse/types.js';
import type { PageMetadata } from './types.js';

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
