/**
 * Wires the long-lived parts (store, engines, guard, limits) from a Config, once per process.
 * The HTTP app, the workers, `gleaner scrape` and tests build on a Runtime; the operator's
 * account commands only on the AccountsRuntime it extends. `close()` releases everything.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AppServices } from './http/app.js';
import type { Logger } from 'pino';
import { chargeBrowserSession } from './billing/charges.js';
import { queueStatus } from './billing/queue-status.js';
import { SELF_HOSTED_PLAN, plans } from './billing/plans.js';
import type { Config } from './config.js';
import { RateLimits } from './http/rate-limit.js';
import { BrowserEngine } from './scrape/engines/browser.js';
import { findChromium } from './scrape/engines/chromium.js';
import { HttpEngine } from './scrape/engines/http.js';
import { ThreadedHttpEngine } from './scrape/engines/threaded-http.js';
import type { Document } from './core/document.js';
import { Scraper } from './scrape/pipeline.js';
import type { Engine } from './scrape/types.js';
import { AddressPolicy, SsrfGuard } from './security/ssrf.js';
import { accountsOn, openConfiguredStore, type AccountsRuntime, type ConfiguredStoreOptions } from './accounts-runtime.js';
import { connectRedis } from './startup.js';
import { BlobStore } from './store/blobs.js';
import { DocumentRepository } from './store/documents.js';
import { MapService } from './crawl/map.js';
import { CrawlRunner, type CrawlTask } from './crawl/runner.js';
import { CrawlService } from './crawl/service.js';
import { CrawlRepository } from './crawl/store.js';
import { createQueueFactory } from './jobs/index.js';
import { createFetchingThreads, createTransformer } from './scrape/threads/pool.js';
import { DocumentParser } from './parse/service.js';
import type { JobQueue, QueueFactory } from './jobs/queue.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { createMonitors, type Monitors } from './monitor/index.js';
import type { MonitorService } from './monitor/service.js';
import { SnapshotChangeTracker } from './monitor/change-tracking.js';
import { MonitorRepository } from './monitor/store.js';
import { BrowserSessions } from './browser/sessions.js';
import { ProfileStore } from './browser/profiles.js';
import { createSearch, type Search } from './search/index.js';
import { searchForMonitor } from './search/monitor-target.js';
import type { SearchService } from './search/service.js';
import { ModelProvider } from './llm/provider.js';
import { MemoryTokenLedger, type TokenLedger } from './llm/usage.js';
import { COSTS } from './billing/costs.js';
import { ThreatProtection } from './security/threat/service.js';

/** Everything a process runs on; the API (AppServices) and the workers (workers.ts) read from it. */
export interface Runtime extends AppServices, AccountsRuntime {
  config: Config;
  log: Logger;
  documents: DocumentRepository<Document>;
  blobs: BlobStore;
  guard: SsrfGuard;
  http: Engine;
  browser: Engine | undefined;
  scraper: Scraper;
  parser: DocumentParser;
  limits: RateLimits;
  threat: ThreatProtection;
  redis: Redis | undefined;
  queues: QueueFactory;
  crawlQueue: JobQueue<CrawlTask>;
  webhooks: WebhookDispatcher;
  crawlRepo: CrawlRepository;
  crawls: CrawlService;
  crawlRunner: CrawlRunner;
  monitors: Monitors;
  monitorService: MonitorService;
  mapper: MapService;
  searchService: SearchService;
  storeReady(): Promise<void>;
  /** Interactive browser sessions and the profiles they (and scrapes) use. */
  browserSessions: BrowserSessions;
  profiles: ProfileStore;
  /** Web search (SearXNG when configured) and the local index of fetched pages. */
  search: Search;
  /** The language model, when one is configured; token counts either way. */
  model: ModelProvider | undefined;
  tokens: TokenLedger;
  /** Stops taking jobs; running ones get `drainMs` to finish before they are handed back. */
  close(drainMs?: number): Promise<void>;
}

export interface RuntimeOptions extends ConfiguredStoreOptions {
  /** Redis key prefix (tests use one per run). */
  redisPrefix?: string;
}

export async function createRuntime(config: Config, log: Logger, opts: RuntimeOptions = {}): Promise<Runtime> {
  const { store, classifier } = await openConfiguredStore(config, opts);
  let redis: Redis | undefined;
  try {
    redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  } catch (e) {
    await store.close();
    throw e;
  }
  redis?.on('error', (err: unknown) => log.warn({ err }, 'redis connection error'));
  const guard = new SsrfGuard(new AddressPolicy(config.allowPrivateRanges));
  // With page threads, plain fetches run there and bring their transform back with them.
  const threads = createFetchingThreads(config.transformThreads, { allowedCidrs: config.allowPrivateRanges, maxResponseBytes: config.maxResponseBytes });
  const transformer = threads ?? createTransformer(0);
  const http: Engine = threads
    ? new ThreadedHttpEngine(threads, { shared: guard, engine: new HttpEngine({ guard, maxResponseBytes: config.maxResponseBytes }) })
    : new HttpEngine({ guard, maxResponseBytes: config.maxResponseBytes });
  const chromium = config.disableBrowser ? undefined : findChromium(config.chromiumPath);
  if (!chromium && !config.disableBrowser) {
    log.warn('No Chromium found (set CHROMIUM_PATH or install Debian package "chromium"): screenshots and JavaScript pages will fail');
  }
  const browser = chromium ? new BrowserEngine({ executablePath: chromium, maxContexts: config.browserContexts, maxResponseBytes: config.maxResponseBytes, logger: log }) : undefined;
  const documents = new DocumentRepository<Document>(store.db);
  const blobs = new BlobStore(store.db, config.dataDir, config.fileUrlTtlSeconds);
  const parser = new DocumentParser({ pdfThreads: config.pdfThreads });
  const changeTracker = new SnapshotChangeTracker(new MonitorRepository(store.db));
  const profiles = new ProfileStore(store.db);
  const search = createSearch(config, store, log);
  const planTable = plans(config.rateLimitPerMinute);
  const accounts = accountsOn(config, store);
  const { ledger, teamPolicies } = accounts;
  // Token counts go to the credit ledger too, where the usage endpoints read them.
  const tokens = new MemoryTokenLedger((use) => {
    const cause = `tokens:${use.requestId}:${randomUUID()}`;
    ledger.recordTokens({ teamId: use.teamId, keyId: use.keyId ?? null, cause, tokens: use.promptTokens + use.completionTokens }).catch((err: unknown) => log.warn({ err }, 'token usage not recorded'));
  });
  const model = config.model ? new ModelProvider(config.model, tokens) : undefined;
  const threat = new ThreatProtection({ policies: teamPolicies, base: guard, classifier, ledger: { charge: (c) => ledger.charge(c) }, scanCredits: COSTS.threatScan });
  const scraper = new Scraper({
    http,
    browser,
    guard,
    documents,
    blobs,
    proxies: config.proxies,
    cacheMaxDocumentChars: config.cacheMaxDocumentChars,
    transformer,
    parser,
    changeTracker,
    profiles,
    ...search.scraperDeps,
    ...(model ? { model } : {}),
    threat,
  });
  search.useScraper(scraper);
  const browserSessions = new BrowserSessions({
    charge: (ended) => chargeBrowserSession(ledger, ended),
    engine: browser,
    guard,
    db: store.db,
    profiles,
    blobs,
    log,
    maxPerTeam: config.browserSessionsPerTeam,
    executeMemoryBytes: config.browserExecuteMemoryBytes,
    maxOutputChars: 1024 * 1024,
    // A value larger than the sandbox could hold is of no use to the code that asked for it.
    maxValueChars: Math.min(config.maxResponseBytes, Math.floor(config.browserExecuteMemoryBytes / 4)),
    teamGuard: (teamId) => threat.sessionGuard(teamId, undefined),
  });
  const redisPrefix = opts.redisPrefix ?? config.redisPrefix;
  const limits = new RateLimits(planTable, redis, redisPrefix);
  const queues = await createQueueFactory({
    db: store.db,
    ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
    redisPrefix,
    log,
    ...(config.jobLeaseMs !== undefined ? { leaseMs: config.jobLeaseMs } : {}),
  });
  const crawlQueue = queues.queue<CrawlTask>('crawl');
  const webhooks = new WebhookDispatcher({ db: store.db, guard, log });
  const crawlRepo = new CrawlRepository(store.db, store.dialect);
  const crawls = new CrawlService({ repo: crawlRepo, queue: crawlQueue, webhooks, guard, ttlMs: config.jobTtlMs, refuseUnavailable: (o, prefix) => scraper.refuseUnavailable(o, prefix) });
  const crawlRunner = new CrawlRunner({
    repo: crawlRepo,
    scraper,
    http,
    guard,
    webhooks,
    queue: crawlQueue,
    log,
    hostConcurrency: config.hostConcurrency,
    maxLinksPerPage: config.crawlMaxLinksPerPage,
    ledger,
  });
  const monitors = createMonitors({
    config,
    log,
    store,
    queues,
    scraper,
    crawls,
    crawlRepo,
    webhooks,
    guard,
    search: async (teamId, target, signal) => {
      // A monitor's results meet the team's threat rules as a search request's do.
      const guard = await threat.guardFor(teamId, undefined);
      return searchForMonitor(search.service, teamId, target, signal, guard ? (urls) => threat.screen(guard, teamId, undefined, urls) : undefined);
    },
    ...(model ? { model } : {}),
    ledger,
  });
  let closed = false;
  return {
    config,
    log,
    store,
    ...accounts,
    documents,
    blobs,
    guard,
    http,
    browser,
    scraper,
    parser,
    limits,
    threat,
    queueStatus: (teamId, maxConcurrency) => queueStatus(store.db, teamId, maxConcurrency),
    redis,
    queues,
    crawlQueue,
    webhooks,
    crawlRepo,
    crawls,
    crawlRunner,
    monitors,
    monitorService: monitors.service,
    mapper: new MapService({ scraper, http, guard, indexedUrls: (teamId, prefixes, limit) => search.index.urls(teamId, prefixes, limit) }),
    searchService: search.service,
    storeReady: () => store.ping(),
    browserSessions,
    profiles,
    search,
    model,
    tokens,
    async close(drainMs = 0) {
      if (closed) return;
      closed = true;
      monitors.stop();
      await browserSessions.close();
      await queues.close(drainMs);
      await webhooks.close();
      await Promise.allSettled([http.close(), browser?.close(), transformer.close(), parser.close()]);
      if (redis) redis.disconnect();
      await search.close();
      await store.close();
    },
  };
}

/**
 * First start of a fresh installation: make a team and a key. The key comes from
 * `GLEANER_API_KEY` when set (and is then always accepted); otherwise it is generated and
 * returned so the caller can print it once.
 */
export async function bootstrapKey(rt: Runtime): Promise<{ created: boolean; key?: string }> {
  const fromEnv = rt.config.bootstrapApiKey;
  if (fromEnv) {
    if (await rt.keys.authenticate(fromEnv)) return { created: false };
    const teamId = await rt.keys.ensureTeam('default', SELF_HOSTED_PLAN);
    await rt.keys.create({ teamId, name: 'from GLEANER_API_KEY', key: fromEnv });
    return { created: true };
  }
  if ((await rt.keys.count()) > 0) return { created: false };
  const teamId = await rt.keys.ensureTeam('default', SELF_HOSTED_PLAN);
  const { key } = await rt.keys.create({ teamId, name: 'first key' });
  return { created: true, key };
}
