/**
 * Runs crawl and batch tasks from the queue: a kickoff (robots.txt, sitemaps, the start URL) and
 * one task per page (politeness gate, the scrape pipeline, link discovery). Every step is
 * idempotent against the store, so a task that runs twice after a crash changes nothing twice.
 */
import type { Logger } from 'pino';
import { MINIMUM_CHARGE, scrapeCost } from '../billing/costs.js';
import type { CreditLedger } from '../billing/ledger.js';
import { ApiError, isApiError } from '../errors.js';
import { memoByObject } from '../memo.js';
import { isRetryable, taskItem, tasks, timedOut, type PayloadOf } from '../jobs/catalog.js';
import { ClaimLoop } from '../jobs/lease.js';
import type { JobQueue, QueueJob } from '../jobs/queue.js';
import type { Document } from '../core/document.js';
import type { ScrapeOptions } from '../scrape/options.js';
import type { Scraper } from '../scrape/pipeline.js';
import type { Engine, UrlGuard } from '../scrape/types.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { CrawlPlan } from './options.js';
import { HostGate } from './politeness.js';
import { parseRobots, fetchRobotsTxt, type Robots } from './robots.js';
import { patternError } from './patterns.js';
import { CrawlScope } from './scope.js';
import { discoverSitemapUrls } from './sitemap.js';
import { LinkFilter, type Link } from './link-filter.js';
import type { CrawlRecord, CrawlRepository, FrontierEntry, JobKind, JobStatus, PageOutcome, PageRow, Trx } from './store.js';

/** What the crawl queue carries: the catalog's crawl kickoff, crawl page and batch page tasks. */
export type CrawlTask = PayloadOf<'crawlKickoff'> | PayloadOf<'crawlPage'> | PayloadOf<'batchPage'>;

/** What a batch keeps of its request. */
export interface BatchPlan {
  scrapeOptions: ScrapeOptions;
  maxConcurrency?: number;
  filesBaseUrl?: string;
}

export type AnyPlan = CrawlPlan | BatchPlan;

export interface RunnerDeps {
  repo: CrawlRepository;
  scraper: Scraper;
  http: Engine;
  guard: UrlGuard;
  webhooks: WebhookDispatcher;
  queue: JobQueue<CrawlTask>;
  log: Logger;
  /** Charges each page in the transaction that stores it; absent, nothing is charged. */
  ledger?: CreditLedger;
  /** Requests in flight to one host for one job, unless the job asks for other. */
  hostConcurrency: number;
  /** Cap on URLs taken from sitemaps at kickoff. */
  maxSitemapUrls?: number;
  /** Cap on links a crawl takes from one page (default DEFAULT_MAX_LINKS_PER_PAGE). */
  maxLinksPerPage?: number;
}

/**
 * Links a crawl follows from one page, in document order. Every link costs parsing, the scope
 * and robots rules and a frontier write on the main thread: a page of 650,000 links held the
 * event loop for seconds. Real index pages stay well below this.
 */
export const DEFAULT_MAX_LINKS_PER_PAGE = 10_000;

export function taskId(t: CrawlTask): string {
  return t.kind === 'kickoff' ? `kickoff.${t.crawlId}` : `page.${t.crawlId}.${t.urlKey}`;
}

export function kickoffTask(teamId: string, crawlId: string) {
  const data: CrawlTask = { kind: 'kickoff', crawlId };
  return taskItem<CrawlTask>(tasks.crawlKickoff, teamId, data, { id: taskId(data) });
}

export function pageTasks(kind: JobKind, teamId: string, crawlId: string, entries: readonly FrontierEntry[]) {
  const spec = kind === 'crawl' ? tasks.crawlPage : tasks.batchPage;
  return entries.map((e) => {
    const data: CrawlTask = { kind: kind === 'crawl' ? 'page' : 'batch-page', crawlId, urlKey: e.urlKey };
    return taskItem<CrawlTask>(spec, teamId, data, { id: taskId(data) });
  });
}

/** Events carry the job kind in their name: `crawl.page`, `batch_scrape.completed`. */
export function eventType(kind: 'crawl' | 'batch', event: 'started' | 'page' | 'completed' | 'failed'): string {
  return `${kind === 'crawl' ? 'crawl' : 'batch_scrape'}.${event}`;
}

export class CrawlRunner {
  private readonly gate = new HostGate();
  /** Parsed robots.txt per job, so pages do not parse it again. */
  private readonly robotsCache = new Map<string, Robots | null>();
  private readonly records = new Map<string, CrawlRecord<AnyPlan>>();
  private recovery: ClaimLoop | undefined;

  constructor(private readonly deps: RunnerDeps) {}

  async handle(job: QueueJob<CrawlTask>, signal: AbortSignal): Promise<void> {
    if (job.data.kind === 'kickoff') {
      const crawl = await this.deps.repo.jobs.get<CrawlPlan>(job.data.crawlId);
      if (crawl?.status === 'scraping' && (await this.runnable(crawl))) await this.kickoff(crawl, signal);
      return;
    }
    const row = await this.deps.repo.frontier.page(job.data.crawlId, job.data.urlKey);
    if (!row || row.jobStatus !== 'scraping' || row.state !== 'pending') return;
    const crawl = await this.recordOf(job.data.crawlId);
    if (crawl && (await this.runnable(crawl))) await this.page(crawl, row, job.final, signal);
  }

  /**
   * Fails a job whose stored plan today's checks refuse (a path pattern an older version let in,
   * which could stall the worker), instead of running it; true when the job may run.
   */
  private async runnable(crawl: CrawlRecord<AnyPlan>): Promise<boolean> {
    const error = planError(crawl);
    if (error === undefined) return true;
    this.deps.log.warn({ crawlId: crawl.id, error }, 'stored crawl refused');
    await this.deps.repo.jobs.fail(crawl.id, error, (trx) => this.emitEnd(crawl, trx, 'failed', error));
    this.forget(crawl.id);
    return false;
  }

  /**
   * The job as its page tasks see it. What they read of it (plan, webhook, robots.txt, team) is
   * fixed once the kickoff is done, so it is read once per job; the status is read per page.
   */
  private async recordOf(crawlId: string): Promise<CrawlRecord<AnyPlan> | undefined> {
    let crawl = this.records.get(crawlId);
    if (!crawl) {
      crawl = await this.deps.repo.jobs.get<AnyPlan>(crawlId);
      if (!crawl) return undefined;
      remember(this.records, crawlId, crawl);
    }
    return crawl;
  }

  /** Seeds a crawl's frontier: the start URL and, unless skipped, its sitemaps. */
  private async kickoff(crawl: CrawlRecord<CrawlPlan>, signal: AbortSignal): Promise<void> {
    const plan = crawl.plan;
    const origin = new URL(crawl.url).origin;
    let robots: Robots | null = null;
    // Lockdown pages come from the cache only, and the site is never contacted: not for
    // robots.txt, not for sitemaps. The frontier grows from the cached pages' links.
    const lockdown = plan.scrapeOptions.lockdown;
    if (!plan.ignoreRobotsTxt && !lockdown) {
      const text = crawl.robotsTxt ?? (await fetchRobotsTxt(origin, this.deps.http, this.deps.guard, signal));
      if (crawl.robotsTxt === null) await this.deps.repo.jobs.setRobots(crawl.id, text);
      robots = parseRobots(origin, text);
      this.robotsCache.set(crawl.id, robots);
    }
    const seeds: Link[] = [];
    // The start URL is crawled whatever the path filters say; they steer what it leads to.
    if (plan.sitemap !== 'only') seeds.push({ url: crawl.url, depth: 0, start: true });
    if (plan.sitemap !== 'skip' && !lockdown) {
      try {
        const found = await discoverSitemapUrls(origin, robots?.sitemaps() ?? [], this.deps.http, this.deps.guard, {
          maxUrls: Math.min(crawl.limit * 4, this.deps.maxSitemapUrls ?? 100_000),
          maxSitemaps: 50,
          timeoutMs: 30_000,
          signal,
        });
        for (const s of found) seeds.push({ url: s.url, depth: 0 });
      } catch (e) {
        this.deps.log.warn({ crawlId: crawl.id, err: e }, 'sitemap discovery failed');
      }
    }
    const { admitted } = await this.admitLinks(crawl, seeds);
    await this.deps.queue.addBulk(pageTasks('crawl', crawl.teamId, crawl.id, admitted));
    await this.deps.repo.jobs.markKickoffDone(crawl.id);
    await this.finishIfDone(crawl);
  }

  /**
   * Scrapes one page and records its outcome. A failure another attempt may mend (the error
   * catalog's `retryable`, or the site answering 5xx) is thrown back to the queue, which runs the
   * page again after its backoff; on the last attempt, or for any other failure, the outcome is
   * recorded as it stands.
   */
  private async page(crawl: CrawlRecord<AnyPlan>, row: PageRow, final: boolean, signal: AbortSignal): Promise<void> {
    const key = row.urlKey;
    const plan = crawl.plan;
    const host = safeHost(row.url);
    if (this.deps.ledger && !(await this.deps.ledger.canPay(crawl.teamId, MINIMUM_CHARGE))) {
      await this.stopUnpaid(crawl);
      return;
    }
    const release = await this.gate.acquire(`${crawl.id}|${host}`, this.limitsFor(crawl), signal);
    let outcome: PageOutcome;
    let doc: Document | undefined;
    let links: string[] = [];
    try {
      const { options, wantsLinks } = pageOptions(crawl);
      const base = plan.filesBaseUrl ?? '';
      // The job keeps each page once, in its results, under the page's scrape id.
      doc = await this.deps.scraper.scrape(row.url, options, { teamId: crawl.teamId, absoluteUrl: (p) => base + p, signal, record: false, cause: `${crawl.id}:${key}` });
      const status = doc.metadata.statusCode;
      if (!final && status >= 500) throw new ApiError('SCRAPE_SITE_ERROR', { message: `The site answered ${status}; the page is tried again` });
      links = doc.links ?? [];
      if (!wantsLinks) delete doc.links;
      const cap = this.deps.maxLinksPerPage ?? DEFAULT_MAX_LINKS_PER_PAGE;
      if (links.length > cap) links = links.slice(0, cap);
      doc.metadata.creditsUsed = scrapeCost(doc, options);
      outcome = { document: JSON.stringify(doc), credits: doc.metadata.creditsUsed, ...(doc.metadata.scrapeId ? { scrapeId: doc.metadata.scrapeId } : {}) };
    } catch (e) {
      // Closing or a lost lease: the job runs again elsewhere. Past its timeout it is a failure.
      if (signal.aborted && !timedOut(signal)) throw e;
      if (!final && isRetryable(e)) throw e;
      outcome = isApiError(e) ? { error: e.message, ...(e.code ? { code: e.code } : {}) } : { error: (e as Error).message ?? String(e) };
      doc = undefined;
    } finally {
      release();
    }
    const next = crawl.kind === 'crawl' ? links.map((url) => ({ url, depth: row.depth + 1 })) : [];
    const admitted = await this.recordPage(crawl, key, outcome, doc, next);
    if (admitted?.length) await this.deps.queue.addBulk(pageTasks(crawl.kind, crawl.teamId, crawl.id, admitted));
  }

  /**
   * Stores the outcome and newly found links, and ends the job when that was its last page;
   * returns the admitted links, or undefined on a repeat.
   */
  private async recordPage(crawl: CrawlRecord<AnyPlan>, key: string, outcome: PageOutcome, doc: Document | undefined, links: Link[]): Promise<FrontierEntry[] | undefined> {
    const { allowed, blocked } = crawl.kind === 'crawl' ? this.linkFilterFor(crawl as CrawlRecord<CrawlPlan>).filter(links) : { allowed: [], blocked: [] };
    const res = await this.deps.repo.frontier.finishPage(
      crawl.id,
      key,
      outcome,
      { discovered: allowed, blocked },
      {
        onPage: async (trx) => {
          if (doc && this.deps.ledger) {
            await this.deps.ledger.charge({ teamId: crawl.teamId, cause: `${crawl.kind}:${crawl.id}:${key}`, credits: doc.metadata.creditsUsed }, trx);
          }
          if (doc && crawl.webhook) {
            await this.deps.webhooks.emit(crawl.teamId, crawl.webhook, { type: eventType(crawl.kind, 'page'), id: crawl.id, success: true, data: [doc] }, trx);
          }
        },
        onFinish: (trx, status) => this.emitEnd(crawl, trx, status),
      },
    );
    if (res?.finished) this.forget(crawl.id);
    return res?.admitted;
  }

  private async admitLinks(crawl: CrawlRecord<CrawlPlan>, links: Link[]): Promise<{ admitted: FrontierEntry[] }> {
    const { allowed, blocked } = this.linkFilterFor(crawl).filter(links);
    return { admitted: await this.deps.repo.frontier.admit(crawl.id, allowed, blocked) };
  }

  /** Scope rules first (silently dropped), then robots.txt (recorded as blocked); one per job. */
  private linkFilters = new Map<string, LinkFilter>();
  private linkFilterFor(crawl: CrawlRecord<CrawlPlan>): LinkFilter {
    let f = this.linkFilters.get(crawl.id);
    if (!f) {
      const p = crawl.plan;
      const scope = new CrawlScope(crawl.url, {
        includePaths: p.includePaths,
        excludePaths: p.excludePaths,
        regexOnFullURL: p.regexOnFullURL,
        allowExternalLinks: p.allowExternalLinks,
        allowSubdomains: p.allowSubdomains,
        crawlEntireDomain: p.crawlEntireDomain,
        ...(p.maxDiscoveryDepth !== undefined ? { maxDiscoveryDepth: p.maxDiscoveryDepth } : {}),
      });
      f = new LinkFilter(scope, this.robotsFor(crawl), p.ignoreQueryParameters);
      remember(this.linkFilters, crawl.id, f);
    }
    return f;
  }

  private robotsFor(crawl: CrawlRecord<CrawlPlan>): Robots | null {
    if (crawl.plan.ignoreRobotsTxt) return null;
    let r = this.robotsCache.get(crawl.id);
    if (r === undefined) {
      r = crawl.robotsTxt === null ? null : parseRobots(new URL(crawl.url).origin, crawl.robotsTxt);
      remember(this.robotsCache, crawl.id, r);
    }
    return r;
  }

  private limitsFor(crawl: CrawlRecord<AnyPlan>) {
    const plan = crawl.plan as Partial<CrawlPlan>;
    const robotsDelay = crawl.kind === 'crawl' ? (this.robotsFor(crawl as CrawlRecord<CrawlPlan>)?.crawlDelayMs() ?? 0) : 0;
    const intervalMs = plan.delaySeconds !== undefined ? plan.delaySeconds * 1000 : Math.min(robotsDelay, 60_000);
    return { concurrency: plan.maxConcurrency ?? this.deps.hostConcurrency, intervalMs };
  }

  /** Ends the job when nothing is pending; the one caller that ends it sends the final event. */
  async finishIfDone(crawl: CrawlRecord<AnyPlan>): Promise<JobStatus | undefined> {
    const status = await this.deps.repo.jobs.finishIfDone(crawl.id, (trx, st) => this.emitEnd(crawl, trx, st));
    if (status) this.forget(crawl.id);
    return status;
  }

  private async emitEnd(crawl: CrawlRecord<AnyPlan>, trx: Trx, status: JobStatus, error = 'Every page of the job failed'): Promise<void> {
    if (!crawl.webhook) return;
    const event = status === 'failed' ? 'failed' : 'completed';
    await this.deps.webhooks.emit(
      crawl.teamId,
      crawl.webhook,
      { type: eventType(crawl.kind, event), id: crawl.id, success: status !== 'failed', data: [], ...(status === 'failed' ? { error } : {}) },
      trx,
    );
  }

  /**
   * The team ran out of credits: the job ends as failed, saying so, and keeps the pages it has.
   * Pages already being scraped finish and are charged, so the overdraw is at most those.
   */
  private async stopUnpaid(crawl: CrawlRecord<AnyPlan>): Promise<void> {
    const error = 'Payment Required: Insufficient credits; the job stopped and kept the pages scraped so far';
    const stopped = await this.deps.repo.jobs.fail(crawl.id, error, async (trx) => {
      if (!crawl.webhook) return;
      await this.deps.webhooks.emit(crawl.teamId, crawl.webhook, { type: eventType(crawl.kind, 'failed'), id: crawl.id, success: false, data: [], error }, trx);
    });
    if (stopped) this.forget(crawl.id);
  }

  private forget(crawlId: string): void {
    this.records.delete(crawlId);
    this.robotsCache.delete(crawlId);
    this.linkFilters.delete(crawlId);
  }

  /** Looks for stalled jobs every `everyMs` in this process (worker side), until `stopRecovery`. */
  startRecovery(staleMs: number, everyMs: number): void {
    this.recovery ??= new ClaimLoop({
      step: async () => {
        await this.recoverStalled(staleMs);
        return false;
      },
      pollMs: everyMs,
      onError: (err) => this.deps.log.warn({ err }, 'recovering stalled crawls failed'),
      keepAlive: false,
    });
    if (!this.recovery.started) this.recovery.start();
  }

  stopRecovery(): Promise<void> {
    return this.recovery?.stop() ?? Promise.resolve();
  }

  /**
   * Re-queues the work of jobs that made no progress for a while: a task lost between a store
   * commit and its enqueue (a crash in that gap) would otherwise leave the job running forever.
   * Each stalled job is claimed by one process; task ids deduplicate against tasks still queued.
   */
  async recoverStalled(staleMs: number): Promise<void> {
    for (const id of await this.deps.repo.jobs.claimStalled(staleMs)) {
      const crawl = await this.deps.repo.jobs.get<AnyPlan>(id);
      if (!crawl) continue;
      if (!crawl.kickoffDone) {
        await this.deps.queue.addBulk([kickoffTask(crawl.teamId, id)]);
        continue;
      }
      const pending = await this.deps.repo.frontier.pendingPages(id, 10_000);
      if (pending.length === 0) await this.finishIfDone(crawl);
      else await this.deps.queue.addBulk(pageTasks(crawl.kind, crawl.teamId, id, pending));
    }
  }
}

/**
 * The scrape options of the job's pages: a crawl needs every page's links, asked for or not.
 * One object per job, so what the pipeline works out from the options it works out once.
 */
const pageOptions = memoByObject((crawl: CrawlRecord<AnyPlan>): { options: ScrapeOptions; wantsLinks: boolean } => {
  const o = crawl.plan.scrapeOptions;
  const wantsLinks = o.formats.some((f) => f.type === 'links');
  return { options: crawl.kind === 'crawl' && !wantsLinks ? { ...o, formats: [...o.formats, { type: 'links' }] } : o, wantsLinks };
});

/** Checked once per job record: page tasks share the record (recordOf). */
const planError = memoByObject((crawl: CrawlRecord<AnyPlan>): string | undefined => {
  if (crawl.kind !== 'crawl') return undefined;
  const plan = crawl.plan as Partial<CrawlPlan>;
  for (const [field, list] of [['includePaths', plan.includePaths], ['excludePaths', plan.excludePaths]] as const) {
    for (const p of list ?? []) {
      const why = patternError(p);
      if (why) return `${field}: ${why}`;
    }
  }
  return undefined;
});

/** Per-job caches stay small: a worker runs few jobs at once, and a miss costs one read. */
function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size > 500) cache.clear();
  cache.set(key, value);
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
