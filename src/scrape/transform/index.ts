/**
 * The deterministic transform stage: raw HTML in, markdown / cleaned HTML / links / images /
 * metadata out. One streaming parse feeds every output; the markdown converter then reads the
 * (much smaller) cleaned HTML.
 */
import type { TransformOptions, TransformResult, TransformWants } from '../types.js';
import type { ContentOptions } from './clean-html.js';
import { convertCleanHtml } from './markdown.js';
import { scanDocument } from './scan.js';
import { selectorStarts } from './tag-selectors.js';

export { toMarkdown, convertCleanHtml, postprocessMarkdown, codeLanguage } from './markdown.js';
export { extractLinks } from './links.js';
export { extractImages, bestSrcsetCandidate } from './images.js';
export { extractMetadata } from './metadata.js';
export { boilerplateReason } from './main-content.js';

const MAX_MISFIRE_ROUNDS = 3;

export function transformPage(html: string, opts: TransformOptions, wants: TransformWants): TransformResult {
  const needContent = wants.markdown || wants.html;
  let content: ContentOptions | undefined;
  if (needContent) {
    const starts = selectorStarts(html, opts.includeTags, opts.excludeTags);
    content = {
      onlyMainContent: opts.onlyMainContent,
      // The html format keeps the page's attributes; markdown alone needs only a few.
      attributes: wants.html ? 'full' : 'minimal',
      includeStarts: starts.includeStarts,
      excludeStarts: starts.excludeStarts,
    };
  }

  const scan = scanDocument(html, {
    baseUrl: opts.baseUrl,
    metadata: true,
    links: wants.links,
    images: wants.images,
    content,
  });

  const result: TransformResult = { metadata: scan.metadata ?? {} };
  if (wants.links) result.links = scan.links ?? [];
  if (wants.images) result.images = scan.images ?? [];

  if (content !== undefined) {
    let cleaned = scan.content;
    // A subtree the rules dropped holds more prose than what they kept: clean again with it
    // exempt. Wrappers nest ("widget-wrap" inside "widget-container"), so this may take a few rounds.
    const keepStarts = new Set<number>();
    for (let round = 0; round < MAX_MISFIRE_ROUNDS && cleaned?.misfire !== undefined && !cleaned.nearlyEmpty; round++) {
      keepStarts.add(cleaned.misfire);
      cleaned = scanDocument(html, { baseUrl: opts.baseUrl, content: { ...content, keepStarts } }).content;
    }
    if (cleaned?.nearlyEmpty) {
      // The tag/class rules emptied a page that has text (its content sits inside a mis-nested
      // header, or only in <noscript>): score the page again without them.
      cleaned = scanDocument(html, { baseUrl: opts.baseUrl, content: { ...content, lenient: true } }).content;
    }
    const cleanHtml = cleaned?.html ?? '';
    if (wants.html) result.html = cleanHtml;
    if (wants.markdown) result.markdown = convertCleanHtml(cleanHtml, { removeBase64Images: opts.removeBase64Images });
  }
  return result;
}
