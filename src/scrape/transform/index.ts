/**
 * The deterministic transform stage: raw HTML in, markdown / cleaned HTML / links / images /
 * metadata out. One streaming parse feeds every output, markdown included: it is written as the
 * page streams past, not converted from HTML afterwards.
 */
import type { TransformOptions, TransformResult, TransformWants } from '../types.js';
import type { ContentOptions, ContentResult } from './clean-html.js';
import { postprocessMarkdown } from './markdown.js';
import { scanDocument } from './scan.js';
import { selectorStarts } from './tag-selectors.js';

export { toMarkdown, postprocessMarkdown, codeLanguage } from './markdown.js';
export { extractLinks } from './links.js';
export { extractImages, bestSrcsetCandidate } from './images.js';
export { extractMetadata } from './metadata.js';
export { boilerplateReason } from './main-content.js';

const MAX_MISFIRE_ROUNDS = 3;

export function transformPage(html: string, opts: TransformOptions, wants: TransformWants): TransformResult {
  let content: ContentOptions | undefined;
  if (wants.markdown || wants.html) {
    const starts = selectorStarts(html, opts.includeTags, opts.excludeTags);
    content = {
      onlyMainContent: opts.onlyMainContent,
      // The first pass writes the html format when it is wanted, else markdown directly.
      output: wants.html ? 'html' : 'markdown',
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
    const first = cleanContent(html, opts.baseUrl, content, scan.content);
    if (wants.html) result.html = first;
    if (wants.markdown) {
      const md = wants.html ? cleanContent(html, opts.baseUrl, { ...content, output: 'markdown' }) : first;
      result.markdown = postprocessMarkdown(md, opts.removeBase64Images);
    }
  }
  return result;
}

/**
 * The page's kept content: the scan's, or the page cleaned again when the boilerplate rules
 * misfired on it or left (nearly) nothing.
 */
function cleanContent(html: string, baseUrl: string, content: ContentOptions, scanned?: ContentResult): string {
  let cleaned = scanned ?? scanDocument(html, { baseUrl, content }).content;
  // A subtree the rules dropped holds more prose than what they kept: clean again with it
  // exempt. Wrappers nest ("widget-wrap" inside "widget-container"), so this may take a few rounds.
  // A page the rules left (nearly) empty is tried so first too: the whole-page fallback below
  // also brings back its hidden popups, headers and sidebars.
  const keepStarts = new Set<number>();
  for (let round = 0; round < MAX_MISFIRE_ROUNDS && cleaned?.misfire !== undefined; round++) {
    keepStarts.add(cleaned.misfire);
    cleaned = scanDocument(html, { baseUrl, content: { ...content, keepStarts } }).content;
  }
  if (cleaned?.nearlyEmpty && html.includes('<noscript')) {
    // A page whose content is only in <noscript> (a forum's view for crawlers) is read there
    // with the rules still on: its quotes and link previews are as much furniture as anywhere.
    const noscript = scanDocument(html, { baseUrl, content: { ...content, noscript: true } }).content;
    if (noscript !== undefined && !noscript.nearlyEmpty) cleaned = noscript;
  }
  if (cleaned?.nearlyEmpty) {
    // The tag/class rules emptied a page that has text (its content sits inside a mis-nested
    // header, or only in <noscript>): score the page again without them.
    cleaned = scanDocument(html, { baseUrl, content: { ...content, lenient: true } }).content;
  }
  return cleaned?.content ?? '';
}
