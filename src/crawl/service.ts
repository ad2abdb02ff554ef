/**
 * The API side of crawl and batch scrape: accept a job (validate, record, queue), report its
 * status page by page, cancel it, list its errors. Workers do the rest (runner.ts).
 */
import { randomUUID } from 'node:crypto';
import { ApiError, isApiError } from '../errors.js';
import type { JobQueue } from '../jobs/queue.js';
import type { ScrapeOptions } from '../scrape/options.js';
import { normaliseTargetUrl } from '../scrape/url.js';
import type { UrlGuard } from '../scrape/types.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { WebhookTarget } from '../webhooks/schema.js';
import { crawlPlanOf, type BatchRequest, type CrawlRequest } from './options.js';
import { eventType, kickoffTask, pageTasks, type BatchPlan, type CrawlTask } from './runner.js';
import type { CrawlRecord, CrawlRepository, FrontierEntry, JobKind, JobStatus } from './store.js';

/** Status pages stop growing past this many bytes of documents (at least one is always sent). */
const PAGE_BYTES = 10 * 1024 * 1024;
const DEFAULT_PAGE_SIZE = 100;
/** A batch has no discovery limit; this stays inside a 32-bit integer column. */
const BATCH_NO_LIMIT = 2_000_000_000;

export interface ServiceDeps {
  repo: CrawlRepository;
  queue: JobQueue<CrawlTask>;
  webhooks: WebhookDispatcher;
  guard: UrlGuard;
  ttlMs: number;
  /** Throws what the pipeline cannot do of these options (the Scraper's check), before a job is accepted. */
  refuseUnavailable: (o: ScrapeOptions, prefix: string) => void;
}

export interface JobStatusPage {
  status: JobStatus;
  completed: number;
  total: number;
  creditsUsed: number;
  expiresAt: string;
  next?: string;
  /**
   * The page's Documents as stored, JSON text each: the route splices them into its answer, so a
   * large Document is neither parsed nor serialised again on the event loop.
   */
  documents: string[];
  /** Why the job ended early (e.g. it ran out of credits). */
  error?: string;
}

export class CrawlService {
  constructor(private readonly deps: ServiceDeps) {}

  async startCrawl(teamId: string, req: CrawlRequest, idempotencyKey: string | undefined, filesBaseUrl: string): Promise<{ id: string }> {
    const url = normaliseTargetUrl(req.url);
    if (req.prompt !== undefined && req.prompt !== null) {
      throw new ApiError('UNSUPPORTED_OPTION', { message: "The 'prompt' option is not supported yet by this server", details: [{ path: 'prompt' }] });
    }
    this.deps.refuseUnavailable(req.scrapeOptions, 'scrapeOptions.');
    // Under lockdown nothing is fetched (pages come from the cache), so the host is not even
    // resolved: the guard still stands in front of every real fetch.
    if (!req.scrapeOptions.lockdown) await this.deps.guard.checkUrl(url);
    await this.claimIdempotencyKey(teamId, idempotencyKey);
    const id = randomUUID();
    await this.create({
      id,
      teamId,
      kind: 'crawl',
      url,
      plan: { ...crawlPlanOf(req), filesBaseUrl },
      webhook: req.webhook ?? null,
      limit: req.limit,
      kickoffDone: false,
      ...(idempotencyKey ? { idempotencyKey } : {}),
      ttlMs: this.deps.ttlMs,
    });
    await this.started(teamId, id, 'crawl', req.webhook);
    await this.deps.queue.addBulk([kickoffTask(teamId, id)]);
    return { id };
  }

  async startBatch(teamId: string, req: BatchRequest, idempotencyKey: string | undefined, filesBaseUrl: string): Promise<{ id: string; invalidURLs?: string[] }> {
    const { urls, webhook, appendToId, ignoreInvalidURLs, maxConcurrency, ...rest } = req;
    const scrapeOptions = rest as unknown as ScrapeOptions;
    this.deps.refuseUnavailable(scrapeOptions, '');
    const valid: string[] = [];
    const invalidURLs: string[] = [];
    let blocked = 0;
    for (const [i, raw] of urls.entries()) {
      try {
        const url = normaliseTargetUrl(raw);
        if (!scrapeOptions.lockdown) await this.deps.guard.checkUrl(url);
        valid.push(url);
      } catch (e) {
        if (!ignoreInvalidURLs) {
          if (isApiError(e) && e.key === 'INVALID_URL') {
            throw new ApiError('INVALID_URL', { details: [{ code: 'invalid_url', path: ['urls', i], message: `Invalid URL: ${raw}` }] });
          }
          throw e;
        }
        if (!(isApiError(e) && e.key === 'INVALID_URL')) blocked++;
        invalidURLs.push(raw);
      }
    }
    if (valid.length === 0 && !appendToId) {
      // Only unparseable URLs: the same INVALID_URL a single scrape of one answers.
      throw new ApiError(blocked === 0 ? 'INVALID_URL' : 'BAD_REQUEST', {
        message: 'No valid URLs to scrape',
        details: [{ code: 'invalid_urls', path: ['urls'], message: 'Every URL was invalid or blocked' }],
      });
    }
    let id: string;
    let offset = 0;
    if (appendToId) {
      const existing = await this.owned(teamId, appendToId);
      if (existing.kind !== 'batch') throw new ApiError('JOB_NOT_FOUND');
      if (existing.status !== 'scraping') throw new ApiError('CONFLICT', { message: 'The batch has already finished; start a new one' });
      id = existing.id;
      offset = existing.discovered;
    } else {
      await this.claimIdempotencyKey(teamId, idempotencyKey);
      id = randomUUID();
      const plan: BatchPlan = { scrapeOptions, filesBaseUrl, ...(maxConcurrency !== undefined ? { maxConcurrency } : {}) };
      await this.create({
        id,
        teamId,
        kind: 'batch',
        url: valid[0] ?? '',
        plan,
        webhook: webhook ?? null,
        limit: BATCH_NO_LIMIT,
        kickoffDone: true,
        ...(idempotencyKey ? { idempotencyKey } : {}),
        ttlMs: this.deps.ttlMs,
      });
      await this.started(teamId, id, 'batch', webhook);
    }
    // Every listed URL is scraped, repeats included, so each entry gets its own key.
    const entries: FrontierEntry[] = valid.map((url, i) => ({ urlKey: `${String(offset + i).padStart(6, '0')} ${url}`, url, depth: 0 }));
    const admitted = await this.deps.repo.frontier.admit(id, entries);
    await this.deps.queue.addBulk(pageTasks('batch', teamId, id, admitted));
    return ignoreInvalidURLs ? { id, invalidURLs } : { id };
  }

  async status(teamId: string, id: string, kind: JobKind, page: { skip?: number; limit?: number }, selfUrl: (skip: number, limit?: number) => string): Promise<JobStatusPage> {
    const job = await this.owned(teamId, id, kind);
    const skip = page.skip ?? 0;
    const limit = page.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.deps.repo.results.page(id, skip, limit);
    const documents: string[] = [];
    let bytes = 0;
    for (const r of rows) {
      if (documents.length > 0 && bytes + r.document.length > PAGE_BYTES) break;
      bytes += r.document.length;
      documents.push(r.document);
    }
    const stored = await this.deps.repo.results.count(id);
    const out: JobStatusPage = {
      status: job.status,
      completed: job.finished,
      total: job.discovered,
      creditsUsed: job.creditsUsed,
      expiresAt: new Date(job.expiresAt).toISOString(),
      documents,
    };
    if (job.status === 'failed' && job.error) out.error = job.error;
    // `next` only when stored documents remain: waiters follow it on every poll.
    if (stored > skip + documents.length) out.next = selfUrl(skip + documents.length, page.limit);
    return out;
  }

  async cancel(teamId: string, id: string, kind: JobKind): Promise<void> {
    const job = await this.owned(teamId, id, kind);
    if (job.status === 'cancelled') return;
    if (job.status !== 'scraping') throw new ApiError('CONFLICT', { message: `The job has already ${job.status === 'completed' ? 'completed' : 'failed'}` });
    await this.deps.repo.jobs.cancel(id, async (trx) => {
      if (!job.webhook) return;
      await this.deps.webhooks.emit(
        teamId,
        job.webhook,
        { type: eventType(job.kind, 'completed'), id, success: false, data: [], error: 'The job was cancelled' },
        trx,
      );
    });
  }

  async errors(teamId: string, id: string, kind: JobKind) {
    await this.owned(teamId, id, kind);
    return this.deps.repo.frontier.errors(id);
  }

  async active(teamId: string) {
    const rows = await this.deps.repo.jobs.active(teamId);
    return rows.map((r) => ({ id: r.id, teamId, url: r.url, created_at: new Date(r.createdAt).toISOString(), options: r.plan }));
  }

  /**
   * Finished pages of a job in the order they landed, after a sequence number: the status
   * stream's read (ownership is the caller's `owned` check, made on every poll).
   */
  resultsAfter(id: string, afterSeq: number, limit: number): Promise<Array<{ seq: number; document: string }>> {
    return this.deps.repo.results.after(id, afterSeq, limit);
  }

  /** The job if it exists, belongs to the team and has not expired. Anything else is 404. */
  async owned(teamId: string, id: string, kind?: JobKind): Promise<CrawlRecord> {
    const job = await this.deps.repo.jobs.get(id);
    if (!job || job.teamId !== teamId || (kind && job.kind !== kind)) throw new ApiError('JOB_NOT_FOUND');
    if (job.expiresAt < Date.now()) throw new ApiError('JOB_EXPIRED');
    return job;
  }

  /** Creates the job row; a concurrent request with the same idempotency key loses here. */
  private async create(rec: Parameters<CrawlRepository['jobs']['create']>[0]): Promise<void> {
    try {
      await this.deps.repo.jobs.create(rec);
    } catch (e) {
      if (rec.idempotencyKey && /unique|duplicate/i.test((e as Error).message)) throw new ApiError('IDEMPOTENCY_KEY_USED');
      throw e;
    }
  }

  private async claimIdempotencyKey(teamId: string, key: string | undefined): Promise<void> {
    if (key && (await this.deps.repo.jobs.idempotencyKeyUsed(teamId, key))) throw new ApiError('IDEMPOTENCY_KEY_USED');
  }

  private async started(teamId: string, id: string, kind: JobKind, webhook: WebhookTarget | undefined): Promise<void> {
    if (webhook) await this.deps.webhooks.emit(teamId, webhook, { type: eventType(kind, 'started'), id, success: true, data: [] });
  }
}
