/**
 * Runs a search: each requested source list is filled by its provider (SearXNG when one is
 * configured, else the local index) at the same time, under the request's `timeout`; results
 * are shaped per list, optionally scraped through the normal pipeline, and credited.
 *
 * A provider that fails or runs late costs its own list only: the answer holds what the others
 * found plus a warning. Only when nothing answered does the request fail, 408 SCRAPE_TIMEOUT
 * when time ran out and the provider's own message otherwise.
 */
import { ApiError, isApiError } from '../errors.js';
import type { Document } from '../core/document.js';
import type { ScrapeOptions } from '../scrape/options.js';
import type { ScrapeContext } from '../scrape/pipeline.js';
import type { SearchPlan, SourcePlan } from './request.js';
import { ProviderError, type ProviderQuery, type SearchHit, type SearchProvider, type SourceType } from './types.js';

export interface SearchScraper {
  scrape(url: string, options: ScrapeOptions, ctx: ScrapeContext): Promise<Document>;
}

export interface SearchServiceDeps {
  /** The configured web search provider (SearXNG), if any. */
  web: SearchProvider | undefined;
  local: SearchProvider;
  scraper: SearchScraper;
}

export type ResultItem = Record<string, unknown>;

export interface SearchOutcome {
  data: Partial<Record<SourceType, ResultItem[]>>;
  warning?: string;
  creditsUsed: number;
  /** The part of creditsUsed already charged where it arose (threat scans of the results). */
  creditsCharged: number;
}

export interface SearchContext extends ScrapeContext {
  /** Scrapes of results run at once. */
  scrapeConcurrency: number;
  /**
   * The team's threat protection: which result URLs it blocks (they are dropped and named in
   * `warning`) and the credits its scans cost. Absent when the team's rules check nothing.
   */
  screen?: (urls: string[]) => Promise<{ blocked: { url: string; reason: string }[]; warnings: string[]; credits: number }>;
}

type ListOutcome = { type: SourceType; hits: SearchHit[]; warnings: string[] } | { type: SourceType; error: ProviderError };

const NO_PROVIDER_WARNING =
  'No web search provider is configured (set SEARXNG_URL): web results come from the local index of pages this server has fetched for your team';

export class SearchService {
  constructor(private readonly deps: SearchServiceDeps) {}

  /** Whether a web search provider is configured (monitors and map use the local index otherwise). */
  get hasWebProvider(): boolean {
    return this.deps.web !== undefined;
  }

  async search(plan: SearchPlan, ctx: SearchContext): Promise<SearchOutcome> {
    const deadline = Date.now() + plan.timeoutMs;
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), plan.timeoutMs);
    const signal = ctx.signal ? AbortSignal.any([timer.signal, ctx.signal]) : timer.signal;
    const warnings: string[] = [];
    try {
      const lists = await Promise.all(plan.sources.map((s) => this.fillList(plan, s, ctx.teamId, signal, warnings)));
      const answered = lists.filter((l): l is Extract<ListOutcome, { hits: SearchHit[] }> => !('error' in l));
      if (answered.length === 0) {
        const errors = lists.map((l) => ('error' in l ? l.error : undefined)).filter((e): e is ProviderError => e !== undefined);
        if (errors.some((e) => e.timedOut) || timer.signal.aborted) {
          throw new ApiError('SCRAPE_TIMEOUT', { message: `Search timed out after ${plan.timeoutMs} ms: ${errors.map((e) => e.message).join('; ')}` });
        }
        throw new ApiError('SEARCH_PROVIDER_FAILED', { message: [...new Set(errors.map((e) => e.message))].join('; ') });
      }
      const data: Partial<Record<SourceType, ResultItem[]>> = {};
      let credits = 0;
      let charged = 0;
      for (const l of lists) {
        if ('error' in l) {
          warnings.push(`${l.type} results are missing: ${l.error.message}`);
          data[l.type] = [];
          continue;
        }
        warnings.push(...l.warnings);
        data[l.type] = l.hits.map((h, i) => shape(l.type, h, i + 1));
      }
      if (ctx.screen) charged = await screenResults(data, ctx.screen, warnings);
      credits += charged;
      if (plan.scrapeOptions) {
        credits += await this.scrapeResults(plan, data, ctx, deadline, signal, warnings);
      } else {
        for (const items of Object.values(data)) credits += items.length;
      }
      if (plan.ignoreInvalidURLs) {
        for (const [k, items] of Object.entries(data)) data[k as SourceType] = items.filter((it) => !it['invalidURL']).map(reposition);
      }
      for (const items of Object.values(data)) for (const it of items) delete it['invalidURL'];
      const out: SearchOutcome = { data, creditsUsed: credits, creditsCharged: charged };
      const unique = [...new Set(warnings)];
      if (unique.length) out.warning = unique.join(' | ');
      return out;
    } finally {
      clearTimeout(timeout);
    }
  }

  private async fillList(plan: SearchPlan, s: SourcePlan, teamId: string, signal: AbortSignal, warnings: string[]): Promise<ListOutcome> {
    const provider = this.providerFor(s, warnings);
    if (!provider) return { type: s.type, hits: [], warnings: [] };
    const q: ProviderQuery = {
      teamId,
      query: plan.query,
      source: s.type,
      limit: s.limit,
      categories: plan.categories,
      includeDomains: plan.includeDomains,
      excludeDomains: plan.excludeDomains,
      signal,
      now: Date.now(),
    };
    if (s.tbs) q.tbs = s.tbs;
    if (s.lang) q.lang = s.lang;
    if (s.country) q.country = s.country;
    if (s.location) q.location = s.location;
    try {
      // The provider's own work may not notice the abort (a local query): the race makes it count.
      const late = abortion(signal, provider.name);
      late.catch(() => undefined);
      const answer = await Promise.race([provider.search(q), late]);
      return { type: s.type, ...answer };
    } catch (err) {
      if (err instanceof ProviderError) return { type: s.type, error: err };
      if (signal.aborted) return { type: s.type, error: new ProviderError(`${provider.name} did not answer in time`, true) };
      throw err;
    }
  }

  private providerFor(s: SourcePlan, warnings: string[]): SearchProvider | undefined {
    if (s.provider === 'local') {
      if (s.type === 'web') return this.deps.local;
      throw new ApiError('BAD_REQUEST', {
        details: [{ code: 'custom', path: ['sources'], message: `The local index holds pages only: provider "local" is for the web source, not ${s.type}` }],
      });
    }
    if (s.provider === 'searxng' && !this.deps.web) {
      throw new ApiError('BAD_REQUEST', {
        details: [{ code: 'custom', path: ['sources'], message: 'No SearXNG instance is configured on this server (SEARXNG_URL)' }],
      });
    }
    if (this.deps.web) return this.deps.web;
    if (s.type === 'web') {
      warnings.push(NO_PROVIDER_WARNING);
      return this.deps.local;
    }
    warnings.push(`No web search provider is configured (set SEARXNG_URL), so there are no ${s.type} results`);
    return undefined;
  }

  /** Scrapes every web and news result, a bounded number at a time; returns the credits spent. */
  private async scrapeResults(
    plan: SearchPlan,
    data: Partial<Record<SourceType, ResultItem[]>>,
    ctx: SearchContext,
    deadline: number,
    signal: AbortSignal,
    warnings: string[],
  ): Promise<number> {
    const options = plan.scrapeOptions!;
    const items = [...(data.web ?? []), ...(data.news ?? [])];
    let credits = data.images?.length ?? 0;
    const failures: string[] = [];
    let late = 0;
    const scrapeOne = async (item: ResultItem): Promise<void> => {
      const url = item['url'];
      if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) {
        item['invalidURL'] = true;
        return;
      }
      const remaining = deadline - Date.now();
      if (remaining < 1000 || signal.aborted) {
        late++;
        credits += 1;
        return;
      }
      try {
        const doc = await this.deps.scraper.scrape(url, { ...options, timeout: Math.min(options.timeout, remaining) }, { ...ctx, signal });
        // The result's own fields stay on top: they say why it was found.
        const { title, description, snippet, position, category, date, imageUrl } = item;
        Object.assign(item, doc, { url, title, description, snippet, position, category, date, imageUrl });
        for (const k of Object.keys(item)) if (item[k] === undefined) delete item[k];
        credits += doc.metadata.creditsUsed ?? 1;
      } catch (err) {
        if (isApiError(err) && (err.key === 'INVALID_URL' || err.key === 'URL_BLOCKED')) item['invalidURL'] = true;
        if (signal.aborted) late++;
        else failures.push(`${url}: ${err instanceof Error ? err.message : String(err)}`);
        credits += 1;
      }
    };
    let next = 0;
    const worker = async () => {
      while (next < items.length) await scrapeOne(items[next++]!);
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(ctx.scrapeConcurrency, items.length)) }, worker));
    if (late) warnings.push(`${late} result(s) were not scraped before the ${plan.timeoutMs} ms timeout`);
    if (failures.length) warnings.push(`${failures.length} result(s) could not be scraped: ${failures.slice(0, 5).join('; ')}`);
    return credits;
  }
}

function abortion(signal: AbortSignal, name: string): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(new ProviderError(`${name} did not answer in time`, true));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

/** Drops the results threat protection blocks; answers the credits its scans cost. */
async function screenResults(data: Partial<Record<SourceType, ResultItem[]>>, screen: NonNullable<SearchContext['screen']>, warnings: string[]): Promise<number> {
  const urls = [...new Set(Object.values(data).flatMap((items) => items.map((it) => it['url']).filter((u): u is string => typeof u === 'string' && /^https?:\/\//i.test(u))))];
  if (urls.length === 0) return 0;
  const { blocked, warnings: notes, credits } = await screen(urls);
  warnings.push(...notes);
  if (blocked.length > 0) {
    const out = new Set(blocked.map((b) => b.url));
    for (const [k, items] of Object.entries(data)) data[k as SourceType] = items.filter((it) => !out.has(it['url'] as string)).map(reposition);
    warnings.push(`${blocked.length} result(s) were dropped by threat protection: ${blocked.map((b) => `${b.url} (${b.reason})`).join('; ')}`);
  }
  return credits;
}

const reposition = (item: ResultItem, i: number): ResultItem => ({ ...item, position: i + 1 });

/** A hit in the shape its list has on the wire. */
function shape(type: SourceType, h: SearchHit, position: number): ResultItem {
  const item: ResultItem = {};
  const set = (k: string, v: unknown) => {
    if (v !== undefined) item[k] = v;
  };
  if (type === 'web') {
    set('url', h.url);
    set('title', h.title);
    set('description', h.description);
    set('position', position);
    set('category', h.category);
  } else if (type === 'news') {
    set('title', h.title);
    set('url', h.url);
    set('snippet', h.description);
    set('date', h.publishedAt !== undefined ? new Date(h.publishedAt).toISOString() : undefined);
    set('imageUrl', h.imageUrl);
    set('position', position);
    set('category', h.category);
  } else {
    set('title', h.title);
    set('imageUrl', h.imageUrl);
    set('imageWidth', h.imageWidth);
    set('imageHeight', h.imageHeight);
    set('url', h.url);
    set('position', position);
  }
  return item;
}
