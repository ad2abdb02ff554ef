/**
 * Sitemap discovery: the `Sitemap:` lines of robots.txt plus `<origin>/sitemap.xml`, followed
 * through `<sitemapindex>` files, yielding page URLs (with `lastmod` when given).
 *
 * Everything here is hostile input: a sitemap may be huge, gzip-bombed, cyclic, malformed, or
 * an HTML page answered with 200. So: a cap on page URLs and on sitemap files fetched, a cycle
 * guard on sitemap URLs (compared by `urlKey`), a nesting depth limit, a decompressed-size cap,
 * one overall deadline, and every per-file failure (404, SSRF refusal, bad gzip, no XML) skips
 * that file instead of failing discovery. Page URLs are returned as listed; deciding which are
 * in scope (host, path, robots) is the caller's job.
 *
 * Accepted formats: XML `<urlset>` / `<sitemapindex>` (namespace prefixes ignored, CDATA and
 * entities decoded), either one gzip-compressed (`.xml.gz` served as a file, detected by its
 * magic bytes rather than its name or content type), and plain-text sitemaps (one URL a line).
 * Parsing streams through htmlparser2 in 64 KiB slices and stops once the URL cap is reached.
 */
import zlib from 'node:zlib';
import { Parser } from 'htmlparser2';
import type { UrlGuard } from '../scrape/types.js';
import { resolveLink, urlKey } from './normalize.js';
import { plainRequest, type Fetcher } from './robots.js';

export interface SitemapEntry {
  url: string;
  lastmod?: string;
}

export interface SitemapOptions {
  /** Stop after this many page URLs. */
  maxUrls: number;
  /** Stop after fetching this many sitemap files (index files included). */
  maxSitemaps: number;
  /** Overall budget; on expiry discovery returns what it has. */
  timeoutMs: number;
  /** Caller cancellation; on abort discovery rejects. */
  signal?: AbortSignal;
  /** Nesting limit for sitemap indexes (default 5). */
  maxDepth?: number;
}

/** The protocol's own ceiling for one uncompressed sitemap file. */
const MAX_DECOMPRESSED_BYTES = 50 * 1024 * 1024;
const MAX_TEXT_NODE = 8192;
const SLICE = 64 * 1024;
const ACCEPT = 'application/xml,text/xml;q=0.9,application/x-gzip;q=0.8,text/plain;q=0.7,*/*;q=0.5';

export interface ParsedSitemap {
  urls: SitemapEntry[];
  sitemaps: string[];
}

const localName = (name: string) => {
  const i = name.lastIndexOf(':');
  return (i >= 0 ? name.slice(i + 1) : name).toLowerCase();
};

const isGzip = (b: Buffer) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/** Gunzips `body` when it is gzip data; undefined when it is a corrupt or oversized archive. */
export function maybeGunzip(body: Buffer, maxBytes = MAX_DECOMPRESSED_BYTES): Buffer | undefined {
  if (!isGzip(body)) return body;
  try {
    return zlib.gunzipSync(body, { maxOutputLength: maxBytes });
  } catch {
    return undefined;
  }
}

/**
 * Parses one sitemap document found at `sitemapUrl`. Relative `<loc>`s resolve against it;
 * non-http(s) ones are dropped. At most `maxUrls` page URLs are kept.
 */
export function parseSitemap(text: string, sitemapUrl: string, maxUrls: number): ParsedSitemap {
  const out: ParsedSitemap = { urls: [], sitemaps: [] };
  const body = text.replace(/^\uFEFF/, '');
  if (!/^\s*</.test(body)) {
    for (const line of body.split(/\r?\n/)) {
      if (out.urls.length >= maxUrls) break;
      const t = line.trim();
      if (!/^https?:\/\//i.test(t)) continue;
      const url = resolveLink(t, sitemapUrl);
      if (url) out.urls.push({ url });
    }
    return out;
  }

  const stack: string[] = [];
  let capture: 'loc' | 'lastmod' | undefined;
  let buf = '';
  let loc: string | undefined;
  let lastmod: string | undefined;
  let full = false;
  const parser = new Parser(
    {
      onopentag(name) {
        const n = localName(name);
        const parent = stack.at(-1);
        stack.push(n);
        if (n === 'url' || n === 'sitemap') {
          loc = undefined;
          lastmod = undefined;
        } else if ((n === 'loc' || n === 'lastmod') && (parent === 'url' || parent === 'sitemap')) {
          capture = n;
          buf = '';
        }
      },
      ontext(data) {
        if (capture && buf.length < MAX_TEXT_NODE) buf += data;
      },
      onclosetag(name, isImplied) {
        const n = localName(name);
        // Tolerate mismatched closing tags: unwind to the matching open element, if any.
        const at = stack.lastIndexOf(n);
        if (at >= 0) stack.length = at;
        // An element closed only because the input ended (a truncated file) is not trusted:
        // its text may be cut mid-URL.
        if (isImplied) {
          if (capture === n) capture = undefined;
          if (n === 'url' || n === 'sitemap') loc = undefined;
          return;
        }
        if (capture === n) {
          if (n === 'loc') loc = buf.trim();
          else lastmod = buf.trim();
          capture = undefined;
        }
        if ((n === 'url' || n === 'sitemap') && loc) {
          const url = resolveLink(loc, sitemapUrl);
          if (url && n === 'url' && out.urls.length < maxUrls) {
            const entry: SitemapEntry = { url };
            if (lastmod && lastmod.length <= 64) entry.lastmod = lastmod;
            out.urls.push(entry);
            if (out.urls.length >= maxUrls) full = true;
          } else if (url && n === 'sitemap') {
            out.sitemaps.push(url);
          }
          loc = undefined;
          lastmod = undefined;
        }
      },
    },
    { xmlMode: true },
  );
  for (let i = 0; i < body.length && !full; i += SLICE) parser.write(body.slice(i, i + SLICE));
  if (!full) parser.end();
  return out;
}

/**
 * Collects page URLs from the site's sitemaps. `robotsSitemaps` come first (in their order),
 * then `<origin>/sitemap.xml` unless already listed. Duplicate page URLs are kept once.
 */
export async function discoverSitemapUrls(
  origin: string,
  robotsSitemaps: readonly string[],
  fetcher: Fetcher,
  guard: UrlGuard,
  opts: SitemapOptions,
): Promise<SitemapEntry[]> {
  const base = new URL(origin).origin;
  const deadline = Date.now() + opts.timeoutMs;
  const maxDepth = opts.maxDepth ?? 5;
  const queue: Array<{ url: string; depth: number }> = [];
  const queued = new Set<string>();
  const enqueue = (raw: string, depth: number) => {
    const url = resolveLink(raw, base);
    if (!url) return;
    const key = urlKey(url, { ignoreQueryParameters: false });
    if (queued.has(key)) return;
    queued.add(key);
    queue.push({ url, depth });
  };
  for (const s of robotsSitemaps) enqueue(s, 0);
  enqueue(`${base}/sitemap.xml`, 0);

  const found: SitemapEntry[] = [];
  const seenPages = new Set<string>();
  let fetched = 0;
  while (queue.length > 0 && fetched < opts.maxSitemaps && found.length < opts.maxUrls) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    const next = queue.shift()!;
    fetched++;
    let text: string;
    try {
      const res = await fetcher.fetch(plainRequest(next.url, guard, remaining, opts.signal, ACCEPT));
      if (res.status < 200 || res.status >= 300) continue;
      const body = maybeGunzip(res.body);
      if (!body) continue;
      text = body === res.body && res.text !== undefined ? res.text : body.toString('utf8');
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      continue;
    }
    const parsed = parseSitemap(text, next.url, opts.maxUrls - found.length);
    for (const entry of parsed.urls) {
      if (seenPages.has(entry.url)) continue;
      seenPages.add(entry.url);
      found.push(entry);
    }
    if (next.depth < maxDepth) for (const child of parsed.sitemaps) enqueue(child, next.depth + 1);
  }
  return found;
}
