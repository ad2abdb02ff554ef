/**
 * Map: a site's URL list, fast, without scraping the site. Sources, in this order:
 *
 *   1. the start URL itself (unless `sitemap: 'only'`),
 *   2. the site's sitemaps, found through robots.txt and `/sitemap.xml` (unless `sitemap: 'skip'`),
 *   3. the links of the start page, read through the scrape pipeline (unless `sitemap: 'only'`),
 *   4. a shallow breadth-first walk when 1-3 found little (fewer than 100 URLs, or fewer than
 *      `limit`): pages at most two hops from the start page, at most 20 of them, four at a
 *      time, in discovery order, never past the time budget. Walked pages contribute their own
 *      title and description to their entry; pages only linked to have none.
 *
 * Decisions:
 * - Scope follows the crawl rules (`CrawlScope`): same host (www-insensitive), subdomains with
 *   `includeSubdomains` (default true), no other hosts, and with `filterByPath` (default true,
 *   as in Firecrawl) only the start path and below.
 * - robots.txt does not filter the list (Firecrawl's map does not either: listing a URL is not
 *   visiting it), but the walk in step 4 never fetches a page robots.txt disallows.
 * - `ignoreQueryParameters` (default true) strips queries and merges what then collides.
 *   Duplicates are merged by `urlKey` (case of host, trailing slash, fragment, index files...).
 * - `search` ranks and keeps: URLs whose URL, title or description contain search terms come
 *   first, by a term score (URL hits weigh double, the whole phrase adds a bonus, and more when
 *   it is the URL's last path segment: `sql-select` puts `/sql-select.html` before
 *   `/sql-selectinto.html`); the rest follow in discovery order. `limit` cuts after ranking.
 * - `timeout` bounds the required work (robots.txt, sitemaps, the start page): if that is not
 *   done in time the answer is 408 MAP_TIMEOUT. The optional walk only ever uses time left over
 *   and never causes a timeout. Without `timeout`, an internal budget applies and running out
 *   of it simply ends discovery.
 * - Pages read for links are fetched fresh and leave no trace: nothing is cached or stored.
 * - Every fetch goes through the HTTP engine or the scrape pipeline, so the SSRF guard applies;
 *   the start URL is also checked up front so a refused host fails fast with 403.
 */
import { ApiError, isApiError } from '../errors.js';
import type { Document } from '../core/document.js';
import { scrapeOptionsSchema, type ScrapeOptions } from '../scrape/options.js';
import type { ScrapeContext } from '../scrape/pipeline.js';
import type { LocationRequest, UrlGuard } from '../scrape/types.js';
import { normaliseTargetUrl } from '../scrape/url.js';
import { resolveLink, urlKey } from './normalize.js';
import { parseRobots, fetchRobotsTxt, type Fetcher, type Robots } from './robots.js';
import { CrawlScope } from './scope.js';
import { discoverSitemapUrls } from './sitemap.js';

export const MAX_MAP_LIMIT = 100_000;
export const DEFAULT_MAP_LIMIT = 5000;

export interface MapRequest {
  url: string;
  search?: string;
  sitemap: 'include' | 'skip' | 'only';
  includeSubdomains: boolean;
  ignoreQueryParameters: boolean;
  filterByPath: boolean;
  limit: number;
  /** Milliseconds for the required work; past it the map fails with MAP_TIMEOUT. */
  timeout?: number;
  location?: LocationRequest;
}

export interface MapLink {
  url: string;
  title?: string;
  description?: string;
}

export interface MapDeps {
  scraper: { scrape(url: string, options: ScrapeOptions, ctx: ScrapeContext): Promise<Document> };
  http: Fetcher;
  guard: UrlGuard;
  /** URLs under the prefixes that the team's search index holds (pages fetched before). */
  indexedUrls?: (teamId: string, urlPrefixes: string[], limit: number) => Promise<string[]>;
}

/** Budget when the caller gives no timeout; running out of it is not an error. */
const DEFAULT_BUDGET_MS = 45_000;
const SITEMAP_BUDGET_MS = 20_000;
const PAGE_TIMEOUT_MS = 20_000;
const WALK_BELOW = 100;
const WALK_MAX_PAGES = 20;
const WALK_MAX_DEPTH = 2;
const WALK_CONCURRENCY = 4;
const MAX_SITEMAP_FILES = 50;
/** Extensions that are surely not pages: walking them would download files for nothing. */
const NOT_A_PAGE = /\.(?:pdf|zip|gz|tgz|rar|7z|jpe?g|png|gif|webp|svg|ico|mp[34]|mov|avi|webm|wav|ogg|css|js|json|xml|txt|csv|docx?|xlsx?|pptx?|exe|dmg|iso)$/i;

// Links only, whole page (navigation included), fresh, no cache or record left behind.
const LINK_OPTIONS: ScrapeOptions = scrapeOptionsSchema.parse({
  formats: [{ type: 'links' }],
  onlyMainContent: false,
  maxAge: 0,
  storeInCache: false,
  zeroDataRetention: true,
});

interface Entry extends MapLink {
  order: number;
}

const stripQuery = (url: string) => {
  const u = new URL(url);
  u.search = '';
  return u.toString();
};

class Collector {
  readonly entries = new Map<string, Entry>();

  constructor(
    private readonly scope: CrawlScope,
    private readonly ignoreQuery: boolean,
  ) {}

  /** Adds an in-scope URL (or merges page details into it); returns its key when admitted. */
  add(raw: string, base: string, details?: { title?: unknown; description?: unknown }): string | undefined {
    const resolved = resolveLink(raw, base);
    if (!resolved || !this.scope.check(resolved, 0).ok) return undefined;
    const url = this.ignoreQuery ? stripQuery(resolved) : resolved;
    const key = urlKey(url, { ignoreQueryParameters: this.ignoreQuery });
    let e = this.entries.get(key);
    if (!e) {
      e = { url, order: this.entries.size };
      this.entries.set(key, e);
    }
    if (typeof details?.title === 'string' && details.title.trim() && e.title === undefined) e.title = details.title.trim();
    if (typeof details?.description === 'string' && details.description.trim() && e.description === undefined) e.description = details.description.trim();
    return key;
  }
}

export class MapService {
  constructor(private readonly deps: MapDeps) {}

  async map(req: MapRequest, ctx: ScrapeContext): Promise<{ links: MapLink[] }> {
    const startUrl = normaliseTargetUrl(req.url);
    // The team's threat guard, when the caller holds one, covers robots.txt and sitemaps too.
    const guard = ctx.guard ?? this.deps.guard;
    await guard.checkUrl(startUrl);
    const started = Date.now();
    const explicit = req.timeout !== undefined;
    const deadline = started + (req.timeout ?? DEFAULT_BUDGET_MS);
    const timer = new AbortController();
    const handle = setTimeout(() => timer.abort(new ApiError('MAP_TIMEOUT')), Math.max(0, deadline - started));
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timer.signal]) : timer.signal;
    const remaining = () => Math.max(0, deadline - Date.now());
    // The clock, not only the timer: a page fetch bounded by the same deadline can fail and
    // settle just before the timer's callback runs.
    const timedOut = () => explicit && (timer.signal.aborted || Date.now() >= deadline);
    // Map returns links, never its pages, so their Documents are not recorded.
    const pageCtx: ScrapeContext = { ...ctx, signal, record: false };
    const origin = new URL(startUrl).origin;
    const collect = new Collector(new CrawlScope(startUrl, { allowSubdomains: req.includeSubdomains, crawlEntireDomain: !req.filterByPath }), req.ignoreQueryParameters);
    const pageOptions = req.location ? { ...LINK_OPTIONS, location: req.location } : LINK_OPTIONS;

    try {
      if (req.sitemap !== 'only') collect.add(startUrl, startUrl);

      // Required work, in parallel: robots.txt then sitemaps, and the start page.
      const robotsAndSitemaps = (async () => {
        const robots = parseRobots(origin, await fetchRobotsTxt(origin, this.deps.http, guard, signal, Math.min(10_000, remaining())));
        const sitemapUrls =
          req.sitemap === 'skip'
            ? []
            : await discoverSitemapUrls(origin, robots.sitemaps(), this.deps.http, guard, {
                maxUrls: Math.min(MAX_MAP_LIMIT, req.limit * 2 + 100),
                maxSitemaps: MAX_SITEMAP_FILES,
                timeoutMs: Math.min(SITEMAP_BUDGET_MS, remaining()),
                signal,
              });
        return { robots, sitemapUrls };
      })();
      const startPage =
        req.sitemap === 'only'
          ? Promise.resolve(undefined)
          : this.deps.scraper.scrape(startUrl, { ...pageOptions, timeout: Math.min(PAGE_TIMEOUT_MS, remaining()) }, pageCtx).then(
              (doc) => ({ doc }),
              (error: unknown) => ({ error }),
            );
      const [{ robots, sitemapUrls }, page] = await Promise.all([robotsAndSitemaps, startPage]);
      if (timedOut()) throw new ApiError('MAP_TIMEOUT');

      for (const s of sitemapUrls) collect.add(s.url, origin);
      if (page && 'doc' in page) {
        collect.add(startUrl, startUrl, page.doc.metadata);
        for (const l of page.doc.links ?? []) collect.add(l, page.doc.metadata.url ?? startUrl);
      } else if (page && 'error' in page && collect.entries.size <= 1 && sitemapUrls.length === 0) {
        // The start page was all there was to go on, and it failed: say why.
        throw page.error;
      }

      if (req.sitemap !== 'only' && collect.entries.size < Math.min(WALK_BELOW, req.limit) && !signal.aborted) {
        await this.walk(startUrl, collect, robots, pageOptions, pageCtx, remaining, req.limit);
      }
      // Pages of the site the team fetched before (scrapes, crawls) are part of what is known of it.
      if (req.sitemap !== 'only' && this.deps.indexedUrls) {
        for (const u of await this.deps.indexedUrls(ctx.teamId, [`${origin}/`], Math.min(MAX_MAP_LIMIT, req.limit * 2))) collect.add(u, origin);
      }
    } catch (e) {
      if (timedOut()) throw new ApiError('MAP_TIMEOUT');
      if (ctx.signal?.aborted || !timer.signal.aborted || !isApiError(e)) throw e;
      // The internal budget ran out during required work: keep what was found.
    } finally {
      clearTimeout(handle);
    }

    return { links: rank([...collect.entries.values()], req.search).slice(0, req.limit).map(toLink) };
  }

  /**
   * Breadth-first over in-scope pages already known (except the start page, already read), up to
   * two hops out. Failures and timeouts of single pages are ignored; the walk ends when the
   * page cap, the limit or the time runs out.
   */
  private async walk(
    startUrl: string,
    collect: Collector,
    robots: Robots,
    options: ScrapeOptions,
    ctx: ScrapeContext,
    remaining: () => number,
    limit: number,
  ): Promise<void> {
    const startKey = urlKey(startUrl, { ignoreQueryParameters: true });
    const visited = new Set<string>([startKey]);
    let frontier = [...collect.entries.values()].map((e) => e.url);
    let fetched = 0;
    for (let depth = 1; depth <= WALK_MAX_DEPTH && frontier.length > 0; depth++) {
      const next: string[] = [];
      const todo = frontier.filter((u) => {
        const k = urlKey(u, { ignoreQueryParameters: true });
        if (visited.has(k) || NOT_A_PAGE.test(new URL(u).pathname) || !robots.isAllowed(u)) return false;
        visited.add(k);
        return true;
      });
      const queue = todo.slice(0, Math.max(0, WALK_MAX_PAGES - fetched));
      fetched += queue.length;
      const worker = async () => {
        for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
          if (ctx.signal?.aborted || remaining() < 200 || collect.entries.size >= limit) return;
          try {
            // fastMode: no browser fallback; a walk page is worth its links only if cheap.
            const doc = await this.deps.scraper.scrape(url, { ...options, fastMode: true, timeout: Math.min(PAGE_TIMEOUT_MS, remaining()) }, ctx);
            collect.add(url, url, doc.metadata);
            for (const l of doc.links ?? []) {
              const key = collect.add(l, doc.metadata.url ?? url);
              if (key !== undefined) next.push(collect.entries.get(key)!.url);
            }
          } catch {
            if (ctx.signal?.aborted) return;
          }
        }
      };
      await Promise.all(Array.from({ length: WALK_CONCURRENCY }, worker));
      if (ctx.signal?.aborted || fetched >= WALK_MAX_PAGES) return;
      frontier = next;
    }
  }
}

const toLink = (e: Entry): MapLink => {
  const l: MapLink = { url: e.url };
  if (e.title !== undefined) l.title = e.title;
  if (e.description !== undefined) l.description = e.description;
  return l;
};

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The words of a URL's last path segment without its extension: `/a/sql-select.html` -> `sql select`. */
function lastSegmentWords(url: string): string {
  const path = url.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1).replace(/\.[a-z0-9]{1,5}$/, '');
  return last.split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ');
}

/** Stable ranking by search relevance; entries without any hit keep their discovery order after. */
export function rank<T extends MapLink & { order?: number }>(entries: T[], search: string | undefined): T[] {
  const phrase = search?.trim().toLowerCase() ?? '';
  const terms = [...new Set(phrase.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0))];
  if (terms.length === 0) return entries;
  const scored = entries.map((e, i) => {
    const url = safeDecode(e.url).toLowerCase();
    const text = `${e.title ?? ''} ${e.description ?? ''}`.toLowerCase();
    let score = 0;
    for (const t of terms) {
      if (url.includes(t)) score += 2;
      if (text.includes(t)) score += 1;
    }
    if (terms.length > 1 && (url.includes(phrase) || text.includes(phrase))) score += terms.length;
    if (lastSegmentWords(url) === terms.join(' ')) score += terms.length * 2 + 1;
    return { e, i, score };
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.map((s) => s.e);
}
