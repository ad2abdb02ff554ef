/**
 * Runs one monitor check from the queue: every target through the existing pipeline (scrape
 * URLs with conditional requests; crawl through the crawl service), each page compared with its
 * last-seen version. A check with crawl targets starts their crawls, notes them on the check
 * row, and puts itself back on the queue with a delay until they have ended, so no worker is
 * held while a crawl runs; the run that finds them all ended does the comparing. The result, the new last-seen versions and the webhook events are written
 * in one transaction, so a check re-run after a crash reports its changes again rather than
 * losing them; email goes out after that commit.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { crawlRequestSchema } from '../crawl/options.js';
import { urlKey } from '../crawl/normalize.js';
import type { CrawlService } from '../crawl/service.js';
import { TERMINAL, type CrawlRepository } from '../crawl/store.js';
import { isApiError } from '../errors.js';
import type { JobQueue, QueueJob } from '../jobs/queue.js';
import type { Document } from '../core/document.js';
import { scrapeOptionsSchema, type ScrapeOptions } from '../scrape/options.js';
import type { Scraper } from '../scrape/pipeline.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { CHECK_NOT_PAID, CheckBilling, PAGE_NOT_PAID, pageCredits, type MonitorLedger, type PageResult } from './billing.js';
import { compareDocument, compareMode, failed, unchanged, removed, type CompareMode, type Comparison } from './compare.js';
import type { Mailer } from './mail.js';
import { checkSummaryEmail } from './mail.js';
import type { CrawlTarget, ScrapeTarget, SearchTarget, Target } from './schemas.js';
import {
  emptySummary,
  type CheckRecord,
  type CheckStatus,
  type MonitorRecord,
  type MonitorRepository,
  type PageRecord,
  type Snapshot,
  type Summary,
  type Trx,
} from './store.js';
import { checkJobId, checkTask, type MonitorTask } from './tasks.js';
import { checkView, pageEvent } from './views.js';
import { DEFAULT_JUDGE_OPTIONS, judgePages, judges, type Judged, type JudgeOptions } from './judge.js';
import type { ModelAccess } from '../llm/types.js';


export interface RunnerDeps {
  repo: MonitorRepository;
  scraper: Scraper;
  crawls: CrawlService;
  crawlRepo: CrawlRepository;
  /** The check's own queue: a check waiting for its crawls comes back through it. */
  queue: JobQueue<MonitorTask>;
  webhooks: WebhookDispatcher;
  mailer: Mailer | undefined;
  log: Logger;
  /** Base of absolute links in documents (screenshots); empty gives relative ones. */
  publicUrl: string;
  /** Pages of one scrape target fetched at once. */
  pageConcurrency?: number;
  /** Runs a search target's queries (search/monitor-target.ts); absent: search targets fail. */
  search?: MonitorSearch;
  /** The language model, when one is configured: changed pages are judged against the goal. */
  model?: ModelAccess;
  judge?: Partial<JudgeOptions>;
  /** Charges each checked page (billing.ts); absent: checks are not charged. */
  ledger?: MonitorLedger;
}

export type MonitorSearch = (teamId: string, target: SearchTarget, signal: AbortSignal) => Promise<{ urls: string[]; credits: number; warning?: string }>;

export const SEARCH_UNAVAILABLE = 'Search is not available in this process: this target was not checked';
const CRAWL_POLL_MS = 500;

/** The scope a target's last-seen versions live under. */
export const targetScope = (monitorId: string, targetId: string) => `m:${monitorId}:${targetId}`;
const keyOf = (url: string) => {
  try {
    return urlKey(url, { ignoreQueryParameters: false });
  } catch {
    return url;
  }
};

/** A crawl target's crawl, as the check row notes it while the check waits for it. */
interface CrawlStart {
  targetId: string;
  type: 'crawl';
  crawlId?: string;
  error?: string;
}

function crawlStarts(targetResults: readonly unknown[]): CrawlStart[] {
  return targetResults.filter((t): t is CrawlStart => typeof t === 'object' && t !== null && (t as CrawlStart).type === 'crawl');
}

interface PageOutcome {
  target: Target;
  url: string;
  cmp: Comparison;
  /** Charged for this page by this check (0 for pages not requested). */
  credits: number;
}

/** What a target's pages cost, added up for the check. */
const creditsOf = (pages: readonly PageOutcome[]) => pages.reduce((n, p) => n + p.credits, 0);

export class MonitorRunner {
  constructor(private readonly deps: RunnerDeps) {}

  async handle(job: QueueJob<MonitorTask>, signal: AbortSignal): Promise<void> {
    const { repo } = this.deps;
    const check = await repo.getCheck(job.data.checkId);
    if (!check || (check.status !== 'queued' && check.status !== 'running')) return;
    const monitor = await repo.getMonitor(check.monitorId);
    if (!monitor || monitor.status === 'deleted') {
      await repo.db.transaction().execute(async (trx) => {
        await repo.updateCheck(check.id, { status: 'failed', finishedAt: Date.now(), error: 'The monitor was deleted before the check ran' }, trx);
        await this.releaseMonitor(trx, check.monitorId, check.id, null);
      });
      return;
    }
    const billing = new CheckBilling(this.deps.ledger, monitor.teamId, check.id);
    if (check.status === 'queued') {
      const startedAt = Date.now();
      if (!(await repo.startCheck(check.id, startedAt))) return;
      await repo.db.updateTable('monitors').set({ last_run_at: startedAt, current_check_id: check.id }).where('id', '=', monitor.id).execute();
      // A team that cannot pay gets a failed check saying why, before anything is fetched.
      if (!(await billing.canPay())) return this.finish(monitor, check, [], [], [CHECK_NOT_PAID], [], 0);
    }
    const crawls = await this.startCrawls(monitor, check);
    if (await this.anyRunning(crawls.values())) {
      // A fresh id: this run's own id is still pending until it returns, and would swallow the add.
      await this.deps.queue.addBulk([checkTask(monitor.teamId, check.id, { id: `${checkJobId(check.id)}.wait.${randomUUID()}`, delayMs: CRAWL_POLL_MS })]);
      return;
    }

    const outcomes: PageOutcome[] = [];
    const targetResults: unknown[] = [];
    const targetErrors: string[] = [];
    let credits = 0;
    for (const target of monitor.targets) {
      if (signal.aborted) throw new Error('aborted');
      if (target.type === 'scrape') {
        const { pages, scrapeIds } = await this.scrapeTarget(monitor, target, billing, signal);
        outcomes.push(...pages);
        credits += creditsOf(pages);
        targetResults.push({ targetId: target.id, type: 'scrape', expectedJobs: scrapeIds });
      } else if (target.type === 'crawl') {
        const r = await this.crawlTarget(monitor, target, crawls.get(target.id));
        outcomes.push(...r.pages);
        credits += r.credits;
        targetResults.push({ targetId: target.id, type: 'crawl', ...(r.crawlId ? { crawlId: r.crawlId } : {}), ...(r.error ? { error: r.error } : {}) });
        if (r.error) targetErrors.push(`target ${target.id}: ${r.error}`);
      } else {
        const r = await this.searchTarget(monitor, target, billing, signal);
        outcomes.push(...r.pages);
        credits += creditsOf(r.pages);
        targetResults.push(r.result);
        if (r.error) targetErrors.push(`target ${target.id}: ${r.error}`);
      }
    }
    const judged = await this.judge(monitor, check.id, outcomes, signal);
    await this.finish(monitor, check, outcomes, targetResults, targetErrors, judged, credits);
  }

  /** Each changed page judged against the goal, when the monitor has one and a model is configured. */
  private async judge(monitor: MonitorRecord, checkId: string, outcomes: PageOutcome[], signal: AbortSignal): Promise<(Judged | undefined)[]> {
    if (!this.deps.model || !judges(monitor)) return [];
    const pages = outcomes.map((o) => ({ url: o.url, status: o.cmp.status, diff: o.cmp.diff }));
    const judged = await judgePages(this.deps.model, { teamId: monitor.teamId, checkId, goal: monitor.goal! }, pages, signal, { ...DEFAULT_JUDGE_OPTIONS, ...this.deps.judge });
    const failed = judged.filter((j) => j?.warning).length;
    if (failed) this.deps.log.warn({ checkId, failed, warning: judged.find((j) => j?.warning)?.warning }, 'monitor pages left unjudged');
    return judged;
  }

  private async scrapeTarget(monitor: MonitorRecord, target: ScrapeTarget, billing: CheckBilling, signal: AbortSignal): Promise<{ pages: PageOutcome[]; scrapeIds: string[] }> {
    const pages = await this.checkUrls(monitor, target, target.urls, checkOptions(target.scrapeOptions), billing, signal);
    const scrapeIds = pages.map((p) => p.cmp.currentScrapeId).filter((id): id is string => id !== null);
    return { pages, scrapeIds };
  }

  /** Each URL checked against its last-seen version, a bounded number at a time. */
  private async checkUrls(
    monitor: MonitorRecord,
    target: Target,
    urls: readonly string[],
    options: ScrapeOptions,
    billing: CheckBilling,
    signal: AbortSignal,
  ): Promise<PageOutcome[]> {
    const scope = targetScope(monitor.id, target.id);
    const mode = targetMode(target);
    const pages: PageOutcome[] = new Array(urls.length);
    let next = 0;
    const worker = async () => {
      while (next < urls.length) {
        const i = next++;
        const url = urls[i]!;
        const key = keyOf(url);
        const prior = await this.deps.repo.snapshot(scope, key);
        // Checked before each page, so a check that runs out stops short by the pages in flight.
        if (!(await billing.canPay())) {
          pages[i] = { target, url, cmp: failed(prior, PAGE_NOT_PAID), credits: 0 };
          continue;
        }
        const { cmp, result } = await this.checkUrl(monitor, prior, url, options, mode, signal);
        pages[i] = { target, url, cmp, credits: await billing.page(target.id, key, pageCredits(result, options)) };
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.deps.pageConcurrency ?? 8, urls.length) }, worker));
    return pages;
  }

  /**
   * Runs the target's queries, then checks every page in the result set like a scrape target's;
   * pages of the last set that the search no longer finds are `removed`.
   */
  private async searchTarget(
    monitor: MonitorRecord,
    target: SearchTarget,
    billing: CheckBilling,
    signal: AbortSignal,
  ): Promise<{ pages: PageOutcome[]; result: Record<string, unknown>; error?: string }> {
    const result: Record<string, unknown> = { targetId: target.id, type: 'search', searchCompleted: false, resultCount: 0, matches: 0, judgeDegraded: false, degradedReason: null, searchCredits: 0, judgeCredits: 0, resultsJudged: 0 };
    let found: Awaited<ReturnType<MonitorSearch>>;
    try {
      if (!this.deps.search) throw new Error(SEARCH_UNAVAILABLE);
      found = await this.deps.search(monitor.teamId, target, signal);
    } catch (e) {
      if (signal.aborted) throw e;
      const error = errorText(e);
      return { pages: [], result: { ...result, error }, error };
    }
    const options = checkOptions((target as { scrapeOptions?: Record<string, unknown> }).scrapeOptions);
    const pages = await this.checkUrls(monitor, target, found.urls, options, billing, signal);
    const seen = new Set(found.urls.map(keyOf));
    const scope = targetScope(monitor.id, target.id);
    for (const s of await this.deps.repo.snapshotKeys(scope)) {
      if (seen.has(s.urlKey)) continue;
      const prior = await this.deps.repo.snapshot(scope, s.urlKey);
      if (prior) pages.push({ target, url: s.url, cmp: removed(prior, null, null, prior.metadata), credits: 0 });
    }
    // Every result is scraped by the check, and a scraped result costs as a scrape.
    Object.assign(result, { searchCompleted: true, resultCount: found.urls.length, matches: found.urls.length, searchCredits: creditsOf(pages) });
    if (found.warning) result.warning = found.warning;
    return { pages, result };
  }

  private async checkUrl(
    monitor: MonitorRecord,
    prior: Snapshot | undefined,
    url: string,
    options: ScrapeOptions,
    mode: CompareMode,
    signal: AbortSignal,
  ): Promise<{ cmp: Comparison; result: PageResult }> {
    try {
      if (readsCacheOnly(options)) {
        // What a scrape with these options would answer: the cached copy, or the catalog's miss.
        const doc = await this.deps.scraper.scrape(url, options, this.ctx(monitor, signal));
        return { cmp: compareDocument(prior, doc, null, Date.now(), url, mode), result: { doc } };
      }
      const r = await this.deps.scraper.revalidate(url, options, this.ctx(monitor, signal), prior ?? {});
      if (r.unchanged && prior) return { cmp: unchanged(prior, mode), result: { unchanged: true } };
      if (r.unchanged) return { cmp: failed(undefined, 'The page answered 304 Not Modified to a first request'), result: { unchanged: true } };
      return { cmp: compareDocument(prior, r.doc, r.validators, Date.now(), url, mode), result: { doc: r.doc } };
    } catch (e) {
      if (signal.aborted) throw e;
      return { cmp: failed(prior, errorText(e)), result: { error: e } };
    }
  }

  /**
   * Starts each crawl target's crawl as an ordinary crawl job, once per check: the check row
   * notes the crawls, so the runs that come back for them find them there.
   */
  private async startCrawls(monitor: MonitorRecord, check: CheckRecord): Promise<Map<string, CrawlStart>> {
    const started = new Map(crawlStarts(check.targetResults).map((s) => [s.targetId, s]));
    let added = false;
    for (const target of monitor.targets) {
      if (target.type !== 'crawl' || started.has(target.id)) continue;
      started.set(target.id, await this.startCrawl(monitor, target));
      added = true;
    }
    if (added) await this.deps.repo.updateCheck(check.id, { targetResults: [...started.values()] });
    return started;
  }

  private async startCrawl(monitor: MonitorRecord, target: CrawlTarget): Promise<CrawlStart> {
    try {
      const given = target.scrapeOptions ?? {};
      // A live crawl compares the pages as they are now; a cache-only one reads what it is asked to.
      const scrapeOptions = readsCacheOnly(scrapeOptionsSchema.parse(given)) ? given : { ...given, maxAge: 0 };
      const req = crawlRequestSchema.parse({ ...(target.crawlOptions ?? {}), url: target.url, scrapeOptions });
      const { id } = await this.deps.crawls.startCrawl(monitor.teamId, req, undefined, this.deps.publicUrl);
      return { targetId: target.id, type: 'crawl', crawlId: id };
    } catch (e) {
      return { targetId: target.id, type: 'crawl', error: errorText(e) };
    }
  }

  private async anyRunning(crawls: Iterable<CrawlStart>): Promise<boolean> {
    for (const c of crawls) {
      if (!c.crawlId) continue;
      const job = await this.deps.crawlRepo.jobs.get(c.crawlId);
      if (job && !TERMINAL.includes(job.status)) return true;
    }
    return false;
  }

  /** Compares what a target's ended crawl found with the pages seen before. */
  private async crawlTarget(
    monitor: MonitorRecord,
    target: CrawlTarget,
    start: CrawlStart | undefined,
  ): Promise<{ pages: PageOutcome[]; credits: number; crawlId?: string; error?: string }> {
    const scope = targetScope(monitor.id, target.id);
    const mode = targetMode(target);
    const crawlId = start?.crawlId;
    if (!crawlId) return { pages: [], credits: 0, error: start?.error ?? 'The crawl of this target was not started' };
    const pages: PageOutcome[] = [];
    const seen = new Set<string>();
    const now = Date.now();
    for (let skip = 0; ; ) {
      const rows = await this.deps.crawlRepo.results.page(crawlId, skip, 200);
      for (const r of rows) {
        const doc = JSON.parse(r.document) as Document;
        const url = doc.metadata.sourceURL;
        const key = keyOf(url);
        if (seen.has(key)) continue;
        seen.add(key);
        const prior = await this.deps.repo.snapshot(scope, key);
        // The crawl charged its pages itself; the check reports the crawl's total below.
        pages.push({ target, url, cmp: compareDocument(prior, doc, null, now, url, mode), credits: 0 });
      }
      skip += rows.length;
      if (rows.length < 200) break;
    }
    const { errors } = await this.deps.crawlRepo.frontier.errors(crawlId);
    for (const e of errors) {
      const key = keyOf(e.url);
      if (seen.has(key)) continue;
      seen.add(key);
      pages.push({ target, url: e.url, cmp: failed(await this.deps.repo.snapshot(scope, key), e.error), credits: 0 });
    }
    // Pages seen before that the crawl no longer reaches are gone from the site's link graph.
    for (const s of await this.deps.repo.snapshotKeys(scope)) {
      if (seen.has(s.urlKey)) continue;
      const prior = await this.deps.repo.snapshot(scope, s.urlKey);
      if (prior) pages.push({ target, url: s.url, cmp: removed(prior, null, null, prior.metadata), credits: 0 });
    }
    // A crawl that stopped (out of credits, say) keeps its pages; its reason is the target's error.
    const job = await this.deps.crawlRepo.jobs.get(crawlId);
    const credits = job?.creditsUsed ?? 0;
    return job?.status === 'failed' && job.error ? { pages, credits, crawlId, error: job.error } : { pages, credits, crawlId };
  }

  private ctx(monitor: MonitorRecord, signal: AbortSignal) {
    const base = this.deps.publicUrl;
    return { teamId: monitor.teamId, absoluteUrl: (p: string) => base + p, signal };
  }

  private async finish(
    monitor: MonitorRecord,
    check: CheckRecord,
    outcomes: PageOutcome[],
    targetResults: unknown[],
    targetErrors: string[],
    judged: (Judged | undefined)[],
    actualCredits: number,
  ): Promise<void> {
    const { repo, webhooks } = this.deps;
    const now = Date.now();
    const summary = emptySummary();
    const pages: PageRecord[] = outcomes.map((o, seq) => {
      summary.totalPages++;
      summary[o.cmp.status]++;
      return {
        id: randomUUID(),
        checkId: check.id,
        monitorId: monitor.id,
        targetId: o.target.id,
        seq,
        url: o.url,
        status: o.cmp.status,
        previousScrapeId: o.cmp.previousScrapeId,
        currentScrapeId: o.cmp.currentScrapeId,
        statusCode: o.cmp.statusCode,
        error: o.cmp.error,
        metadata: o.cmp.metadata,
        diff: o.cmp.diff,
        snapshot: o.cmp.snapshot,
        judgment: judged[seq]?.judgment ?? null,
        judgeWarning: judged[seq]?.warning ?? null,
        createdAt: now,
      };
    });
    const status = checkStatus(summary, targetErrors.length);
    const error = targetErrors.length ? targetErrors.join('; ') : summary.error > 0 ? `${summary.error} of ${summary.totalPages} pages failed` : null;
    let events = 0;
    await repo.db.transaction().execute(async (trx) => {
      for (const o of outcomes) {
        const scope = targetScope(monitor.id, o.target.id);
        const key = keyOf(o.url);
        const w = o.cmp.write;
        if (w.op === 'put') await repo.putSnapshot(scope, key, monitor.teamId, w.snapshot, trx);
        else if (w.op === 'touch') await repo.touchSnapshot(scope, key, now, trx);
        else if (w.op === 'delete') await repo.deleteSnapshot(scope, key, trx);
      }
      await repo.insertPages(pages, trx);
      await repo.updateCheck(check.id, { status, finishedAt: now, summary, targetResults, actualCredits, error }, trx);
      await this.releaseMonitor(trx, monitor.id, check.id, summary);
      if (monitor.webhook) {
        for (const p of pages) {
          if (p.status === 'same') continue;
          if (await webhooks.emit(monitor.teamId, monitor.webhook, { type: 'monitor.page', id: check.id, success: p.status !== 'error', data: [pageEvent(monitor.id, p)], ...(p.error ? { error: p.error } : {}) }, trx)) events++;
        }
        const done = await webhooks.emit(
          monitor.teamId,
          monitor.webhook,
          { type: 'monitor.check.completed', id: check.id, success: status === 'completed', data: [{ monitorId: monitor.id, checkId: check.id, status, summary }], ...(error ? { error } : {}) },
          trx,
        );
        if (done) events++;
      }
    });
    const notificationStatus: Record<string, unknown> = { webhook: monitor.webhook ? { queued: events } : null, email: null };
    const email = monitor.notification?.email;
    const noteworthy = summary.changed + summary.new + summary.removed + summary.error > 0 || targetErrors.length > 0;
    if (email?.enabled && email.recipients.length > 0 && noteworthy) {
      if (!this.deps.mailer) notificationStatus.email = { sent: false, error: 'No SMTP server is configured (SMTP_URL)' };
      else {
        try {
          const final = (await repo.getCheck(check.id))!;
          const msg = checkSummaryEmail(monitor, checkView(final), pages, email.includeDiffs);
          await this.deps.mailer.send({ to: email.recipients, ...msg });
          notificationStatus.email = { sent: true, recipients: email.recipients.length, at: new Date().toISOString() };
        } catch (e) {
          this.deps.log.warn({ err: e, checkId: check.id }, 'monitor email failed');
          notificationStatus.email = { sent: false, error: (e as Error).message };
        }
      }
    }
    await repo.updateCheck(check.id, { notificationStatus });
  }

  /** Clears the monitor's current check (only if it is this one) and records the summary. */
  private async releaseMonitor(trx: Trx, monitorId: string, checkId: string, summary: Summary | null): Promise<void> {
    await trx
      .updateTable('monitors')
      .set({ current_check_id: null, ...(summary ? { last_check_summary: JSON.stringify(summary) } : {}) })
      .where('id', '=', monitorId)
      .where('current_check_id', '=', checkId)
      .execute();
    if (summary) await trx.updateTable('monitors').set({ last_check_summary: JSON.stringify(summary) }).where('id', '=', monitorId).execute();
  }
}

/** completed: nothing failed; partial: something failed and something worked; failed: nothing worked. */
export function checkStatus(summary: Summary, failedTargets: number): CheckStatus {
  if (summary.error === 0 && failedTargets === 0) return 'completed';
  return summary.totalPages - summary.error > 0 ? 'partial' : 'failed';
}

/**
 * `lockdown` and `minAge` make a check read the cache as a scrape with them does, and never
 * fetch: lockdown promises no request to the site at all.
 */
export const readsCacheOnly = (o: ScrapeOptions): boolean => o.lockdown || o.minAge !== undefined;

/**
 * A target's scrape options for a check: markdown always (the diff needs it); the live page,
 * not a cached copy, unless the options read the cache only (then `maxAge` stays as given).
 * `storeInCache` stays as the target has it: it also decides whether the page goes into the
 * team's search index.
 */
export function checkOptions(raw: Record<string, unknown> | undefined): ScrapeOptions {
  const o = scrapeOptionsSchema.parse(raw ?? {});
  const formats = o.formats.filter((f) => f.type !== 'changeTracking');
  if (!formats.some((f) => f.type === 'markdown')) formats.push({ type: 'markdown' });
  return readsCacheOnly(o) ? { ...o, formats } : { ...o, formats, maxAge: 0 };
}

/** What the target's own formats ask to compare (before the check adds the markdown it needs). */
function targetMode(target: Target): CompareMode {
  const raw = (target as { scrapeOptions?: Record<string, unknown> }).scrapeOptions;
  return compareMode(scrapeOptionsSchema.parse(raw ?? {}).formats);
}

function errorText(e: unknown): string {
  if (isApiError(e)) return e.code ? `${e.message} (${e.code})` : e.message;
  return (e as Error)?.message ?? String(e);
}
