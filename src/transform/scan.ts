/**
 * One streaming parse of a document that feeds every consumer at once: metadata, links,
 * images and the cleaned content. No DOM is built; each consumer keeps only what it needs.
 */
import type { PageMetadata } from '../core/document.js';
import { ContentFilter, type ContentOptions, type ContentResult } from './clean-html.js';
import { ImageCollector } from './images.js';
import { LinkCollector } from './links.js';
import { MetadataCollector } from './metadata.js';
import { looksLikeXhtml } from './html-util.js';
import { streamHtml } from './stream.js';
import { effectiveBase, findBaseHref, makeResolver } from './url.js';

export interface ScanOptions {
  /** URL the document was served from. */
  baseUrl: string;
  metadata?: boolean;
  links?: boolean;
  images?: boolean;
  /** Produce cleaned content HTML with these rules. */
  content?: ContentOptions;
}

export interface ScanResult {
  metadata?: PageMetadata;
  links?: string[];
  images?: string[];
  content?: ContentResult;
}

export function scanDocument(html: string, opts: ScanOptions): ScanResult {
  const resolve = makeResolver(effectiveBase(opts.baseUrl, findBaseHref(html)));
  const meta = opts.metadata ? new MetadataCollector(resolve) : undefined;
  const links = opts.links ? new LinkCollector(resolve) : undefined;
  const images = opts.images ? new ImageCollector(resolve) : undefined;
  const filter = opts.content ? new ContentFilter(opts.content, resolve) : undefined;
  let svgDepth = 0;

  streamHtml(
    html,
    {
      open(name, attrs, start) {
        switch (name) {
          case 'a':
            links?.open(attrs);
            break;
          case 'img':
          case 'source':
            images?.open(name, attrs);
            break;
          case 'meta':
            meta?.open(name, attrs, false);
            images?.open(name, attrs);
            break;
          case 'html':
          case 'link':
            meta?.open(name, attrs, false);
            break;
          case 'title':
            meta?.open(name, attrs, svgDepth > 0);
            break;
          case 'svg':
            svgDepth++;
            break;
        }
        filter?.open(name, attrs, start);
      },
      text(data) {
        meta?.text(data);
        filter?.text(data);
      },
      close(name) {
        if (name === 'svg' && svgDepth > 0) svgDepth--;
        meta?.close(name);
        filter?.close(name);
      },
    },
    { selfClosing: looksLikeXhtml(html) },
  );

  const result: ScanResult = {};
  if (meta) result.metadata = meta.result();
  if (links) result.links = links.result();
  if (images) result.images = images.result();
  if (filter) result.content = filter.finish();
  return result;
}
