/**
 * The sets of tags the content filter consults for every element, and which of them a tag
 * belongs to as bits looked up once per element.
 */
import { VOID_ELEMENTS } from './html-util.js';
import { NON_CONTENT_TAGS } from './main-content.js';

/** Blocks that may be dropped for being mostly links (see pruneLinkBlock). */
const LINK_BLOCKS: ReadonlySet<string> = new Set(['ul', 'ol', 'dl', 'div', 'section', 'table', 'menu']);

/**
 * Inline elements that lay out side by side as separate boxes (see ContentFilter.inlineGap).
 * Not emphasis (b, strong, i, em): it marks part of a word as often as a word ("<b>Glean</b>er").
 */
const GAP_INLINE: ReadonlySet<string> = new Set(['span', 'font', 'a', 'small', 'time']);
/** Inline code: its highlighted tokens sit side by side exactly as the code has them. */
const CODE_INLINE: ReadonlySet<string> = new Set(['code', 'kbd', 'samp']);


/** Inline wrappers that carry nothing markdown can express; their children are kept. */
const UNWRAP: ReadonlySet<string> = new Set(['span', 'font']);

/**
 * Block-level elements: whitespace right after their tags is not rendered by browsers, and the
 * converter would otherwise keep it as stray leading spaces.
 */
export const BLOCK: ReadonlySet<string> = new Set([
  'html', 'body', 'main', 'article', 'section', 'header', 'footer', 'aside', 'nav', 'div', 'p', 'blockquote',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'hr', 'br', 'figure', 'figcaption', 'form', 'fieldset',
  'details', 'summary', 'address', 'center', 'hgroup', 'colgroup', 'col',
]);

export const HEADINGS: ReadonlySet<string> = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);

/** Blocks that hold a collapsible section's text (see dropReason). */
export const HIDDEN_SECTION_TAGS: ReadonlySet<string> = new Set(['div', 'section', 'p', 'ul', 'ol', 'dl', 'table']);

export function isHeadingTag(name: string): boolean {
  return name === 'h1' || HEADINGS.has(name);
}

// Which of the sets above a tag belongs to, as bits looked up once per element: the sets are
// consulted a dozen times for each of a page's elements.
export const IS_BLOCK = 1;
export const IS_VOID = 2;
export const IS_GAP_INLINE = 4;
export const IS_CODE_INLINE = 8;
export const IS_NON_CONTENT = 16;
export const IS_UNWRAP = 32;
export const IS_SUBHEADING = 64;
export const IS_LINK_BLOCK = 128;
const tagBits = new Map<string, number>();

export function tagBitsOf(name: string): number {
  let bits = tagBits.get(name);
  if (bits === undefined) {
    bits =
      (BLOCK.has(name) ? IS_BLOCK : 0) |
      (VOID_ELEMENTS.has(name) ? IS_VOID : 0) |
      (GAP_INLINE.has(name) ? IS_GAP_INLINE : 0) |
      (CODE_INLINE.has(name) ? IS_CODE_INLINE : 0) |
      (NON_CONTENT_TAGS.has(name) ? IS_NON_CONTENT : 0) |
      (UNWRAP.has(name) ? IS_UNWRAP : 0) |
      (HEADINGS.has(name) ? IS_SUBHEADING : 0) |
      (LINK_BLOCKS.has(name) ? IS_LINK_BLOCK : 0);
    // Custom elements have names of their own; the table stays bounded on hostile pages.
    if (tagBits.size < 1024) tagBits.set(name, bits);
  }
  return bits;
}

// Serialized closing tags, built once per tag name rather than once per element.
const bareClose = new Map<string, string>();

export function closeTagFor(name: string): string {
  let t = bareClose.get(name);
  if (t === undefined) {
    t = `</${name}>`;
    if (bareClose.size < 512) bareClose.set(name, t);
  }
  return t;
}
