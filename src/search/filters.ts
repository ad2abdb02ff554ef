/**
 * Filters every provider's hits go through, whatever the provider did with the same request
 * fields: domains, categories and the time window. Providers pass hints on (a `site:` operator,
 * SearXNG's coarse `time_range`); these make the answer exact.
 */
import { windowOf, type TimeFilter } from './tbs.js';
import type { CategoryType, SearchHit } from './types.js';

/** About the academic publishers and indexes the `research` category stands for. */
export const RESEARCH_DOMAINS = [
  'arxiv.org',
  'biorxiv.org',
  'medrxiv.org',
  'pubmed.ncbi.nlm.nih.gov',
  'ncbi.nlm.nih.gov',
  'nature.com',
  'science.org',
  'sciencedirect.com',
  'springer.com',
  'link.springer.com',
  'ieeexplore.ieee.org',
  'dl.acm.org',
  'researchgate.net',
  'semanticscholar.org',
  'scholar.archive.org',
  'plos.org',
  'jstor.org',
];

/** The host name a domain filter compares with: no port, no `www.`. */
export const hostOf = (url: string): string | undefined => {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return undefined;
  }
};

/** A host is in a domain when it is the domain or one of its subdomains. */
export const inDomain = (host: string, domain: string): boolean => host === domain || host.endsWith('.' + domain);

export function categoryOf(url: string, wanted: readonly CategoryType[]): CategoryType | undefined {
  const host = hostOf(url);
  if (!host) return undefined;
  for (const c of wanted) {
    if (c === 'github' && inDomain(host, 'github.com')) return c;
    if (c === 'research' && RESEARCH_DOMAINS.some((d) => inDomain(host, d))) return c;
    if (c === 'pdf' && /\.pdf$/i.test(new URL(url).pathname)) return c;
  }
  return undefined;
}

export interface HitFilter {
  categories: readonly CategoryType[];
  includeDomains: readonly string[];
  excludeDomains: readonly string[];
  tbs?: TimeFilter;
  now: number;
}

/**
 * Keeps the hits that pass, tagging each with its category. A hit without a date passes a time
 * filter: a metasearch engine already applied its own, and most results carry no date.
 */
export function filterHits(hits: SearchHit[], f: HitFilter): SearchHit[] {
  const window = f.tbs ? windowOf(f.tbs, f.now) : {};
  const out: SearchHit[] = [];
  for (const hit of hits) {
    const host = hostOf(hit.url);
    if (!host) continue;
    if (f.includeDomains.length && !f.includeDomains.some((d) => inDomain(host, d))) continue;
    if (f.excludeDomains.some((d) => inDomain(host, d))) continue;
    if (hit.publishedAt !== undefined) {
      if (window.from !== undefined && hit.publishedAt < window.from) continue;
      if (window.to !== undefined && hit.publishedAt > window.to) continue;
    }
    if (f.categories.length) {
      const category = categoryOf(hit.url, f.categories);
      if (!category) continue;
      out.push({ ...hit, category });
    } else {
      out.push(hit);
    }
  }
  if (f.tbs?.sortByDate) out.sort((a, b) => (b.publishedAt ?? -Infinity) - (a.publishedAt ?? -Infinity));
  return out;
}

/** Two hits are the same page when they differ only in scheme, `www.`, a trailing slash or fragment. */
export function dedupeKey(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname.replace(/\/+$/, '') || '/';
    return `${u.host.toLowerCase().replace(/^www\./, '')}${path}${u.search}`;
  } catch {
    return url;
  }
}

/** Merges hit lists in order, each page once; later copies fill fields the first lacked. */
export function mergeHits(lists: SearchHit[][]): SearchHit[] {
  const byKey = new Map<string, SearchHit>();
  for (const list of lists) {
    for (const hit of list) {
      const key = dedupeKey(hit.url);
      const seen = byKey.get(key);
      if (!seen) byKey.set(key, { ...hit });
      else for (const [k, v] of Object.entries(hit)) if ((seen as unknown as Record<string, unknown>)[k] === undefined) (seen as unknown as Record<string, unknown>)[k] = v;
    }
  }
  return [...byKey.values()];
}
