/**
 * A monitor's search target, as far as search goes: each query run over the target's window
 * (`searchWindow`) and domains, up to `maxResults` each, giving the set of result URLs the check
 * then compares page by page. The monitor runner receives this as a function, so monitors need
 * not know how search is assembled.
 */
import { normaliseDomain, type SearchPlan } from './request.js';
import type { SearchContext, SearchService } from './service.js';

export interface MonitorSearchTarget {
  queries: string[];
  searchWindow: string;
  includeDomains?: string[] | undefined;
  excludeDomains?: string[] | undefined;
  maxResults: number;
}

export interface MonitorSearchResult {
  /** Result URLs in order, each once. */
  urls: string[];
  credits: number;
  warning?: string;
}

const WINDOW_MS: Record<string, number> = {
  '5m': 5 * 60_000,
  '15m': 15 * 60_000,
  '1h': 3600_000,
  '6h': 6 * 3600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
};

const QUERY_TIMEOUT_MS = 60_000;

/** `screen`: the team's threat protection, which drops the results it blocks (see SearchContext). */
export async function searchForMonitor(
  service: SearchService,
  teamId: string,
  target: MonitorSearchTarget,
  signal: AbortSignal,
  screen?: SearchContext['screen'],
): Promise<MonitorSearchResult> {
  const urls: string[] = [];
  const warnings = new Set<string>();
  let credits = 0;
  const windowMs = WINDOW_MS[target.searchWindow] ?? WINDOW_MS['24h']!;
  for (const query of target.queries) {
    const plan: SearchPlan = {
      query,
      sources: [{ type: 'web', provider: 'auto', limit: target.maxResults, tbs: { from: Date.now() - windowMs, sortByDate: false } }],
      categories: [],
      includeDomains: (target.includeDomains ?? []).map(normaliseDomain),
      excludeDomains: (target.excludeDomains ?? []).map(normaliseDomain),
      timeoutMs: QUERY_TIMEOUT_MS,
      ignoreInvalidURLs: true,
      zeroDataRetention: false,
    };
    const out = await service.search(plan, { teamId, absoluteUrl: (p) => p, signal, scrapeConcurrency: 1, ...(screen ? { screen } : {}) });
    credits += out.creditsUsed;
    if (out.warning) warnings.add(out.warning);
    for (const item of out.data.web ?? []) {
      const url = item['url'];
      if (typeof url === 'string' && !urls.includes(url)) urls.push(url);
    }
  }
  const result: MonitorSearchResult = { urls, credits };
  if (warnings.size) result.warning = [...warnings].join(' | ');
  return result;
}
