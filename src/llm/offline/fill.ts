/**
 * Fills a JSON Schema from what the page states (structured.ts) without a model: each property is
 * looked up by name among the page's items, labelled values and meta tags, then coerced to the
 * property's type. Nothing is guessed: a property no source names is left out and reported.
 */
import { readNumber } from './numbers.js';
import type { Item, PageData } from './structured.js';

export type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema; enum?: unknown[]; required?: string[]; [k: string]: unknown };

export interface Filled {
  value: Record<string, unknown>;
  /** Dotted paths of the properties no source gave. */
  missing: string[];
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Names the page's vocabularies use for what a schema usually calls otherwise. */
const SYNONYMS: Record<string, string[]> = {
  title: ['name', 'headline', 'ogtitle', 'twittertitle'],
  name: ['title', 'headline', 'ogtitle', 'ogsitename'],
  headline: ['name', 'title', 'ogtitle'],
  description: ['ogdescription', 'twitterdescription', 'abstract'],
  summary: ['description', 'ogdescription'],
  image: ['ogimage', 'twitterimage', 'thumbnailurl'],
  price: ['lowprice', 'productpriceamount', 'ogpriceamount'],
  currency: ['pricecurrency', 'productpricecurrency', 'ogpricecurrency'],
  rating: ['ratingvalue'],
  reviewcount: ['ratingcount', 'reviewcount'],
  author: ['creator', 'articleauthor'],
  date: ['datepublished', 'articlepublishedtime', 'publishedtime'],
  published: ['datepublished', 'articlepublishedtime'],
  publisheddate: ['datepublished', 'articlepublishedtime'],
  url: ['ogurl', 'canonical'],
  phone: ['telephone'],
  address: ['streetaddress'],
  instock: ['availability'],
  company: ['organization', 'publisher', 'brand'],
};

type Entry = { path: string[]; value: unknown };

/** Every leaf and object under an item, with its path: `offers.price`, `brand.name`, ... */
function entries(props: Record<string, unknown>, prefix: string[] = [], out: Entry[] = [], depth = 0): Entry[] {
  for (const [k, v] of Object.entries(props)) {
    if (k.startsWith('@') && k !== '@id') continue;
    const path = [...prefix, k];
    out.push({ path, value: v });
    if (depth < 3 && v && typeof v === 'object' && !Array.isArray(v)) entries(v as Record<string, unknown>, path, out, depth + 1);
    if (depth < 3 && Array.isArray(v) && v[0] && typeof v[0] === 'object') entries(v[0] as Record<string, unknown>, path, out, depth + 1);
  }
  return out;
}

function lookup(name: string, sources: Entry[][]): unknown {
  const want = norm(name);
  const alts = SYNONYMS[want] ?? [];
  for (const src of sources) {
    let best: Entry | undefined;
    let rank = Infinity;
    for (const e of src) {
      const last = norm(e.path.at(-1)!);
      const whole = norm(e.path.join(''));
      const r = whole === want ? 0 : last === want ? e.path.length : alts.includes(whole) ? 10 : alts.includes(last) ? 10 + e.path.length : Infinity;
      if (r < rank) {
        rank = r;
        best = e;
      }
    }
    if (best && !isEmpty(best.value)) return best.value;
  }
  return undefined;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

const typeOf = (s: JsonSchema): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type) ?? (s.properties ? 'object' : s.items ? 'array' : undefined);

function toBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return undefined;
  const s = v.replace(/^.*[/#]/, '').toLowerCase().trim();
  if (['true', 'yes', 'y', '1', 'instock', 'in stock', 'available', 'onlineonly', 'limitedavailability'].includes(s)) return true;
  if (['false', 'no', 'n', '0', 'outofstock', 'out of stock', 'soldout', 'discontinued', 'unavailable'].includes(s)) return false;
  return undefined;
}

function toText(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return toText(v[0]);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return toText(o.name ?? o.url ?? o['@id'] ?? o.value ?? o.text);
  }
  return undefined;
}

function coerce(v: unknown, s: JsonSchema, path: string, missing: string[]): unknown {
  const t = typeOf(s);
  if (t === 'array') {
    // A labelled value read as a list is written as one: "red, green, blue". An address is one
    // value, commas and all (image services put them in their paths).
    const list = Array.isArray(v) ? v : typeof v === 'string' && !/^(https?:)?\/\//.test(v) ? v.split(/\s*[,;|·•\n]\s*/).filter(Boolean) : [v];
    const out = list.map((x, i) => coerce(x, s.items ?? {}, `${path}.${i}`, [])).filter((x) => x !== undefined);
    return out.length ? out : undefined;
  }
  if (Array.isArray(v) && t !== undefined) return coerce(v[0], s, path, missing);
  let out: unknown;
  switch (t) {
    case 'object':
      if (!v || typeof v !== 'object') return undefined;
      out = fillObject(s, [entries(v as Record<string, unknown>)], path, missing);
      break;
    case 'number':
      out = readNumber(v);
      break;
    case 'integer': {
      const n = readNumber(v);
      out = n !== undefined && Number.isInteger(n) ? n : undefined;
      break;
    }
    case 'boolean':
      out = toBoolean(v);
      break;
    case 'string':
      out = toText(v);
      break;
    default:
      out = v;
  }
  if (s.enum && out !== undefined) {
    const hit = s.enum.find((e) => e === out || (typeof e === 'string' && typeof out === 'string' && norm(e) === norm(out)));
    return hit;
  }
  return out === '' ? undefined : out;
}

function fillObject(s: JsonSchema, sources: Entry[][], path: string, missing: string[]): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(s.properties ?? {})) {
    const at = path ? `${path}.${name}` : name;
    const raw = lookup(name, sources);
    const v = raw === undefined ? undefined : coerce(raw, sub, at, missing);
    if (v === undefined || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0)) missing.push(at);
    else value[name] = v;
  }
  return value;
}

/** How many of the schema's top-level names an item carries: the item the page is about wins. */
function matchCount(item: Item, names: string[]): number {
  const keys = new Set(entries(item.props).map((e) => norm(e.path.at(-1)!)));
  return names.filter((n) => keys.has(norm(n)) || (SYNONYMS[norm(n)] ?? []).some((a) => keys.has(a))).length;
}

export function fillSchema(schema: JsonSchema, page: PageData): Filled {
  const missing: string[] = [];
  const names = Object.keys(schema.properties ?? {});
  const items = [...page.items].sort((a, b) => matchCount(b, names) - matchCount(a, names));
  const sources: Entry[][] = [
    ...items.slice(0, 3).map((i) => entries(i.props)),
    Object.entries(page.labelled).map(([k, v]) => ({ path: [k], value: v })),
    Object.entries(page.meta).map(([k, v]) => ({ path: [k.replace(/^(og|twitter|article|product):/, '$1 ')], value: v })),
  ];
  if (typeOf(schema) === 'array' && schema.items) {
    // A list schema: one entry per item of the best-matching type.
    const itemNames = Object.keys(schema.items.properties ?? {});
    const best = items.filter((i) => matchCount(i, itemNames) > 0);
    const list = best.map((i, n) => fillObject(schema.items!, [entries(i.props)], String(n), []));
    return { value: list as unknown as Record<string, unknown>, missing: list.length ? [] : ['(items)'] };
  }
  return { value: fillObject(schema, sources, '', missing), missing };
}
