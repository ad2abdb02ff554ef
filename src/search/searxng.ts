/**
 * SearXNG (and its predecessor searx) through its JSON API: `GET {base}/search?format=json`.
 * The request fields map onto its parameters (category per source list, language, time_range,
 * pageno to reach `limit`); the instance's own default engines answer unless the operator names
 * engines. Self-hosters' usual stumbling blocks (JSON output off, bot filtering, engine names the
 * instance lacks) come back as messages that say what to change, never as an empty list.
 */
import { sleep } from '../core/sleep.js';
import { VERSION } from '../version.js';
import { filterHits, mergeHits } from './filters.js';
import { searxTimeRange } from './tbs.js';
import { ProviderError, type ProviderAnswer, type ProviderQuery, type SearchHit, type SearchProvider, type SourceType } from './types.js';

export interface SearxngOptions {
  baseUrl: string;
  /** Engine names to use instead of the instance's defaults. */
  engines?: readonly string[];
  userAgent?: string;
}

/** The parts of the instance's `/config` answer used here. */
interface InstanceConfig {
  engines: Map<string, { categories: string[]; enabled: boolean; timeRange: boolean }>;
}

interface Route {
  /** Engines to name in the request; undefined: the category's defaults. */
  engines: string[] | undefined;
  timeRange: string | undefined;
}

interface SearxResult {
  url?: unknown;
  title?: unknown;
  content?: unknown;
  publishedDate?: unknown;
  img_src?: unknown;
  thumbnail_src?: unknown;
  thumbnail?: unknown;
  resolution?: unknown;
}

interface SearxAnswer {
  results?: SearxResult[];
  unresponsive_engines?: unknown[];
}

const CATEGORY: Record<SourceType, string> = { web: 'general', news: 'news', images: 'images' };
/** searx answers about ten results a page; more pages than this is digging for noise. */
const MAX_PAGES = 10;
const CONFIG_TTL_MS = 5 * 60_000;
const RETRY_PAUSE_MS = 250;
const IMAGE_PATH = /\.(png|jpe?g|gif|webp|svg|avif|bmp)$/i;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

export class SearxngProvider implements SearchProvider {
  readonly name = 'searxng';
  readonly sources = ['web', 'news', 'images'] as const;
  private readonly base: string;
  private readonly userAgent: string;
  private instance: { at: number; config: InstanceConfig | undefined } | undefined;

  constructor(private readonly opts: SearxngOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '').replace(/\/search$/, '');
    this.userAgent = opts.userAgent ?? `Gleaner/${VERSION} (self-hosted web-data API; +search)`;
  }

  async search(q: ProviderQuery): Promise<ProviderAnswer> {
    const warnings: string[] = [];
    const route = await this.route(q, warnings);
    const lists: SearchHit[][] = [];
    let kept: SearchHit[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      let answer: SearxAnswer;
      try {
        answer = await this.fetchPage(q, page, route);
      } catch (err) {
        // The first page decides whether there is an answer at all; later ones only add to it.
        if (page === 1) throw err;
        warnings.push(`SearXNG page ${page} failed: ${(err as Error).message}`);
        break;
      }
      noteUnresponsive(answer, warnings);
      const hits = (answer.results ?? []).map((r) => toHit(r, q.source)).filter((h): h is SearchHit => h !== undefined);
      const before = mergeHits(lists).length;
      lists.push(hits);
      const merged = mergeHits(lists);
      kept = filterHits(merged, q);
      if (kept.length >= q.limit || merged.length === before) break;
    }
    return { hits: kept.slice(0, q.limit), warnings: [...new Set(warnings)] };
  }

  private async fetchPage(q: ProviderQuery, page: number, route: Route): Promise<SearxAnswer> {
    const params = new URLSearchParams({ q: queryText(q), format: 'json', pageno: String(page) });
    if (route.engines) params.set('engines', route.engines.join(','));
    else params.set('categories', CATEGORY[q.source]);
    // SearXNG's language is a locale: `en`, or `en-US` when a country narrows it.
    if (q.lang) params.set('language', q.country && !q.lang.includes('-') ? `${q.lang}-${q.country}` : q.lang);
    if (route.timeRange) params.set('time_range', route.timeRange);
    params.set('safesearch', '0');
    let res = await this.get(`/search?${params}`, q.signal, q.lang);
    // An instance answers 5xx when one of its engines raised inside its request handler, which a
    // busy instance does now and then: one more try, after a pause, before the request fails.
    if (res.status >= 500) {
      // Cut short when the request's time is up: the next fetch then reports that.
      await sleep(RETRY_PAUSE_MS, q.signal).catch(() => undefined);
      res = await this.get(`/search?${params}`, q.signal, q.lang);
    }
    if (res.status === 403) {
      throw new ProviderError(
        `SearXNG at ${this.base} refused JSON output (HTTP 403): enable it in the instance's settings.yml under search.formats (add "json" beside "html") and restart it`,
      );
    }
    if (res.status === 429) {
      throw new ProviderError(
        `SearXNG at ${this.base} turned the request away as a bot (HTTP 429, its limiter): let this server through (botdetection ip_lists.pass_ip in limiter.toml) or switch the limiter off (server.limiter: false)`,
      );
    }
    if (res.status !== 200) throw new ProviderError(`SearXNG at ${this.base} answered HTTP ${res.status}`);
    if (!/json/i.test(res.contentType)) {
      throw new ProviderError(
        `SearXNG at ${this.base} answered ${res.contentType || 'something'} instead of JSON: check that SEARXNG_URL is the instance's base address and that JSON output is enabled (search.formats)`,
      );
    }
    try {
      const body = JSON.parse(res.text) as SearxAnswer;
      if (body === null || typeof body !== 'object') throw new Error('not an object');
      return body;
    } catch {
      throw new ProviderError(`SearXNG at ${this.base} answered with broken JSON`);
    }
  }

  /**
   * Which engines answer and whether the time range goes along. Engines named by the operator
   * are checked against what the instance has, and of those the ones in this source's category
   * are used; a source none of them serves gets the instance's defaults for it. SearXNG silently
   * skips engines that cannot filter by date when `time_range` is set, so it is sent only when
   * some engine in use can, and the caller hears about the others.
   */
  private async route(q: ProviderQuery, warnings: string[]): Promise<Route> {
    const config = await this.instanceConfig(q.signal);
    const category = CATEGORY[q.source];
    const range = q.tbs ? searxTimeRange(q.tbs, q.now) : undefined;
    const wanted = this.opts.engines?.length ? [...this.opts.engines] : undefined;
    if (!config) return { engines: wanted, timeRange: range };
    if (wanted) {
      const missing = wanted.filter((e) => !config.engines.has(e));
      if (missing.length === wanted.length) {
        const have = [...config.engines.keys()].sort().join(', ');
        throw new ProviderError(`SearXNG at ${this.base} has none of the engines SEARXNG_ENGINES names (${missing.join(', ')}); its engines are: ${have}`);
      }
      if (missing.length) warnings.push(`SearXNG at ${this.base} has no engine named ${missing.join(', ')}`);
    }
    const named = (wanted ?? []).filter((e) => config.engines.get(e)?.categories.includes(category));
    const inUse = named.length ? named : [...config.engines].filter(([, e]) => e.enabled && e.categories.includes(category)).map(([n]) => n);
    if (inUse.length === 0) {
      throw new ProviderError(`SearXNG at ${this.base} has no engines in its "${category}" category, so it cannot answer ${q.source} searches`);
    }
    const route: Route = { engines: named.length ? named : undefined, timeRange: undefined };
    if (range) {
      const dated = inUse.filter((e) => config.engines.get(e)?.timeRange);
      if (dated.length === 0) {
        warnings.push(`None of the SearXNG engines used (${inUse.join(', ')}) can filter by date, so results are not limited to the tbs window`);
      } else {
        route.timeRange = range;
        const left = inUse.filter((e) => !dated.includes(e));
        if (left.length) warnings.push(`SearXNG engines that cannot filter by date were left out: ${left.join(', ')}`);
      }
    }
    return route;
  }

  /** The instance's categories and enabled engines, from `/config`; undefined when it has none. */
  private async instanceConfig(signal: AbortSignal): Promise<InstanceConfig | undefined> {
    if (this.instance && Date.now() - this.instance.at < CONFIG_TTL_MS) return this.instance.config;
    let config: InstanceConfig | undefined;
    try {
      const res = await this.get('/config', signal);
      if (res.status === 200) {
        const body = JSON.parse(res.text) as { engines?: Array<{ name?: unknown; enabled?: unknown; categories?: unknown; time_range_support?: unknown }> };
        const engines: InstanceConfig['engines'] = new Map();
        for (const e of body.engines ?? []) {
          if (typeof e.name !== 'string') continue;
          const categories = (Array.isArray(e.categories) ? e.categories : []).filter((c): c is string => typeof c === 'string');
          engines.set(e.name, { categories, enabled: e.enabled !== false, timeRange: e.time_range_support === true });
        }
        if (engines.size) config = { engines };
      }
    } catch (err) {
      // Unreachable or too slow: the search itself would fail the same way.
      if (err instanceof ProviderError) throw err;
      // An instance without a readable /config still searches; only the checks are lost.
    }
    this.instance = { at: Date.now(), config };
    return config;
  }

  private async get(path: string, signal: AbortSignal, lang?: string): Promise<{ status: number; contentType: string; text: string }> {
    try {
      const res = await fetch(this.base + path, {
        signal,
        headers: {
          'user-agent': this.userAgent,
          accept: 'application/json',
          'accept-language': lang ? `${lang},en;q=0.5` : 'en',
        },
      });
      return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
    } catch (err) {
      if (signal.aborted) throw new ProviderError(`SearXNG at ${this.base} did not answer in time`, true);
      throw unreachable(this.base, err);
    }
  }
}

function unreachable(base: string, err: unknown): ProviderError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return new ProviderError(`Could not reach SearXNG at ${base}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
}

/** The query with operators engines understand for the filters (the filters still apply after). */
function queryText(q: ProviderQuery): string {
  const parts = [q.query];
  if (q.includeDomains.length === 1) parts.push(`site:${q.includeDomains[0]}`);
  if (q.categories.length === 1 && q.categories[0] === 'github' && !q.includeDomains.length) parts.push('site:github.com');
  if (q.categories.length === 1 && q.categories[0] === 'pdf') parts.push('filetype:pdf');
  if (q.location) parts.push(q.location);
  return parts.join(' ');
}

function noteUnresponsive(answer: SearxAnswer, warnings: string[]): void {
  for (const entry of answer.unresponsive_engines ?? []) {
    if (Array.isArray(entry)) warnings.push(`Search engine "${String(entry[0])}" did not answer (${entry.slice(1).map(String).join(' ') || 'no reason given'})`);
  }
}

function toHit(r: SearxResult, source: SourceType): SearchHit | undefined {
  const url = str(r.url);
  if (!url || !URL.canParse(url)) return undefined;
  const hit: SearchHit = { url };
  const title = str(r.title);
  if (title) hit.title = title;
  const content = str(r.content);
  if (content) hit.description = content;
  const date = str(r.publishedDate);
  if (date) {
    const t = Date.parse(date);
    if (!Number.isNaN(t)) hit.publishedAt = t;
  }
  if (source === 'images') {
    const image = str(r.img_src) ?? str(r.thumbnail_src) ?? str(r.thumbnail) ?? (IMAGE_PATH.test(new URL(url).pathname) ? url : undefined);
    if (!image) return undefined;
    hit.imageUrl = image;
    const res = /^(\d+)\s*[x×]\s*(\d+)$/.exec(str(r.resolution) ?? '');
    if (res) {
      hit.imageWidth = Number(res[1]);
      hit.imageHeight = Number(res[2]);
    }
  } else {
    const thumb = str(r.thumbnail) ?? str(r.img_src);
    if (thumb) hit.imageUrl = thumb;
  }
  return hit;
}
