/**
 * robots.txt: fetched once per crawl through the one HTTP engine (so the SSRF guard and its
 * limits apply), parsed with `robots-parser` (Google's matching rules: longest match wins, allow
 * wins ties, `*` and `$` wildcards).
 *
 * Decisions:
 * - Anything but a 2xx answer means "no rules": 404/410 and 401/403 per RFC 9309 §2.3.1.3, and
 *   also 5xx, timeouts and network errors. RFC 9309 asks crawlers to treat a 5xx as "disallow
 *   everything"; we deliberately do not: a crawl here is an explicit request for one site, a
 *   5xx robots.txt is far more often a misconfigured catch-all route than a wish to be left
 *   alone, and Firecrawl behaves the same way. The raw text is kept by callers so a crawl
 *   applies one stable set of rules for its whole life.
 * - Only the first 512 KiB are parsed (RFC 9309 §2.5 lets crawlers stop at 500 KiB).
 * - Rules apply to the robots.txt's own origin (scheme, host, port). URLs on other origins are
 *   not this file's business and are allowed; a crawl that follows them does not fetch their
 *   robots.txt.
 * - The product token matched against `User-agent:` groups is `GleanerBot` unless the caller
 *   passes another (crawl `robotsUserAgent`); groups fall back to `*`.
 */
import { createRequire } from 'node:module';
import type { FetchRequest, FetchResult, UrlGuard } from '../scrape/types.js';
import { resolveLink } from './normalize.js';

/** The slice of robots-parser's API used here. */
interface ParsedRobots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}

// robots-parser is CommonJS and its bundled typings declare an ES default export, which
// NodeNext resolves to the wrong shape; requiring it gives the real function with our types.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, contents: string) => ParsedRobots;

export const DEFAULT_ROBOTS_USER_AGENT = 'GleanerBot';
const MAX_ROBOTS_BYTES = 512 * 1024;
const ROBOTS_TIMEOUT_MS = 10_000;
const MAX_SITEMAPS = 50;

/** The part of an engine robots and sitemap discovery need; the real one is the HttpEngine. */
export interface Fetcher {
  fetch(req: FetchRequest): Promise<FetchResult>;
}

export interface Robots {
  /** True unless a rule for our user agent disallows the URL. */
  isAllowed(url: string): boolean;
  /** Crawl-delay for our user agent, in milliseconds; 0 when none is given. */
  crawlDelayMs(): number;
  /** Absolute http(s) sitemap URLs from `Sitemap:` lines, de-duplicated, at most 50. */
  sitemaps(): string[];
}

/** Request shape shared by robots.txt and sitemap fetches: plain HTTP, no browser features. */
export function plainRequest(url: string, guard: UrlGuard, timeoutMs: number, signal: AbortSignal | undefined, accept: string): FetchRequest {
  const req: FetchRequest = {
    url,
    headers: { accept },
    timeoutMs,
    // Same default as a scrape: discovery reads URLs, it does not vouch for content.
    skipTlsVerification: true,
    mobile: false,
    waitForMs: 0,
    guard,
  };
  if (signal) req.signal = signal;
  return req;
}

/**
 * Fetches `<origin>/robots.txt`. Resolves to its text, or '' when there is none to honour (see
 * the decisions above). Rejects only when the caller's `signal` aborts, so a cancelled crawl
 * does not record an empty robots.txt as if it were the site's.
 */
export async function fetchRobotsTxt(origin: string, fetcher: Fetcher, guard: UrlGuard, signal?: AbortSignal, timeoutMs = ROBOTS_TIMEOUT_MS): Promise<string> {
  const url = `${new URL(origin).origin}/robots.txt`;
  try {
    const res = await fetcher.fetch(plainRequest(url, guard, timeoutMs, signal, 'text/plain,*/*;q=0.5'));
    if (res.status < 200 || res.status >= 300) return '';
    const text = res.text ?? res.body.toString('utf8');
    return text.length > MAX_ROBOTS_BYTES ? text.slice(0, MAX_ROBOTS_BYTES) : text;
  } catch (e) {
    if (signal?.aborted) throw e;
    return '';
  }
}

/** Parses robots.txt text for `origin`. Empty text allows everything. */
export function parseRobots(origin: string, text: string, userAgent = DEFAULT_ROBOTS_USER_AGENT): Robots {
  const base = new URL(origin).origin;
  const parsed = robotsParser(`${base}/robots.txt`, text.length > MAX_ROBOTS_BYTES ? text.slice(0, MAX_ROBOTS_BYTES) : text);
  let sitemaps: string[] | undefined;
  return {
    // undefined means "not this file's origin" (or an unparseable URL): not ours to refuse.
    isAllowed: (url) => parsed.isAllowed(url, userAgent) !== false,
    crawlDelayMs: () => {
      const s = parsed.getCrawlDelay(userAgent);
      return typeof s === 'number' && Number.isFinite(s) && s > 0 ? Math.round(s * 1000) : 0;
    },
    sitemaps: () => {
      if (!sitemaps) {
        const seen = new Set<string>();
        for (const raw of parsed.getSitemaps()) {
          const u = resolveLink(raw, base);
          if (u) seen.add(u);
          if (seen.size >= MAX_SITEMAPS) break;
        }
        sitemaps = [...seen];
      }
      return [...sitemaps];
    },
  };
}

/** Fetches and parses `<origin>/robots.txt` in one step. */
export async function loadRobots(
  origin: string,
  fetcher: Fetcher,
  guard: UrlGuard,
  userAgent = DEFAULT_ROBOTS_USER_AGENT,
  signal?: AbortSignal,
): Promise<Robots> {
  return parseRobots(origin, await fetchRobotsTxt(origin, fetcher, guard, signal), userAgent);
}
