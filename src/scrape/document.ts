/** The Document returned by scrape (and by every feature built on it), as the v2 interface has it. */
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
  warning?: string;
  metadata: DocumentMetadata;
}
