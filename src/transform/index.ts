/**
 * The deterministic transform stage: raw HTML in, markdown / cleaned HTML / links / images /
 * metadata out. One streaming parse feeds every output, markdown included: it is written as the
 * page streams past, not converted from HTML afterwards.
 */
import type { TransformOptions, TransformResult, TransformWants } from './types.js';
import { isAdOrConsentBlock } from './ad-blocks.js';
import type { ContentOptions, ContentResult } from './clean-html.js';
import { postprocessMarkdown } from './markdown.js';
import { scanDocument } from './scan.js';
import { selectorStarts } from './tag-selectors.js';

export { postprocessMarkdown, codeLanguage } from './markdown.js';
export { extractLinks, extractImages, extractMetadata, toMarkdown } from './extract.js';
export { bestSrcsetCandidate } from './images.js';
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
    // Ads and consent notices leave the whole page the way excludeTags' elements do. Main-content
    // mode has its own boilerplate rules for them, tuned with the content scoring: dropping slots
    // before it scores moved what it chose on some pages (two of WCXB dev's 1,497, both worse).
    if (opts.blockAds && !opts.onlyMainContent) content.dropElement = isAdOrConsentBlock;
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
    // Even so, only a heading: a script shell's label for crawlers (a hidden "<h1>Shop</h1>",
    // the rest left to its scripts), a title with no content under it. The page has none.
    if (cleaned !== undefined && isLoneHeading(cleaned.content)) return '';
  }
  return cleaned?.content ?? '';
}

/** Longest result looked at (the html format's wrappers included): a lone heading is short. */
const LONE_HEADING_MAX = 2000;
const LONE_HEADING_MD = /^\s*#{1,6} [^\n]*\s*$/;
const HEADING_HTML = /<h([1-6])\b[^>]*>[\s\S]*?<\/h\1\s*>/i;

/** Whether the kept content is one heading and nothing else: no other text, no picture. */
function isLoneHeading(content: string): boolean {
  if (content.length > LONE_HEADING_MAX) return false;
  if (LONE_HEADING_MD.test(content)) return true;
  const m = HEADING_HTML.exec(content);
  if (m === null) return false;
  const rest = content.slice(0, m.index) + content.slice(m.index + m[0].length);
  return !/<img\b/i.test(rest) && rest.replace(/<[^>]*>/g, '').trim() === '';
}
