/**
 * One output of a whole document at a time, each a scan of its own: the helpers for callers that
 * want only the links, the pictures, the metadata or the markdown of a page. (Kept apart from the
 * collectors so that the scan, which feeds them, imports nothing that imports it.)
 */
import type { PageMetadata } from '../core/document.js';
import { postprocessMarkdown } from './markdown.js';
import { scanDocument } from './scan.js';

export function extractLinks(html: string, baseUrl: string): string[] {
  return scanDocument(html, { baseUrl, links: true }).links ?? [];
}

export function extractImages(html: string, baseUrl: string): string[] {
  return scanDocument(html, { baseUrl, images: true }).images ?? [];
}

/** Metadata of a whole document. Never throws. */
export function extractMetadata(html: string, baseUrl: string): PageMetadata {
  try {
    return scanDocument(html, { baseUrl, metadata: true }).metadata ?? {};
  } catch {
    return {};
  }
}

export interface MarkdownOptions {
  /** Replace `data:` image sources with their alt text (default true). */
  removeBase64Images?: boolean;
}

/**
 * HTML → markdown for any HTML document or fragment: links and images absolute against
 * `baseUrl` (and the document's `<base href>`), scripts and styles dropped, nothing else removed.
 */
export function toMarkdown(html: string, baseUrl: string, opts: MarkdownOptions = {}): string {
  const scan = scanDocument(html, {
    baseUrl,
    content: { onlyMainContent: false, output: 'markdown' },
  });
  return postprocessMarkdown(scan.content?.content ?? '', opts.removeBase64Images ?? true);
}
