/** What the transform is asked for and what it gives back: the shapes its callers (scrape, parse) share. */
import type { PageMetadata } from '../core/document.js';

export interface TransformOptions {
  /** Absolute URL the document was served from (used to resolve relative links). */
  baseUrl: string;
  onlyMainContent: boolean;
  includeTags: string[];
  excludeTags: string[];
  removeBase64Images: boolean;
  /** Leave ad slots and cookie-consent notices out of the content (see transform/ad-blocks.ts). */
  blockAds?: boolean;
}

export interface TransformWants {
  markdown: boolean;
  html: boolean;
  links: boolean;
  images: boolean;
}

/** A transform asked for before the page's final URL (its base) is known. */
export interface PageTransform {
  opts: Omit<TransformOptions, 'baseUrl'>;
  wants: TransformWants;
}

export interface TransformResult {
  markdown?: string;
  /** Cleaned HTML (after main-content / include / exclude rules). */
  html?: string;
  links?: string[];
  images?: string[];
  metadata: PageMetadata;
}
