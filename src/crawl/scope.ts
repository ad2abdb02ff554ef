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
 *   against the pathname (or the whole URL with `regexOnFullURL`). Exclude wins over include.
 * - Depth counts link hops from the start URL; start and sitemap URLs are depth 0. A URL is
 *   allowed while depth <= maxDiscoveryDepth.
 *
 * User regexes run on the event loop, so catastrophic backtracking (`(a+)+$` on a long path)
 * would stall the process. V8 is told to switch a regex that backtracks excessively to its
 * linear-time engine; that engine cannot run backreferences, so patterns with them are refused.
 * (Lookarounds are allowed; such a pattern keeps the backtracking engine, and the tested string
 * is capped here.)
 */
import v8 from 'node:v8';
import { ApiError } from '../errors.js';
import type { FieldIssue } from '../core/field-issues.js';

v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

// A backslash-digit or `\k<name>` not itself escaped.
const BACKREFERENCE = /(?<!\\)(?:\\\\)*\\(?:[1-9]|k<)/;

/** Why a user's path pattern is refused, or undefined when it can be used. */
export function patternError(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
  } catch (e) {
    return `Invalid regular expression: ${(e as Error).message}`;
  }
  if (BACKREFERENCE.test(pattern)) return 'Backreferences are not supported in path patterns';
  return undefined;
}

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

/** Longest string a user pattern is tested against; longer URLs are tested on their prefix. */
const MAX_TESTED_LENGTH = 4096;

/**
 * Compiles include/exclude patterns, or throws the catalog's 400 with one issue per bad pattern
 * (path `[field, index]`, the engine's error text), so a route can refuse them up front.
 */
export function compilePatterns(patterns: readonly string[] | undefined, field: string): RegExp[] {
  const out: RegExp[] = [];
  const issues: FieldIssue[] = [];
  (patterns ?? []).forEach((p, i) => {
    const error = patternError(p);
    if (error) issues.push({ code: 'invalid_regex', path: [field, i], message: error });
    else out.push(new RegExp(p));
  });
  if (issues.length > 0) throw new ApiError('BAD_REQUEST', { details: issues });
  return out;
}

const stripWww = (host: string) => (host.startsWith('www.') ? host.slice(4) : host);

/** `/docs/index.html` -> `/docs`, `/docs/` -> `/docs`, `/` -> `` (everything is below root). */
function pathBase(pathname: string): string {
  return pathname.replace(/\/index\.(?:html?|php)$/i, '/').replace(/\/+$/, '');
}

export class CrawlScope {
  private readonly host: string;
  private readonly port: string;
  private readonly basePath: string;
  private readonly include: RegExp[];
  private readonly exclude: RegExp[];

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
      const target = (this.opts.regexOnFullURL ? u.href : u.pathname).slice(0, MAX_TESTED_LENGTH);
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
