/**
 * Which links found on a crawl's pages join its frontier, and under which key: the scope rules
 * first (links outside them are dropped silently), then robots.txt (recorded as blocked).
 *
 * A site's pages link to the same pages over and over (navigation, tables of contents, "next"),
 * and what the rules say of a link depends on the crawl alone, not on the page it was found on.
 * So each distinct link is parsed, keyed and checked once per crawl rather than on every page
 * showing it; depth, the one rule that depends on the page, is checked on every link.
 */
import { urlKey } from './normalize.js';
import type { Robots } from './robots.js';
import type { CrawlScope } from './scope.js';
import type { FrontierEntry } from './store.js';

export interface Link {
  url: string;
  depth: number;
  /** The crawl's start URL: exempt from the scope rules. */
  start?: boolean;
}

export interface FilteredLinks {
  allowed: FrontierEntry[];
  blocked: FrontierEntry[];
}

interface Verdict {
  inScope: boolean;
  /** Worked out on first need: links out of scope need none, unless one is the start URL. */
  entry?: { urlKey: string; url: string; allowed: boolean };
}

/**
 * Verdicts a crawl keeps; past this many they are dropped and gathered again. On a large site
 * most links are seen once or twice, while the ones shown on every page come back at once.
 */
const MAX_KEPT = 4096;

export class LinkFilter {
  private readonly verdicts = new Map<string, Verdict>();

  constructor(
    private readonly scope: CrawlScope,
    private readonly robots: Robots | null,
    private readonly ignoreQueryParameters: boolean,
  ) {}

  /** The links to admit and those robots.txt refuses, each key once, in the order found. */
  filter(links: readonly Link[]): FilteredLinks {
    const allowed: FrontierEntry[] = [];
    const blocked: FrontierEntry[] = [];
    const seen = new Set<string>();
    for (const l of links) {
      const v = this.verdictOf(l.url);
      if (!l.start && !(v.inScope && this.scope.withinDepth(l.depth))) continue;
      const e = (v.entry ??= this.entryOf(l.url));
      if (seen.has(e.urlKey)) continue;
      seen.add(e.urlKey);
      (e.allowed ? allowed : blocked).push({ urlKey: e.urlKey, url: e.url, depth: l.depth });
    }
    return { allowed, blocked };
  }

  private verdictOf(url: string): Verdict {
    // Links differing only in their fragment are one page, unless a pattern reads the fragment.
    const id = this.scope.readsFragment ? url : stripFragment(url);
    let v = this.verdicts.get(id);
    if (!v) {
      if (this.verdicts.size >= MAX_KEPT) this.verdicts.clear();
      v = { inScope: this.scope.checkUrl(url).ok };
      this.verdicts.set(id, v);
    }
    return v;
  }

  private entryOf(link: string): NonNullable<Verdict['entry']> {
    const url = this.ignoreQueryParameters ? stripQuery(link) : stripFragment(link);
    return {
      urlKey: urlKey(link, { ignoreQueryParameters: this.ignoreQueryParameters }),
      url,
      allowed: !this.robots || this.robots.isAllowed(url),
    };
  }
}

function stripFragment(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}

function stripQuery(url: string): string {
  const u = new URL(url);
  u.search = '';
  u.hash = '';
  return u.toString();
}
