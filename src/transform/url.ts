/** URL resolution against the page URL and its `<base href>`. */
import { decodeAttr } from './html-util.js';

// Only the first <base> counts (as in browsers); a regex over the raw text avoids waiting for the
// parse to reach it, because links are rewritten while the document streams past.
const BASE_TAG = /<base\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

export function findBaseHref(html: string): string | undefined {
  // <base> only counts in the head, so the search stops at <body> when there is one; indexOf is
  // far cheaper than a case-insensitive regex over a large page. Mixed-case spellings (<Base>)
  // fall back to the page URL.
  const body = html.indexOf('<body');
  const head = body < 0 ? html : html.slice(0, body);
  let at = head.indexOf('<base');
  if (at < 0) at = head.indexOf('<BASE');
  if (at < 0) return undefined;
  const m = BASE_TAG.exec(html.slice(at, at + 4096));
  if (!m) return undefined;
  const raw = m[1] ?? m[2] ?? m[3] ?? '';
  const value = decodeAttr(raw).trim();
  return value || undefined;
}

/** The URL relative references resolve against: `<base href>` (itself relative to the page) or the page URL. */
export function effectiveBase(pageUrl: string, baseHref: string | undefined): URL | undefined {
  let page: URL | undefined;
  try {
    page = new URL(pageUrl);
  } catch {
    page = undefined;
  }
  if (baseHref) {
    try {
      const base = new URL(baseHref, page);
      // A javascript:/data: base would make every relative link meaningless; keep the page URL.
      if (base.protocol === 'http:' || base.protocol === 'https:' || base.protocol === 'file:') return base;
    } catch {
      /* ignore an unusable <base> */
    }
  }
  return page;
}

/** Resolves an attribute value; raw values are entity-decoded first unless `decoded` is set. */
export type Resolver = (value: string, decoded?: boolean) => string | undefined;

/**
 * Builds a resolver against a fixed base. Results are cached per page because navigation links
 * repeat many times on real pages.
 */
export function makeResolver(base: URL | undefined): Resolver {
  const cache = new Map<string, string | undefined>();
  const simple = base !== undefined ? simpleJoiner(base) : undefined;
  return (input: string, decoded = false) => {
    const value = (decoded ? input : decodeAttr(input)).trim();
    if (!value) return undefined;
    let hit = cache.get(value);
    if (hit !== undefined || cache.has(value)) return hit;
    hit = simple?.(value);
    if (hit === undefined) {
      try {
        hit = new URL(value, base).href;
      } catch {
        hit = undefined;
      }
    }
    cache.set(value, hit);
    return hit;
  };
}

/**
 * A file name in the base's directory ("tutorial.html#intro") or a fragment of the page itself,
 * in characters no part of a URL escapes or treats specially: the most common links of all, which
 * need no parser (one costs about as much as the rest of the link's handling).
 */
const SIMPLE_FILE = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*(?:#[A-Za-z0-9._~:-]*)?$/;
const SIMPLE_FRAGMENT = /^#[A-Za-z0-9._~:-]*$/;

/** Joins simple references (see SIMPLE_FILE) to an http(s) base by hand; undefined for any other. */
function simpleJoiner(base: URL): ((value: string) => string | undefined) | undefined {
  // (A base with an empty query, "page?", is left to the parser, which drops the mark.)
  if ((base.protocol !== 'http:' && base.protocol !== 'https:') || (base.search === '' && base.href.includes('?'))) return undefined;
  // (An empty fragment, "page#", has no `hash`: cut at the mark.)
  const hash = base.href.indexOf('#');
  const page = hash < 0 ? base.href : base.href.slice(0, hash);
  const query = page.indexOf('?');
  const path = query < 0 ? page : page.slice(0, query);
  const dir = path.slice(0, path.lastIndexOf('/') + 1);
  return (value) => {
    if (value.charCodeAt(0) === 35) return SIMPLE_FRAGMENT.test(value) ? page + value : undefined;
    return SIMPLE_FILE.test(value) ? dir + value : undefined;
  };
}

export function isHttpOrMailto(url: string): boolean {
  return url.startsWith('https:') || url.startsWith('http:') || url.startsWith('mailto:');
}

export function isHttp(url: string): boolean {
  return url.startsWith('https:') || url.startsWith('http:');
}
