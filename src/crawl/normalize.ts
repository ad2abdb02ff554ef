/**
 * URL identity for crawls and maps: when two spellings name the same page, they must get the same
 * key, or a crawl fetches the page twice and a map lists it twice.
 *
 * Decisions:
 * - Scheme and host are case-insensitive and default ports are noise (the WHATWG parser already
 *   folds both); a trailing dot on the host is dropped too (`example.com.` is the same name).
 * - The fragment never reaches the server, so it never distinguishes pages.
 * - `/docs/` and `/docs` are one page: servers almost always redirect one to the other, and
 *   fetching both doubles a crawl. The root path stays `/`.
 * - A final `index.html` / `index.htm` / `index.php` segment is folded into its directory
 *   (`/docs/index.html` ≡ `/docs/`), the same "similar URL" folding Firecrawl applies by
 *   default; a site serving different content at both is rare enough to accept.
 * - Query parameters are sorted (order carries no meaning to almost every server), and dropped
 *   entirely when the caller asks to ignore them.
 * - Percent-escapes are upper-cased and escapes of unreserved characters decoded (RFC 3986
 *   §6.2.2), so `%7e`, `%7E` and `~` agree.
 *
 * Keys are for comparison only; the URL actually fetched is whatever the caller kept.
 */

export interface UrlKeyOptions {
  ignoreQueryParameters: boolean;
}

const INDEX_FILE = /\/index\.(?:html?|php)$/i;
const UNRESERVED = /[A-Za-z0-9\-._~]/;

function normalizeEscapes(s: string): string {
  return s.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/**
 * Canonical form of `url` for de-duplication. Input that does not parse as an absolute URL is
 * returned trimmed, so it still compares equal to itself without throwing mid-crawl.
 */
export function urlKey(url: string, opts: UrlKeyOptions): string {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return url.trim();
  }
  u.hash = '';
  if (u.hostname.endsWith('.') && u.hostname.length > 1) u.hostname = u.hostname.replace(/\.+$/, '');

  let path = normalizeEscapes(u.pathname);
  path = path.replace(INDEX_FILE, '/');
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '') || '/';

  let query = '';
  if (!opts.ignoreQueryParameters && u.search.length > 1) {
    // Sorting raw `k=v` pieces (not URLSearchParams) keeps the exact bytes of each pair, so
    // `a=1+2` and `a=1%202` are not silently conflated; the sort is stable for repeated keys.
    const pairs = u.search
      .slice(1)
      .split('&')
      .filter((p) => p.length > 0)
      .map(normalizeEscapes);
    pairs.sort((a, b) => {
      const ka = a.split('=', 1)[0]!;
      const kb = b.split('=', 1)[0]!;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    if (pairs.length > 0) query = `?${pairs.join('&')}`;
  }
  const port = u.port ? `:${u.port}` : '';
  return `${u.protocol}//${u.hostname}${port}${path}${query}`;
}

const MAX_URL_LENGTH = 8192;

/**
 * Resolves a link as found in a page or sitemap against `base`. Returns an absolute http(s) URL
 * without its fragment, or undefined for anything that is not a fetchable web page address
 * (mailto:, javascript:, data:, tel:, unparseable, embedded credentials, absurdly long).
 */
export function resolveLink(href: string, base: string): string | undefined {
  const trimmed = href.trim();
  if (!trimmed || trimmed.length > MAX_URL_LENGTH) return undefined;
  let u: URL;
  try {
    u = new URL(trimmed, base);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  if (!u.hostname) return undefined;
  // The scraper refuses credentials in URLs; a link carrying them would only fail later.
  if (u.username || u.password) return undefined;
  u.hash = '';
  return u.toString();
}
