/**
 * The structured data a page states about itself: JSON-LD, microdata and RDFa items (schema.org
 * mostly), OpenGraph and other meta tags, and labelled values from tables and definition lists.
 * Read once per page; the offline json, product and menu formats all draw on it.
 */
import { load, type CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';

export interface Item {
  /** schema.org type names without the vocabulary prefix, e.g. ["Product"]. */
  types: string[];
  props: Record<string, unknown>;
}

export interface PageData {
  items: Item[];
  /** `og:title`, `description`, `twitter:card`, ... (first value of each). */
  meta: Record<string, string>;
  /** Label -> value pairs from two-column tables, header/value rows and definition lists. */
  labelled: Record<string, string>;
}

const shortType = (t: unknown): string[] =>
  (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string').map((x) => x.replace(/^.*[/#:]/, ''));

function fromJsonLd(value: unknown, out: Item[]): void {
  if (Array.isArray(value)) {
    for (const v of value) fromJsonLd(v, out);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  if (Array.isArray(o['@graph'])) fromJsonLd(o['@graph'], out);
  if (o['@type'] !== undefined) out.push({ types: shortType(o['@type']), props: o });
}

const text = ($: CheerioAPI, el: AnyNode) => $(el).text().replace(/\s+/g, ' ').trim();

function propValue($: CheerioAPI, el: Element, nested: (el: Element) => Item): unknown {
  const $el = $(el);
  if ($el.is('[itemscope]')) {
    const inner = nested(el);
    return { '@type': inner.types[0], ...inner.props };
  }
  const attr = (n: string) => $el.attr(n);
  if ($el.is('meta')) return attr('content') ?? '';
  if ($el.is('a,link,area')) return attr('href') ?? text($, el);
  if ($el.is('img,audio,video,source,iframe,embed')) return attr('src') ?? '';
  if ($el.is('time')) return attr('datetime') ?? text($, el);
  if ($el.is('data,meter')) return attr('value') ?? text($, el);
  return attr('content') ?? text($, el);
}

function addProp(props: Record<string, unknown>, name: string, value: unknown): void {
  const prior = props[name];
  if (prior === undefined) props[name] = value;
  else if (Array.isArray(prior)) prior.push(value);
  else props[name] = [prior, value];
}

/** Microdata: each itemscope with the itemprops whose nearest itemscope it is. */
function microdata($: CheerioAPI): Item[] {
  const memo = new Map<Element, Item>();
  const itemOf = (scope: Element): Item => {
    const hit = memo.get(scope);
    if (hit) return hit;
    const item: Item = { types: shortType(($(scope).attr('itemtype') ?? '').split(/\s+/)), props: {} };
    memo.set(scope, item);
    $(scope)
      .find('[itemprop]')
      .each((_, el) => {
        const owner = $(el).parent().closest('[itemscope]')[0];
        if (owner !== scope) return;
        for (const name of ($(el).attr('itemprop') ?? '').split(/\s+/).filter(Boolean)) addProp(item.props, name, propValue($, el, itemOf));
      });
    return item;
  };
  return $('[itemscope]')
    .filter((_, el) => $(el).attr('itemprop') === undefined)
    .toArray()
    .map(itemOf);
}

/** RDFa Lite: each `typeof` with the `property` values whose nearest `typeof` it is. */
function rdfa($: CheerioAPI): Item[] {
  const itemOf = (scope: Element): Item => {
    const item: Item = { types: shortType(($(scope).attr('typeof') ?? '').split(/\s+/)), props: {} };
    $(scope)
      .find('[property]')
      .each((_, el) => {
        if ($(el).parent().closest('[typeof]')[0] !== scope) return;
        const inner = $(el).is('[typeof]') ? itemOf(el) : undefined;
        const v = inner ? { '@type': inner.types[0], ...inner.props } : ($(el).attr('content') ?? $(el).attr('href') ?? $(el).attr('src') ?? text($, el));
        for (const name of ($(el).attr('property') ?? '').split(/\s+/).filter(Boolean)) addProp(item.props, name.replace(/^.*[/#:]/, ''), v);
      });
    return item;
  };
  return $('[typeof]')
    .filter((_, el) => $(el).attr('property') === undefined && !$(el).is('meta'))
    .toArray()
    .map(itemOf);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e.toLowerCase()] ?? m;
  });
const cellText = (s: string) => decode(s.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
const attr = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i'))?.slice(1).find((v) => v !== undefined);

/**
 * Tables and definition lists by a scan of the markup rather than a DOM: this runs on every page
 * that asks for json, and most pages are long and have no structured data at all.
 */
function labelledFromMarkup(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (label: string, value: string) => {
    const k = label.replace(/[:\s]+$/, '').trim();
    if (k && value && k.length <= 80 && out[k] === undefined) out[k] = value;
  };
  for (const row of html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)) {
    const cells = [...row[1]!.matchAll(/<t[hd]\b[^>]*>([\s\S]*?)<\/t[hd]>/gi)];
    if (cells.length === 2) put(cellText(cells[0]![1]!), cellText(cells[1]![1]!));
  }
  for (const dl of html.matchAll(/<dl\b[^>]*>([\s\S]*?)<\/dl>/gi)) {
    let label: string | undefined;
    for (const m of dl[1]!.matchAll(/<(dt|dd)\b[^>]*>([\s\S]*?)(?=<\/?(?:dt|dd|dl)\b|$)/gi)) {
      if (m[1]!.toLowerCase() === 'dt') label = cellText(m[2]!);
      else if (label !== undefined) {
        put(label, cellText(m[2]!));
        label = undefined;
      }
    }
  }
  return out;
}

/**
 * A JSON-LD block as browsers' readers take it: strict JSON first, then with what pages commonly
 * get wrong mended (a comment or CDATA wrapper, a raw line break or tab inside a string, a comma
 * before a closing bracket). A block still broken says nothing; the others still count.
 */
function parseJsonLd(source: string): unknown {
  try {
    return JSON.parse(source);
  } catch {
    const mended = source
      .replace(/^\s*(?:<!--|\/\/\s*<!\[CDATA\[|\/\*\s*<!\[CDATA\[\s*\*\/)/, '')
      .replace(/(?:-->|\/\/\s*\]\]>|\/\*\s*\]\]>\s*\*\/)\s*$/, '')
      // Outside strings a control character is only blank space; inside one it breaks the block.
      // eslint-disable-next-line no-control-regex -- control characters are what is mended here
      .replace(/[\u0000-\u001f]+/g, ' ')
      .replace(/,\s*([}\]])/g, '$1');
    try {
      return JSON.parse(mended);
    } catch {
      return undefined;
    }
  }
}

export function readPageData(html: string): PageData {
  const items: Item[] = [];
  for (const m of html.matchAll(/<script\b[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script>/gi)) {
    const block = parseJsonLd(m[1]!);
    if (block !== undefined) fromJsonLd(block, items);
  }
  // Microdata and RDFa need the element tree; most pages have neither, and skip the parse.
  if (html.includes('itemscope') || html.includes('typeof=')) {
    const $ = load(html, { xml: { xmlMode: false, decodeEntities: true } });
    if (html.includes('itemscope')) items.push(...microdata($));
    if (html.includes('typeof=')) items.push(...rdfa($));
  }
  const meta: Record<string, string> = {};
  for (const m of html.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = m[0];
    const key = attr(tag, 'property') ?? attr(tag, 'name') ?? attr(tag, 'itemprop');
    const content = attr(tag, 'content');
    if (key && content !== undefined && meta[key] === undefined) meta[key] = decode(content);
  }
  const title = html.match(/<title\b[^>]*>([\s\S]*?)<\/title>/i)?.[1];
  if (title && meta['title'] === undefined) meta['title'] = cellText(title);
  return { items, meta, labelled: /<(dl|th|td)\b/i.test(html) ? labelledFromMarkup(html) : {} };
}
