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
  decodedText = '';
  textDecoder.reset();
  textDecoder.end(raw.replace(/</g, '&lt;'));
  return decodedText;
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

/** Whitespace-collapsed, trimmed, decoded text. */
export function cleanText(raw: string): string {
  return decodeText(raw).replace(/\s+/g, ' ').trim();
}
