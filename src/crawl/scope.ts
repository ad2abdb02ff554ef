/**
 * Which discovered URLs a crawl (or map) may follow. Pure and synchronous: it runs for every link
 * of every page, so it parses the start URL and compiles the patterns once.
 *
 * Decisions:
 * - Host identity ignores a leading `www.` (`www.example.com` and `example.com` are one site,
 *   as Firecrawl treats them) but not the port: a different explicit port is a different server,
 *   so `example.com:8080` is external to `example.com`. Scheme changes (http -> https) stay
 *   on-site.
 * - A subdomain is any host ending in `.<start host>`; with `allowSubdomains` it is in scope.
 *   `allowExternalLinks` lets every host through, subdomains included.
 * - Without `crawlEntireDomain`, on-site URLs must be the start path or below it, by whole
 *   segments: from `/docs` (or `/docs/`) `/docs/a` is in and `/docsearch` is not. A final
 *   `index.html`-like file in the start URL counts as its directory. The path rule binds only
 *   the start host; external and subdomain URLs were already admitted by their own switches.
 * - include/exclude patterns are JS regular expressions, unanchored, case-sensitive, tested
 *   against the whole pathname (or the whole URL with `regexOnFullURL`), in linear time
 *   (patterns.ts). Exclude wins over include.
 * - Depth counts link hops from the start URL; start and sitemap URLs are depth 0. A URL is
 *   allowed while depth <= maxDiscoveryDepth.
 */
import { compilePatterns, type PathPattern } from './patterns.js';

export interface CrawlScopeOptions {
  includePaths?: string[];
  excludePaths?: string[];
  regexOnFullURL?: boolean;
  allowExternalLinks?: boolean;
  allowSubdomains?: boolean;
  crawlEntireDomain?: boolean;
  maxDiscoveryDepth?: number;
}

export type ScopeReason = 'external' | 'subdomain' | 'outside-path' | 'excluded' | 'not-included' | 'depth' | 'not-http';
export type ScopeVerdict = { ok: true } | { ok: false; reason: ScopeReason };

const stripWww = (host: string) => (host.startsWith('www.') ? host.slice(4) : host);

/** `/docs/index.html` -> `/docs`, `/docs/` -> `/docs`, `/` -> `` (everything is below root). */
function pathBase(pathname: string): string {
  return pathname.replace(/\/index\.(?:html?|php)$/i, '/').replace(/\/+$/, '');
}

export class CrawlScope {
  private readonly host: string;
  private readonly port: string;
  private readonly basePath: string;
  private readonly include: PathPattern[];
  private readonly exclude: PathPattern[];

  constructor(
    startUrl: string,
    private readonly opts: CrawlScopeOptions = {},
  ) {
    const start = new URL(startUrl);
    this.host = stripWww(start.hostname.toLowerCase());
    this.port = start.port;
    this.basePath = pathBase(start.pathname);
    this.include = compilePatterns(opts.includePaths, 'includePaths');
    this.exclude = compilePatterns(opts.excludePaths, 'excludePaths');
  }

  check(url: string, depth: number): ScopeVerdict {
    const verdict = this.checkUrl(url);
    if (!verdict.ok) return verdict;
    return this.withinDepth(depth) ? verdict : { ok: false, reason: 'depth' };
  }

  /** The verdict on everything but depth, which depends on the URL alone, so callers may keep it. */
  checkUrl(url: string): ScopeVerdict {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return { ok: false, reason: 'not-http' };
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, reason: 'not-http' };

    const host = stripWww(u.hostname.toLowerCase());
    const sameHost = host === this.host && u.port === this.port;
    if (!sameHost && !this.opts.allowExternalLinks) {
      const isSub = host.endsWith(`.${this.host}`) && u.port === this.port;
      if (!isSub) return { ok: false, reason: 'external' };
      if (!this.opts.allowSubdomains) return { ok: false, reason: 'subdomain' };
    }

    if (sameHost && !this.opts.crawlEntireDomain && this.basePath !== '') {
      const p = u.pathname;
      if (p !== this.basePath && !p.startsWith(`${this.basePath}/`)) return { ok: false, reason: 'outside-path' };
    }

    if (this.exclude.length > 0 || this.include.length > 0) {
      const target = this.opts.regexOnFullURL ? u.href : u.pathname;
      if (this.exclude.some((r) => r.test(target))) return { ok: false, reason: 'excluded' };
      if (this.include.length > 0 && !this.include.some((r) => r.test(target))) return { ok: false, reason: 'not-included' };
    }

    return { ok: true };
  }

  withinDepth(depth: number): boolean {
    return this.opts.maxDiscoveryDepth === undefined || depth <= this.opts.maxDiscoveryDepth;
  }

  /** Whether a URL's fragment can change its verdict: only patterns tested on the whole URL see it. */
  get readsFragment(): boolean {
    return this.opts.regexOnFullURL === true && this.exclude.length + this.include.length > 0;
  }
}
