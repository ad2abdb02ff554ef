/** Escaping for markdown: text that would read as syntax, link text and alt text, link destinations. */
import { SPACE_RUN } from './markdown-types.js';
import { codeAt, codeOrNone } from './html-util.js';

/** What ends or escapes a link's text or an image's alt text early: escaped where it stands. */
export const BRACKETS = /[[\]\\]/g;

// Characters that can start inline syntax in plain text; most text holds none, and is left alone.
export const MAY_NEED_ESCAPE = /[\\`*_<\]&~]/;
export const ENTITY = /&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/y;

export function isAsciiPunct(c: number): boolean {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

/** A letter or digit, for emphasis purposes; anything past ASCII is taken for a letter. */
export function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 127;
}

/**
 * Escapes what would read as markup rather than the text it is: backticks (code spans), `*` and
 * `_` that could open or close emphasis (not a lone `*` between spaces, not `_` inside a word,
 * so `2 * 3` and `snake_case` stay as they are), `~~` (strikethrough), `<` before a tag name (raw
 * HTML), `&` before an entity name, and, outside a link's text (where BRACKETS already did it), a
 * backslash before punctuation and the `](` that would turn brackets into a link.
 */
export function escapeInline(s: string, plain: boolean): string {
  let out = '';
  let from = 0;
  const len = s.length;
  for (let i = 0; i < len; i++) {
    const c = codeAt(s, i);
    let escape = false;
    switch (c) {
      case 96: // `
        escape = true;
        break;
      case 42: // *
        escape = !(i > 0 && codeAt(s, i - 1) === 32 && codeOrNone(s, i + 1, len) === 32);
        break;
      case 95: // _
        escape = !(i > 0 && isWordChar(codeAt(s, i - 1)) && isWordChar(codeOrNone(s, i + 1, len)));
        break;
      case 126: // ~
        escape = codeOrNone(s, i + 1, len) === 126 || (i > 0 && codeAt(s, i - 1) === 126);
        break;
      case 60: {
        // <
        const n = codeOrNone(s, i + 1, len);
        escape = (n >= 65 && n <= 90) || (n >= 97 && n <= 122) || n === 47 || n === 33 || n === 63;
        break;
      }
      case 38: // &
        ENTITY.lastIndex = i;
        escape = ENTITY.test(s);
        break;
      case 92: // backslash
        escape = plain && (i + 1 === len || isAsciiPunct(codeOrNone(s, i + 1, len)));
        break;
      case 93: // ]
        escape = plain && codeOrNone(s, i + 1, len) === 40;
        break;
    }
    if (escape) {
      out += s.slice(from, i) + '\\';
      from = i;
    }
  }
  return from === 0 && out === '' ? s : out + s.slice(from);
}

// Openings that make a line a heading, quote, list item, rule, setext underline or fence.
export const BLOCK_START = /^(?:#{1,6}(?=[ \t]|$)|>|[-+](?=[ \t]|$)|(?:-+|=+) *$|~{3,})/;
export const ORDERED_START = /^(\d{1,9})([.)])(?=[ \t]|$)/;

/** Escapes an opening that would make text at the start of a line a block of its own. */
export function escapeLineStart(s: string): string {
  const c = codeAt(s, 0);
  if (c >= 48 && c <= 57) return ORDERED_START.test(s) ? s.replace(ORDERED_START, '$1\\$2') : s;
  if (c !== 35 && c !== 62 && c !== 45 && c !== 43 && c !== 61 && c !== 126) return s;
  return BLOCK_START.test(s) ? '\\' + s : s;
}

/** Collapses whitespace and trims. */
export function clean(s: string): string {
  return s.replace(SPACE_RUN, ' ').trim();
}

/**
 * A link destination that every markdown reader ends where it should: spaces, parentheses and
 * angle brackets are percent-encoded (the same URL), not wrapped in angle brackets, which simple
 * readers and text strippers do not know and cut at the first ")" (an image CDN's
 * ":format(webp)" filters would then spill into the text).
 */
export const DESTINATION_ESCAPE = /[\s()<>]/g;
export const NEEDS_ESCAPE = /[\s()<>]/;
export const DESTINATION_CODES: Readonly<Record<string, string>> = { '(': '%28', ')': '%29', '<': '%3C', '>': '%3E' };

export function destination(url: string): string {
  if (!NEEDS_ESCAPE.test(url)) return url;
  return url.replace(DESTINATION_ESCAPE, (c) => DESTINATION_CODES[c] ?? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
