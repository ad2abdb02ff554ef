/**
 * The scrape pipeline: one URL and its options in, one Document out.
 *
 *   plan (URL, pending features, cache) -> fetch (engine, proxy tier) -> transform -> formats -> post
 *
 * Every feature that reads pages (crawl, batch, monitor, agent) calls `Scraper.scrape`; there is
 * no second fetcher.
 */
import { createHash, randomUUID } from 'node:crypto';
import { COSTS } from '../billing/costs.js';
import { ApiError } from '../errors.js';
import type { BlobStore } from '../store/blobs.js';
import type { DocumentRepository } from '../store/documents.js';
import type { Config } from '../config.js';
import type { SsrfGuard } from '../security/ssrf.js';
import type { TeamGuard } from '../security/threat/guard.js';
import type { ThreatProtection } from '../security/threat/service.js';
import { applyParsed, parseFetched } from './parsed.js';
import type { DocumentParser } from '../parse/service.js';
import { isHtml, isScriptShell, looksBlocked } from './detect.js';
import type { Document, DocumentMetadata } from '../core/document.js';
import { effectiveMaxAge, pageTransform, pendingFeatures, type ScrapeOptions } from './options.js';
import { cleanContent, normaliseRedact, redactDocument } from './formats/page-steps.js';
import { memoByObject } from '../memo.js';
import { formatOf } from './formats/registry.js';
import { extraCredits, neededBy, pageMaterial, refusals, runStage, type StageEnv } from './formats/run.js';
import type { ChangeTracker, PageMaterial } from './formats/types.js';
import type { ModelAccess, ModelSession } from '../llm/types.js';
import { acceptLanguageFor, proxyAttempts, routingWarnings, type ProxyAttempt } from './proxy.js';
import { createTransformer, type Transformer } from './threads/pool.js';
import type { BrowserFetchRequest, SessionContext } from './engines/browser.js';
import type { BrowserStorageState, Engine, FetchResult, FetchTransform, TransformResult } from './types.js';
import { normaliseTargetUrl } from './url.js';


export interface ScrapeContext {
  teamId: string;
  /** Turns a blob path (`/v2/files/...`) into the absolute URL handed to the client. */
  absoluteUrl(path: string): string;
  signal?: AbortSignal;
  /** The API key the request came with (model token counts per key). */
  keyId?: string;
  /** `keepAlive`: receives the browser page after capture (src/browser/sessions.ts). */
  keepPage?: (page: SessionContext) => void;
  /**
   * false: no scrape record is written, because the caller keeps the Document under its scrape
   * id itself (a crawl, in its results) or hands the id to no one (map's link discovery).
   */
  record?: boolean;
  /**
   * Charges the finished Document and answers the credits charged, which become its
   * `metadata.creditsUsed`; absent when the caller charges for the page itself (a crawl).
   */
  charge?: (doc: Document) => Promise<number>;
  /**
   * The team's threat guard, when the caller holds one for the whole request (map, search): the
   * caller charges its scans. Absent, the scrape makes its own from the team's policy.
   */
  guard?: TeamGuard;
  /**
   * A stable name for the work this scrape is part of, when that work may run again (a job's
   * page task): charges made on its behalf outside the Document's own are then made once.
   */
  cause?: string;
}

/** What an earlier fetch of a URL left behind, so the next one can end early (monitors). */
export interface PriorFetch {
  etag?: string | null;
  lastModified?: string | null;
  /** SHA-256 hex of the earlier response body. */
  bodyHash?: string | null;
}

export interface FetchValidators {
  etag: string | null;
  lastModified: string | null;
  bodyHash: string;
}

export type RevalidateResult = { unchanged: true } | { unchanged: false; doc: Document; validators: FetchValidators };

/** A team's named browser profile, held for one scrape (src/browser/profiles.ts). */
export interface ProfileHold {
  state: BrowserStorageState | undefined;
  /** Writes the new state (when the hold saves) and lets the profile go. */
  release(state: BrowserStorageState | undefined): Promise<void>;
}

export interface ProfileAccess {
  hold(teamId: string, name: string, saveChanges: boolean, holder: string): Promise<ProfileHold>;
}

/** Implemented where the snapshots live (monitor/change-tracking.ts); see formats/types.ts. */
export type { ChangeTracker } from './formats/types.js';

export interface ScraperDeps {
  http: Engine;
  /** Absent when the operator disabled the browser or no Chromium was found. */
  browser: Engine | undefined;
  guard: SsrfGuard;
  documents: DocumentRepository<Document>;
  blobs: BlobStore;
  proxies: Config['proxies'];
  /**
   * Pages whose Document would be longer (JSON characters, estimated) are not cached: serialising
   * and storing tens of megabytes holds the event loop for longer than fetching the page again.
   */
  cacheMaxDocumentChars?: number;
  /** Where extraction and markdown run; inline when absent. */
  transformer?: Transformer;
  /** The `changeTracking` format; absent means the format is ignored. */
  changeTracker?: ChangeTracker;
  /** Documents (PDF, Office, images): absent means binary responses stay unsupported. */
  parser?: DocumentParser;
  /** Named browser profiles; absent means the `profile` option is refused. */
  profiles?: ProfileAccess;
  /** The local search index (search/local/indexer.ts); absent means pages are not indexed. */
  indexer?: { index(teamId: string, doc: Document): Promise<void> };
  /** The language model; absent means the offline algorithms (and refusals for what needs a model). */
  model?: ModelAccess;
  /** Per-team threat protection and zero data retention; absent means neither applies. */
  threat?: ThreatProtection;
}

/** What the team's settings make of one scrape (see Scraper.teamRules). */
interface TeamScrape {
  o: ScrapeOptions;
  guard: TeamGuard | undefined;
  /** Whether this scrape made the guard, and so charges its scans. */
  own: boolean;
}

/** Time kept back from a request's timeout for the answer to leave after the model work. */
const MODEL_MARGIN_MS = 250;

const DEFAULT_MAX_CACHED_CHARS = 8 * 1024 * 1024;

/** Whether a Document's JSON is at most `max` characters, judged from its long fields without serialising it. */
export function roughlyFits(doc: Document, max: number): boolean {
  let n = 4096;
  for (const v of Object.values(doc)) {
    if (typeof v === 'string') n += v.length;
    else if (Array.isArray(v)) for (const item of v) n += typeof item === 'string' ? item.length + 3 : 256;
    if (n > max) return false;
  }
  return true;
}

export class Scraper {
  constructor(private readonly deps: ScraperDeps) {}

  async scrape(rawUrl: string, requested: ScrapeOptions, ctx: ScrapeContext): Promise<Document> {
    const started = Date.now();
    return this.forTeam(requested, ctx, (team) => this.scrapeFor(rawUrl, team, ctx, started));
  }

  /**
   * Runs a fetch under the team's settings: what this server cannot do is refused first, and the
   * scans the team's guard made are charged after, those of a fetch that failed (a blocked URL
   * among them) too.
   */
  private async forTeam<T>(requested: ScrapeOptions, ctx: ScrapeContext, run: (team: TeamScrape) => Promise<T>): Promise<T> {
    this.refuseUnavailable(requested);
    const team = await this.teamRules(requested, ctx);
    try {
      return await run(team);
    } finally {
      if (team.own && team.guard) await this.deps.threat!.settle(team.guard, ctx.teamId, ctx.keyId, ctx.cause);
    }
  }

  /**
   * The team's settings applied to a scrape: a zero-data-retention team's scrapes keep nothing,
   * and its threat rules (with the request's override; 403 when the policy refuses it) guard every
   * fetch. A lockdown request fetches nothing, so no guard is made for it.
   */
  private async teamRules(o: ScrapeOptions, ctx: ScrapeContext): Promise<TeamScrape> {
    const threat = this.deps.threat;
    if (!threat) return { o, guard: undefined, own: false };
    const { zdr, guard } = await threat.forScrape(ctx.teamId, o.threatProtection);
    const kept = zdr && !o.zeroDataRetention ? { ...o, zeroDataRetention: true } : o;
    if (o.lockdown) return { o: kept, guard: undefined, own: false };
    return ctx.guard ? { o: kept, guard: ctx.guard, own: false } : { o: kept, guard, own: guard !== undefined };
  }

  /** Adds the scans made so far to the page's price, and failurePolicy notes to its warning. */
  private threatOutcome(doc: Document, team: TeamScrape): void {
    const guard = team.guard;
    if (!guard) return;
    if (team.own) doc.metadata.creditsUsed += guard.takeScans() * this.deps.threat!.scanCredits;
    if (guard.warnings.length) doc.warning = [doc.warning, ...guard.warnings].filter(Boolean).join(' ');
  }

  private async scrapeFor(rawUrl: string, team: TeamScrape, ctx: ScrapeContext, started: number): Promise<Document> {
    const options = team.o;
    const url = normaliseTargetUrl(rawUrl);
    const scrapeId = randomUUID();
    const wantsScreenshot = options.formats.some((f) => f.type === 'screenshot');
    // Actions, profiles and kept pages make a page particular to this request: never shared through the cache.
    const personal = Boolean(options.actions?.length) || options.profile !== undefined || options.keepAlive === true;
    const cacheable =
      options.storeInCache && !options.headers && !options.zeroDataRetention && !wantsScreenshot && !personal;
    const consultCache = options.lockdown || options.minAge !== undefined || (effectiveMaxAge(options) > 0 && !options.headers && !wantsScreenshot && !personal);
    const cacheKey = consultCache || cacheable ? cacheKeyFor(url, options) : '';
    if (consultCache) {
      const cached = await this.fromCache(url, cacheKey, options, ctx);
      if (cached) return this.finish(cached, scrapeId, ctx, options, false, started);
    }

    const { result, proxy } = await this.withProfile(options, ctx, scrapeId, (state) => this.fetchPage(url, options, ctx, true, state, team.guard));
    const { doc, page } = await this.buildDocument(rawUrl, result, proxy, options, ctx);
    await this.pageFormats(doc, page, options, ctx, scrapeId, started);
    this.threatOutcome(doc, team);
    if (consultCache) doc.metadata.cacheState = 'miss';
    if (cacheable && result.status < 500 && roughlyFits(doc, this.deps.cacheMaxDocumentChars ?? DEFAULT_MAX_CACHED_CHARS)) {
      // The warning is about this fetch's route (its proxy), not the page a later hit reads.
      const { warning: _routeWarning, ...page } = doc;
      await this.deps.documents.putCached(ctx.teamId, cacheKey, url, page);
    }
    return this.finish(doc, scrapeId, ctx, options, true, started);
  }

  /**
   * Refuses, before any fetch, what this server cannot do: features not built (UNSUPPORTED_OPTION)
   * and, without a model, what only a model can do (MODEL_NOT_CONFIGURED, naming the setting).
   * Jobs (crawl, batch) ask it at their start, with `prefix` placing the paths in their request.
   */
  refuseUnavailable(options: ScrapeOptions, prefix = ''): void {
    const at = <T extends { path: string }>(r: T) => ({ ...r, path: prefix + r.path });
    // The setting the operator can change comes first: it is the refusal a user can act on.
    const needModel = refusals(options.formats, { model: this.deps.model !== undefined }).filter((r) => r.error === 'MODEL_NOT_CONFIGURED');
    if (needModel.length > 0) {
      throw new ApiError('MODEL_NOT_CONFIGURED', { message: needModel.map((r) => r.message).join('; '), details: needModel.map(({ path, message }) => at({ path, message })) });
    }
    const pending = pendingFeatures(options);
    if (pending.length > 0) {
      throw new ApiError('UNSUPPORTED_OPTION', { message: pending.map((p) => p.message).join('; '), details: pending.map(at) });
    }
  }

  private modelSession(ctx: ScrapeContext, scrapeId: string, started: number, o: ScrapeOptions): ModelSession | undefined {
    return this.deps.model?.session({ teamId: ctx.teamId, keyId: ctx.keyId, requestId: scrapeId, deadline: started + o.timeout - MODEL_MARGIN_MS, signal: ctx.signal });
  }

  /**
   * The formats that read the finished page (json, summary, ...), after `onlyCleanContent`;
   * their output is cached with the page. Warnings gather in `warning`.
   */
  private async pageFormats(doc: Document, page: PageMaterial, o: ScrapeOptions, ctx: ScrapeContext, scrapeId: string, started: number): Promise<void> {
    if (!o.onlyCleanContent && !hasPageStage(o)) return;
    const warnings: string[] = doc.warning ? [doc.warning] : [];
    const model = this.modelSession(ctx, scrapeId, started, o);
    const env: StageEnv = { teamId: ctx.teamId, model, changeTracker: this.deps.changeTracker, warn: (m) => warnings.push(m) };
    if (o.onlyCleanContent) {
      page.markdown = await cleanContent(page.markdown, model, env);
      if (doc.markdown !== undefined) doc.markdown = page.markdown;
    }
    await runStage('page', o.formats, doc, page, env);
    doc.metadata.creditsUsed += extraCredits(o.formats.filter((f) => formatOf(f.type).stage !== 'post'));
    if (warnings.length) doc.warning = warnings.join(' ');
  }

  /**
   * A fresh scrape that may stop before the transform: the prior validators go out as
   * If-None-Match / If-Modified-Since, and a 304, or a body byte-identical to the prior one,
   * ends it as unchanged. The cache is neither read nor written: a check wants the page as it is.
   */
  async revalidate(rawUrl: string, requested: ScrapeOptions, ctx: ScrapeContext, prior: PriorFetch): Promise<RevalidateResult> {
    return this.forTeam(requested, ctx, (team) => this.revalidateFor(rawUrl, team, ctx, prior));
  }

  private async revalidateFor(rawUrl: string, team: TeamScrape, ctx: ScrapeContext, prior: PriorFetch): Promise<RevalidateResult> {
    const options = team.o;
    const url = normaliseTargetUrl(rawUrl);
    const conditional: Record<string, string> = {};
    if (prior.etag) conditional['If-None-Match'] = prior.etag;
    if (prior.lastModified) conditional['If-Modified-Since'] = prior.lastModified;
    const withValidators = Object.keys(conditional).length ? { ...options, headers: { ...conditional, ...(options.headers ?? {}) } } : options;
    // No transform with the fetch: an unchanged page needs none.
    const { result, proxy } = await this.fetchPage(url, withValidators, ctx, false, undefined, team.guard);
    const bodyHash = createHash('sha256').update(result.body).digest('hex');
    if (result.status === 304 || (prior.bodyHash === bodyHash && result.status < 400)) return { unchanged: true };
    const started = Date.now();
    const scrapeId = randomUUID();
    const { doc, page } = await this.buildDocument(rawUrl, result, proxy, options, ctx);
    await this.pageFormats(doc, page, options, ctx, scrapeId, started);
    this.threatOutcome(doc, team);
    const validators = { etag: result.headers['etag'] ?? null, lastModified: result.headers['last-modified'] ?? null, bodyHash };
    return { unchanged: false, doc: await this.finish(doc, scrapeId, ctx, options, true, started), validators };
  }

  /** Cache rules: `lockdown` and `minAge` never go out; `maxAge` reuses a young enough copy. */
  private async fromCache(url: string, cacheKey: string, o: ScrapeOptions, ctx: ScrapeContext): Promise<Document | undefined> {
    const entry = await this.deps.documents.getCached(ctx.teamId, cacheKey);
    const age = entry ? Date.now() - entry.storedAt : Infinity;
    const maxAge = effectiveMaxAge(o);
    if (o.lockdown) {
      // The URL is deliberately left out of the error: lockdown callers ask for no trace of it.
      if (!entry || age > maxAge) throw new ApiError('SCRAPE_LOCKDOWN_CACHE_MISS');
    } else if (o.minAge !== undefined) {
      if (!entry || age < o.minAge) throw new ApiError('SCRAPE_NO_CACHED_DATA', { details: { url } });
    } else if (!entry || age > maxAge) {
      return undefined;
    }
    const doc = entry!.document;
    doc.metadata = { ...doc.metadata, cacheState: 'hit', cachedAt: new Date(entry!.storedAt).toISOString() };
    return doc;
  }

  /** Runs `fetch` holding the named profile (if any): its state goes in, the new state is saved after. */
  private async withProfile<T extends { result: FetchResult }>(
    o: ScrapeOptions,
    ctx: ScrapeContext,
    holder: string,
    fetch: (state: BrowserStorageState | undefined) => Promise<T>,
  ): Promise<T> {
    if (!o.profile) return fetch(undefined);
    if (!this.deps.profiles) throw new ApiError('UNSUPPORTED_OPTION', { message: 'Browser profiles are not available on this server' });
    const hold = await this.deps.profiles.hold(ctx.teamId, o.profile.name, o.profile.saveChanges, holder);
    let saved: BrowserStorageState | undefined;
    try {
      const out = await fetch(hold.state ?? { cookies: [], origins: [] });
      saved = out.result.storageState;
      return out;
    } finally {
      await hold.release(saved);
    }
  }

  /** `transform`: the engine may run the page's transform with the fetch (see FetchRequest.transform). */
  private async fetchPage(
    url: string,
    o: ScrapeOptions,
    ctx: ScrapeContext,
    transform: boolean,
    state?: BrowserStorageState,
    guard?: TeamGuard,
  ): Promise<{ result: FetchResult; proxy: ProxyAttempt }> {
    const deadline = Date.now() + o.timeout;
    const attempts = proxyAttempts(this.deps.proxies, o.proxy, o.location?.country);
    let last: { result: FetchResult; proxy: ProxyAttempt } | undefined;
    const fallback = !o.fastMode && this.deps.browser !== undefined;
    // The text is wanted after the transform for rawHtml, and for the block check below when
    // another attempt could follow.
    const fetchTransform = (checkJavaScript: boolean): FetchTransform | undefined =>
      transform ? { ...pageTransform(o), keepText: attempts.length > 1 || neededBy(o.formats).html, checkJavaScript } : undefined;
    for (const [i, proxy] of attempts.entries()) {
      const engine = this.needsBrowser(o) ? this.browser() : this.deps.http;
      let result = await engine.fetch(this.request(url, o, proxy, deadline, ctx, state, fetchTransform(engine.name === 'http' && fallback), guard));
      if (engine.name === 'http' && fallback && isScriptShell(result)) {
        result = await this.browser().fetch(this.request(url, o, proxy, deadline, ctx, state, fetchTransform(false), guard));
      }
      last = { result, proxy };
      // The check reads the whole page, on the thread that runs every crawl: only worth it when
      // a block would send the request out again.
      if (i === attempts.length - 1 || !looksBlocked(result.status, result.text)) break;
    }
    return last!;
  }

  private needsBrowser(o: ScrapeOptions): boolean {
    return (
      o.waitFor > 0 ||
      o.mobile ||
      neededBy(o.formats).browser ||
      Boolean(o.actions?.length) ||
      o.profile !== undefined ||
      o.keepAlive === true
    );
  }

  private browser(): Engine {
    if (!this.deps.browser) {
      throw new ApiError('SCRAPE_ALL_ENGINES_FAILED', {
        message: 'This request needs a browser (screenshot, waitFor, mobile or a JavaScript-rendered page), and none is available on this server',
      });
    }
    return this.deps.browser;
  }

  private request(
    url: string,
    o: ScrapeOptions,
    proxy: ProxyAttempt,
    deadline: number,
    ctx: ScrapeContext,
    state: BrowserStorageState | undefined,
    transform: FetchTransform | undefined,
    guard: TeamGuard | undefined,
  ): BrowserFetchRequest {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new ApiError('SCRAPE_TIMEOUT');
    const headers = { ...(o.headers ?? {}) };
    // The location's language on every engine: its languages, else its country's usual one.
    const acceptLanguage = acceptLanguageFor(o.location);
    if (acceptLanguage && !Object.keys(headers).some((h) => h.toLowerCase() === 'accept-language')) {
      headers['Accept-Language'] = acceptLanguage;
    }
    const screenshot = o.formats.find((f) => f.type === 'screenshot');
    const req: BrowserFetchRequest = {
      url,
      headers,
      timeoutMs: remaining,
      skipTlsVerification: o.skipTlsVerification,
      mobile: o.mobile,
      waitForMs: o.waitFor,
      guard: guard ?? this.deps.guard,
    };
    if (proxy.url) req.proxyUrl = proxy.url;
    if (o.location) req.location = o.location;
    if (screenshot?.type === 'screenshot') {
      req.screenshot = { fullPage: screenshot.fullPage };
      if (screenshot.quality !== undefined) req.screenshot.quality = screenshot.quality;
      if (screenshot.viewport) req.screenshot.viewport = screenshot.viewport;
    }
    if (ctx.signal) req.signal = ctx.signal;
    if (o.actions?.length) req.actions = o.actions;
    if (o.blockAds) req.blockAds = true;
    if (neededBy(o.formats).styles) req.styles = true;
    if (o.keepAlive && ctx.keepPage) req.keepPage = ctx.keepPage;
    if (state) {
      req.storageState = state;
      req.captureStorageState = o.profile?.saveChanges === true;
    }
    if (transform) req.transform = transform;
    return req;
  }

  private transform(html: string, baseUrl: string, o: ScrapeOptions): Promise<TransformResult> {
    const { opts, wants } = pageTransform(o);
    return (this.deps.transformer ?? inlineTransformer).transform(html, { ...opts, baseUrl }, wants);
  }

  private async buildDocument(
    sourceURL: string,
    result: FetchResult,
    proxy: ProxyAttempt,
    o: ScrapeOptions,
    ctx: ScrapeContext,
  ): Promise<{ doc: Document; page: PageMaterial }> {
    const want = new Set(o.formats.map((f) => f.type));
    const doc: Document = {
      metadata: {
        sourceURL,
        url: result.url,
        statusCode: result.status,
        contentType: result.contentType,
        proxyUsed: proxy.tier,
        creditsUsed: 1,
      } as DocumentMetadata,
    };
    const text = result.text;
    const parsed = this.deps.parser && !result.transformed ? await parseFetched(this.deps.parser, result, o) : undefined;
    const t = result.transformed ?? (!parsed && text !== undefined && isHtml(result) ? await this.transform(text, result.url, o) : undefined);
    if (parsed) {
      applyParsed(doc, parsed, o);
    } else if (t) {
      // Object.assign rather than spreads: V8 builds an object spread followed by more properties
      // on a slow path, some microseconds a page on the thread that runs every crawl.
      doc.metadata = Object.assign({}, t.metadata, doc.metadata);
      if (want.has('markdown')) doc.markdown = t.markdown ?? '';
      if (want.has('html')) doc.html = t.html ?? '';
      if (want.has('links')) doc.links = t.links ?? [];
      if (want.has('images')) doc.images = t.images ?? [];
    } else if (text !== undefined) {
      // Plain text, JSON, XML that is not a web page: the text itself is the content.
      const isJson = /json/i.test(result.contentType);
      if (want.has('markdown')) doc.markdown = isJson ? '```json\n' + text.trim() + '\n```' : text;
      if (want.has('html')) doc.html = text;
      if (want.has('links')) doc.links = [];
      if (want.has('images')) doc.images = [];
    } else if ([...want].some((f) => f !== 'rawBase64' && f !== 'screenshot')) {
      throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', {
        message: `Unsupported file type: ${result.contentType || 'unknown binary content'}. Ask for the rawBase64 format to get the bytes.`,
        details: { contentType: result.contentType, url: result.url },
      });
    }
    const warnings = routingWarnings(this.deps.proxies, o, proxy);
    if (warnings.length > 0) doc.warning = warnings.join(' ');
    if (want.has('rawHtml')) doc.rawHtml = text ?? '';
    if (want.has('rawBase64')) doc.rawBase64 = result.body.toString('base64');
    if (result.screenshot) {
      const ref = await this.deps.blobs.put(ctx.teamId, result.screenshot.data, result.screenshot.mime);
      doc.screenshot = ctx.absoluteUrl(this.deps.blobs.urlPath(ref));
    }
    if (result.actions) {
      const link = async (data: Buffer, mime: string) => ctx.absoluteUrl(this.deps.blobs.urlPath(await this.deps.blobs.put(ctx.teamId, data, mime)));
      doc.actions = {
        screenshots: await Promise.all(result.actions.screenshots.map((s) => link(s.data, s.mime))),
        scrapes: result.actions.scrapes,
        javascriptReturns: result.actions.javascriptReturns,
        pdfs: await Promise.all(result.actions.pdfs.map((p) => link(p, 'application/pdf'))),
      };
    }
    const markdown = t?.markdown ?? parsed?.markdown ?? doc.markdown ?? '';
    return { doc, page: pageMaterial(markdown, text, result.url, result.styles) };
  }

  private async finish(doc: Document, scrapeId: string, ctx: ScrapeContext, o: ScrapeOptions, fresh: boolean, started: number): Promise<Document> {
    doc.metadata = Object.assign({}, doc.metadata, { scrapeId });
    // A cached page costs what it cost when fetched: its pages and its formats, as the cost table
    // prices them; entries stored before the count was kept are one page.
    if (!fresh) doc.metadata.creditsUsed = Math.max(COSTS.page, Number(doc.metadata.creditsUsed) || COSTS.page);
    // What runs on every answer, cached or fresh (changeTracking json), is charged on each.
    doc.metadata.creditsUsed += extraCredits(o.formats.filter((f) => formatOf(f.type).stage === 'post'));
    const warnings: string[] = doc.warning ? [doc.warning] : [];
    const env: StageEnv = { teamId: ctx.teamId, model: this.modelSession(ctx, scrapeId, started, o), changeTracker: this.deps.changeTracker, warn: (m) => warnings.push(m) };
    await runStage('post', o.formats, doc, pageMaterial(doc.markdown ?? '', undefined, doc.metadata.url), env);
    // Last, so that no text output (cached or fresh) leaves unredacted.
    if (o.redactPII) await redactDocument(doc, normaliseRedact(o.redactPII, o.location?.country), env.model, env.warn);
    if (warnings.length) doc.warning = warnings.join(' ');
    if (ctx.charge) doc.metadata.creditsUsed = await ctx.charge(doc);
    // Lockdown callers ask that no trace of the request be kept, as zero data retention does.
    if (!o.zeroDataRetention && !o.lockdown && ctx.record !== false) await this.deps.documents.recordScrape(scrapeId, ctx.teamId, doc.metadata.sourceURL, doc);
    if (fresh && !o.zeroDataRetention && o.storeInCache && this.deps.indexer) await this.deps.indexer.index(ctx.teamId, doc);
    return doc;
  }
}

const inlineTransformer = createTransformer(0);

/** Whether any requested format runs on the finished page (a crawl of plain markdown skips the stage). */
const hasPageStage = memoByObject((o: ScrapeOptions) => o.formats.some((f) => formatOf(f.type).stage === 'page'));

/** Two requests share a cache entry when they would produce the same Document. */
function cacheKeyFor(url: string, o: ScrapeOptions): string {
  const shaping = {
    url,
    formats: o.formats,
    onlyMainContent: o.onlyMainContent,
    // The cached page carries the clean-up's result (redaction is applied after the cache).
    onlyCleanContent: o.onlyCleanContent,
    includeTags: o.includeTags ?? [],
    excludeTags: o.excludeTags ?? [],
    removeBase64Images: o.removeBase64Images,
    blockAds: o.blockAds,
    mobile: o.mobile,
    waitFor: o.waitFor,
    location: o.location ?? null,
    parsers: o.parsers ?? null,
  };
  return createHash('sha256').update(JSON.stringify(shaping)).digest('hex');
}
