/** Small HTML helpers shared by the transform stage's single streaming pass. */
import { Parser } from 'htmlparser2';

/** Read access to a tag's attributes: raw (entity-encoded) values by lower-case name. */
export interface AttrSource {
  get(name: string): string | undefined;
  /** Number of attributes, when known; lets hot paths skip tags that have none. */
  readonly size?: number;
}

/** Wraps a plain record (lower-case keys) as an attribute source. */
export function attrsFrom(record: Readonly<Record<string, string>>): AttrSource {
  return { get: (name) => (Object.hasOwn(record, name) ? record[name] : undefined) };
}

/**
 * `s.charCodeAt(i)`, for loops over the page's text. Text reaches them in many string
 * representations (slices of the page, decoded copies, joined pieces, one- and two-byte), which
 * makes the property lookup of `s.charCodeAt` megamorphic: optimized code then looks it up in
 * V8's stub cache on every character. Calling the method itself skips the lookup (about a third
 * of the instructions of such a loop, measured with cachegrind). Loops should read `s.length`
 * once, too: it is a lookup of the same kind.
 *
 * `i` must be within `s` (see codeOrNone for a read that may not be): every caller shares this
 * one call, and a single read past the end makes V8 stop inlining it for all of them (the
 * builtin is then called for each character, which cost more than the lookup saved).
 */
export function codeAt(s: string, i: number): number {
  return String.prototype.charCodeAt.call(s, i);
}

/** `s.includes(part)`, for text in any of its representations (see codeAt). */
export function holds(s: string, part: string): boolean {
  return String.prototype.includes.call(s, part);
}

/** `s.indexOf(search, from)`, for text in any of its representations (see codeAt). */
export function indexIn(s: string, search: string, from: number): number {
  return String.prototype.indexOf.call(s, search, from);
}

/** Whether character code `c` is one that `\s` matches in a regular expression. */
export function isPatternSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** The code of `s[i]`, or -1 when `i` is not within `s` (of length `len`); see codeAt. */
export function codeOrNone(s: string, i: number, len: number): number {
  return i >= 0 && i < len ? codeAt(s, i) : -1;
}

/** Elements that never have a closing tag; the serializer must not emit one for them. */
export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

// The pass runs with entity decoding off (it is a large share of parse time and the markdown
// converter decodes anyway), so the few values we read ourselves are decoded on demand here,
// with htmlparser2's own decoder so attribute-specific rules (e.g. `&copy=` in a query string)
// match what a browser does.
let decodedAttr = '';
const attrDecoder = new Parser(
  {
    onattribute(_name, value) {
      decodedAttr = value;
    },
  },
  { decodeEntities: true },
);

let decodedText = '';
const textDecoder = new Parser(
  {
    ontext(data) {
      decodedText += data;
    },
  },
  { decodeEntities: true },
);

/** Decodes character references in a raw attribute value. */
export function decodeAttr(raw: string): string {
  if (!raw.includes('&')) return raw;
  decodedAttr = raw;
  attrDecoder.reset();
  attrDecoder.end(`<x a="${raw.replace(/"/g, '&quot;')}">`);
  return decodedAttr;
}

/** Decodes character references in raw text content. */
export function decodeText(raw: string): string {
  if (!raw.includes('&')) return raw;
  const fast = decodeCommon(raw);
  if (fast !== undefined) return fast;
  decodedText = '';
  textDecoder.reset();
  textDecoder.end(raw.replace(/</g, '&lt;'));
  return decodedText;
}

// The references most text uses, decoded without the full decoder; anything else (a rare name,
// a reference without its semicolon, a C1 code point) goes to htmlparser2's.
const COMMON: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '\u00a9', reg: '\u00ae',
  trade: '\u2122', hellip: '\u2026', mdash: '\u2014', ndash: '\u2013', lsquo: '\u2018', rsquo: '\u2019',
  ldquo: '\u201c', rdquo: '\u201d', sbquo: '\u201a', bdquo: '\u201e', laquo: '\u00ab', raquo: '\u00bb',
  bull: '\u2022', middot: '\u00b7', times: '\u00d7', divide: '\u00f7', deg: '\u00b0', euro: '\u20ac',
  pound: '\u00a3', yen: '\u00a5', cent: '\u00a2', sect: '\u00a7', para: '\u00b6', shy: '\u00ad',
  thinsp: '\u2009', ensp: '\u2002', emsp: '\u2003', zwj: '\u200d', zwnj: '\u200c', larr: '\u2190',
  rarr: '\u2192', uarr: '\u2191', darr: '\u2193', harr: '\u2194', rArr: '\u21d2', lArr: '\u21d0',
  minus: '\u2212', plusmn: '\u00b1', frac12: '\u00bd', frac14: '\u00bc', frac34: '\u00be',
  eacute: '\u00e9', egrave: '\u00e8', aacute: '\u00e1', agrave: '\u00e0', oacute: '\u00f3',
  uuml: '\u00fc', ouml: '\u00f6', auml: '\u00e4', szlig: '\u00df', ccedil: '\u00e7', ntilde: '\u00f1',
  iexcl: '\u00a1', iquest: '\u00bf', prime: '\u2032', Prime: '\u2033', dagger: '\u2020', hearts: '\u2665',
};
const REFERENCE = /&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}))(;?)/g;

function decodeCommon(raw: string): string | undefined {
  let ok = true;
  const out = raw.replace(REFERENCE, (m, dec: string | undefined, hex: string | undefined, name: string | undefined, semi: string) => {
    if (!ok) return m;
    if (name !== undefined) {
      const v = semi === ';' ? COMMON[name] : undefined;
      if (v === undefined) ok = false;
      return v ?? m;
    }
    const cp = dec !== undefined ? parseInt(dec, 10) : parseInt(hex!, 16);
    // NUL, C1 controls (windows-1252 in browsers), surrogates and out-of-range values need the full rules.
    if (cp === 0 || (cp >= 0x80 && cp <= 0x9f) || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
      ok = false;
      return m;
    }
    return String.fromCodePoint(cp);
  });
  return ok ? out : undefined;
}

/** Escapes a decoded string for use inside a double-quoted attribute. */
export function escapeAttr(value: string): string {
  return /[&"<]/.test(value) ? value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;') : value;
}

/** Escapes decoded text for use as element content. */
export function escapeText(value: string): string {
  return /[&<>]/.test(value) ? value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : value;
}

/**
 * Re-quotes a raw (still entity-encoded) attribute value. Only a literal `"` needs care: it can
 * appear when the source used single quotes.
 */
export function requoteRaw(raw: string): string {
  return raw.includes('"') ? raw.replace(/"/g, '&quot;') : raw;
}

/**
 * Whitespace to collapse into one space: runs, and any single whitespace but a space (matching
 * each single space between words too would cost a replacement per word).
 */
export const COLLAPSIBLE_SPACE = /\s{2,}|[^\S ]/g;

/** Whitespace-collapsed, trimmed, decoded text. */
export function cleanText(raw: string): string {
  return decodeText(raw).replace(COLLAPSIBLE_SPACE, ' ').trim();
}

/**
 * Documents that declare themselves XML (the DocBook/XHTML manuals, for one) write empty
 * elements as `<a id="x"/>`; honouring the slash there keeps them from swallowing what follows.
 */
export function looksLikeXhtml(html: string): boolean {
  return /^\uFEFF?\s*<\?xml\b/.test(html.slice(0, 256));
}
