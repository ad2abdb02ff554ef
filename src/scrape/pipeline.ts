/**
 * The scrape pipeline: one URL and its options in, one Document out.
 *
 *   plan (URL, pending features, cache) -> fetch (engine, proxy tier) -> transform -> formats -> post
 *
 * Every feature that reads pages (crawl, batch, monitor, agent) calls `Scraper.scrape`; there is
 * no second fetcher.
 */
import { createHash, randomUUID } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { BlobStore } from '../store/blobs.js';
import type { DocumentRepository } from '../store/documents.js';
import type { Config } from '../config.js';
import type { SsrfGuard } from '../security/ssrf.js';
import { looksBlocked, needsJavaScript } from './detect.js';
import type { Document, DocumentMetadata } from './document.js';
import { pendingFeatures, type ScrapeOptions } from './options.js';
import { proxyAttempts, type ProxyAttempt } from './proxy.js';
import { transformPage } from './transform/index.js';
import type { Transformer } from './transform/pool.js';
import type { Engine, FetchRequest, FetchResult } from './types.js';
import { normaliseTargetUrl } from './url.js';

const LOCKDOWN_MAX_AGE_MS = 2 * 365 * 24 * 3600 * 1000;

export interface ScrapeContext {
  teamId: string;
  /** Turns a blob path (`/v2/files/...`) into the absolute URL handed to the client. */
  absoluteUrl(path: string): string;
  signal?: AbortSignal;
}

export interface ScraperDeps {
  http: Engine;
  /** Absent when the operator disabled the browser or no Chromium was found. */
  browser: Engine | undefined;
  guard: SsrfGuard;
  documents: DocumentRepository<Document>;
  blobs: BlobStore;
  proxies: Config['proxies'];
  /** Where extraction and markdown run; inline when absent. */
  transformer?: Transformer;
}

export class Scraper {
  constructor(private readonly deps: ScraperDeps) {}

  async scrape(rawUrl: string, options: ScrapeOptions, ctx: ScrapeContext): Promise<Document> {
    const pending = pendingFeatures(options);
    if (pending.length > 0) {
      throw new ApiError('UNSUPPORTED_OPTION', { message: pending.map((p) => p.message).join('; '), details: pending });
    }
    const url = normaliseTargetUrl(rawUrl);
    const scrapeId = randomUUID();
    const wantsScreenshot = options.formats.some((f) => f.type === 'screenshot');
    const cacheable =
      options.storeInCache && !options.headers && !options.zeroDataRetention && !wantsScreenshot;
    const cacheKey = cacheKeyFor(url, options);

    const consultCache = options.lockdown || options.minAge !== undefined || (options.maxAge > 0 && !options.headers && !wantsScreenshot);
    if (consultCache) {
      const cached = await this.fromCache(url, cacheKey, options, ctx);
      if (cached) return this.finish(cached, scrapeId, ctx, options, false);
    }

    const { result, proxy } = await this.fetchPage(url, options, ctx);
    const doc = await this.buildDocument(rawUrl, result, proxy, options, ctx);
    if (consultCache) doc.metadata.cacheState = 'miss';
    if (cacheable && result.status < 500) {
      await this.deps.documents.putCached(ctx.teamId, cacheKey, url, doc);
    }
    return this.finish(doc, scrapeId, ctx, options, true);
  }

  /** Cache rules: `lockdown` and `minAge` never go out; `maxAge` reuses a young enough copy. */
  private async fromCache(url: string, cacheKey: string, o: ScrapeOptions, ctx: ScrapeContext): Promise<Document | undefined> {
    const entry = await this.deps.documents.getCached(ctx.teamId, cacheKey);
    const age = entry ? Date.now() - entry.storedAt : Infinity;
    if (o.lockdown) {
      const maxAge = Math.max(o.maxAge, LOCKDOWN_MAX_AGE_MS);
      // The URL is deliberately left out of the error: lockdown callers ask for no trace of it.
      if (!entry || age > maxAge) throw new ApiError('SCRAPE_LOCKDOWN_CACHE_MISS');
    } else if (o.minAge !== undefined) {
      if (!entry || age < o.minAge) throw new ApiError('SCRAPE_NO_CACHED_DATA', { details: { url } });
    } else if (!entry || age > o.maxAge) {
      return undefined;
    }
    const doc = entry!.document;
    doc.metadata = { ...doc.metadata, cacheState: 'hit', cachedAt: new Date(entry!.storedAt).toISOString() };
    return doc;
  }

  private async fetchPage(url: string, o: ScrapeOptions, ctx: ScrapeContext): Promise<{ result: FetchResult; proxy: ProxyAttempt }> {
    const deadline = Date.now() + o.timeout;
    const attempts = proxyAttempts(this.deps.proxies, o.proxy, o.location?.country);
    let last: { result: FetchResult; proxy: ProxyAttempt } | undefined;
    for (const proxy of attempts) {
      const engine = this.needsBrowser(o) ? this.browser() : this.deps.http;
      let result = await engine.fetch(this.request(url, o, proxy, deadline, ctx));
      if (engine.name === 'http' && !o.fastMode && this.deps.browser && result.text !== undefined && isHtml(result) && needsJavaScript(result.text)) {
        result = await this.browser().fetch(this.request(url, o, proxy, deadline, ctx));
      }
      last = { result, proxy };
      if (!looksBlocked(result.status, result.text)) break;
    }
    return last!;
  }

  private needsBrowser(o: ScrapeOptions): boolean {
    return o.waitFor > 0 || o.mobile || o.formats.some((f) => f.type === 'screenshot');
  }

  private browser(): Engine {
    if (!this.deps.browser) {
      throw new ApiError('SCRAPE_ALL_ENGINES_FAILED', {
        message: 'This request needs a browser (screenshot, waitFor, mobile or a JavaScript-rendered page), and none is available on this server',
      });
    }
    return this.deps.browser;
  }

  private request(url: string, o: ScrapeOptions, proxy: ProxyAttempt, deadline: number, ctx: ScrapeContext): FetchRequest {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new ApiError('SCRAPE_TIMEOUT');
    const headers = { ...(o.headers ?? {}) };
    const languages = o.location?.languages;
    if (languages?.length && !Object.keys(headers).some((h) => h.toLowerCase() === 'accept-language')) {
      headers['Accept-Language'] = languages.map((l, i) => (i === 0 ? l : `${l};q=${Math.max(0.1, 1 - i * 0.1).toFixed(1)}`)).join(', ');
    }
    const screenshot = o.formats.find((f) => f.type === 'screenshot');
    const req: FetchRequest = {
      url,
      headers,
      timeoutMs: remaining,
      skipTlsVerification: o.skipTlsVerification,
      mobile: o.mobile,
      waitForMs: o.waitFor,
      guard: this.deps.guard,
    };
    if (proxy.url) req.proxyUrl = proxy.url;
    if (o.location) req.location = o.location;
    if (screenshot?.type === 'screenshot') {
      req.screenshot = { fullPage: screenshot.fullPage };
      if (screenshot.quality !== undefined) req.screenshot.quality = screenshot.quality;
      if (screenshot.viewport) req.screenshot.viewport = screenshot.viewport;
    }
    if (ctx.signal) req.signal = ctx.signal;
    return req;
  }

  private async buildDocument(
    sourceURL: string,
    result: FetchResult,
    proxy: ProxyAttempt,
    o: ScrapeOptions,
    ctx: ScrapeContext,
  ): Promise<Document> {
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
    if (text !== undefined && isHtml(result)) {
      const t = await (this.deps.transformer?.transform ?? transformInline)(
        text,
        {
          baseUrl: result.url,
          onlyMainContent: o.onlyMainContent,
          includeTags: o.includeTags ?? [],
          excludeTags: o.excludeTags ?? [],
          removeBase64Images: o.removeBase64Images,
        },
        { markdown: want.has('markdown'), html: want.has('html'), links: want.has('links'), images: want.has('images') },
      );
      doc.metadata = { ...t.metadata, ...doc.metadata };
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
    if (want.has('rawHtml')) doc.rawHtml = text ?? '';
    if (want.has('rawBase64')) doc.rawBase64 = result.body.toString('base64');
    if (result.screenshot) {
      const ref = await this.deps.blobs.put(ctx.teamId, result.screenshot.data, result.screenshot.mime);
      doc.screenshot = ctx.absoluteUrl(this.deps.blobs.urlPath(ref));
    }
    return doc;
  }

  private async finish(doc: Document, scrapeId: string, ctx: ScrapeContext, o: ScrapeOptions, fresh: boolean): Promise<Document> {
    doc.metadata = { ...doc.metadata, scrapeId };
    if (!fresh) doc.metadata.creditsUsed = 1;
    if (!o.zeroDataRetention) await this.deps.documents.recordScrape(scrapeId, ctx.teamId, doc.metadata.sourceURL, doc);
    return doc;
  }
}

const transformInline: Transformer['transform'] = (html, opts, wants) => Promise.resolve(transformPage(html, opts, wants));

const isHtml = (r: FetchResult) => /html|xml/i.test(r.contentType) || (!r.contentType && r.text !== undefined && /^\s*</.test(r.text));

/** Two requests share a cache entry when they would produce the same Document. */
function cacheKeyFor(url: string, o: ScrapeOptions): string {
  const shaping = {
    url,
    formats: o.formats,
    onlyMainContent: o.onlyMainContent,
    includeTags: o.includeTags ?? [],
    excludeTags: o.excludeTags ?? [],
    removeBase64Images: o.removeBase64Images,
    mobile: o.mobile,
    waitFor: o.waitFor,
    location: o.location ?? null,
  };
  return createHash('sha256').update(JSON.stringify(shaping)).digest('hex');
}
