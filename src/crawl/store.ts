/**
 * Crawl and batch-scrape state in the store: the job row, its frontier (one row per admitted
 * URL) and its results. The store, not the queue, is the source of truth: a page's outcome is
 * written once, guarded by its (crawl, url key) row, so a job that runs twice after a crash
 * still yields every page exactly once.
 */
import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../store/db.js';
import { affected, prepared } from '../store/prepared.js';
import type { Database } from '../store/schema.js';
import { SharedTransactions } from '../store/shared-transactions.js';
import type { WebhookTarget } from '../webhooks/schema.js';

export type JobKind = 'crawl' | 'batch';
export type JobStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';
export const TERMINAL: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

export interface CrawlRecord<P = unknown> {
  id: string;
  teamId: string;
  kind: JobKind;
  url: string;
  plan: P;
  webhook: WebhookTarget | null;
  status: JobStatus;
  limit: number;
  discovered: number;
  finished: number;
  succeeded: number;
  creditsUsed: number;
  kickoffDone: boolean;
  robotsTxt: string | null;
  error: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface FrontierEntry {
  urlKey: string;
  url: string;
  depth: number;
}

export interface PageRow extends FrontierEntry {
  state: 'pending' | 'done' | 'failed' | 'blocked';
}

export interface PageOutcome {
  /** JSON of the Document when the page succeeded. */
  document?: string;
  /** The Document's `metadata.scrapeId`: `GET /v2/scrape/{id}` finds the page by it. */
  scrapeId?: string;
  /** What the page was charged; 1 when not given. */
  credits?: number;
  error?: string;
  code?: string;
}

export interface CrawlError {
  id: string;
  timestamp: string;
  url: string;
  code?: string;
  error: string;
}

type Db = Kysely<Database>;
export type Trx = Transaction<Database>;

export class CrawlRepository {
  /** What every page of a job runs, compiled once. */
  private readonly q: ReturnType<typeof pageQueries>;
  /** Pages that finish together commit together. */
  private readonly pageWrites: SharedTransactions;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {
    this.q = pageQueries(db, dialect);
    this.pageWrites = new SharedTransactions(db);
  }

  async create(rec: {
    id: string;
    teamId: string;
    kind: JobKind;
    url: string;
    plan: unknown;
    webhook: WebhookTarget | null;
    limit: number;
    kickoffDone: boolean;
    idempotencyKey?: string;
    ttlMs: number;
  }): Promise<void> {
    const now = Date.now();
    await this.db
      .insertInto('crawls')
      .values({
        id: rec.id,
        team_id: rec.teamId,
        kind: rec.kind,
        url: rec.url,
        options: JSON.stringify(rec.plan),
        webhook: rec.webhook ? JSON.stringify(rec.webhook) : null,
        status: 'scraping',
        page_limit: rec.limit,
        discovered: 0,
        finished: 0,
        succeeded: 0,
        credits_used: 0,
        kickoff_done: rec.kickoffDone ? 1 : 0,
        robots_txt: null,
        error: null,
        idempotency_key: rec.idempotencyKey ?? null,
        created_at: now,
        updated_at: now,
        expires_at: now + rec.ttlMs,
        finished_at: null,
      })
      .execute();
  }

  async idempotencyKeyUsed(teamId: string, key: string): Promise<boolean> {
    const row = await this.db.selectFrom('crawls').select('id').where('team_id', '=', teamId).where('idempotency_key', '=', key).executeTakeFirst();
    return row !== undefined;
  }

  async get<P>(id: string): Promise<CrawlRecord<P> | undefined> {
    const r = await this.db.selectFrom('crawls').selectAll().where('id', '=', id).executeTakeFirst();
    if (!r) return undefined;
    return {
      id: r.id,
      teamId: r.team_id,
      kind: r.kind as JobKind,
      url: r.url,
      plan: JSON.parse(r.options) as P,
      webhook: r.webhook ? (JSON.parse(r.webhook) as WebhookTarget) : null,
      status: r.status as JobStatus,
      limit: r.page_limit,
      discovered: r.discovered,
      finished: r.finished,
      succeeded: r.succeeded,
      creditsUsed: r.credits_used,
      kickoffDone: r.kickoff_done === 1,
      robotsTxt: r.robots_txt,
      error: r.error,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
    };
  }

  async setRobots(id: string, robotsTxt: string): Promise<void> {
    await this.db.updateTable('crawls').set({ robots_txt: robotsTxt }).where('id', '=', id).execute();
  }

  /** A page of a job, with the job's status, in one read: the check before every page task. */
  async page(crawlId: string, urlKey: string): Promise<(PageRow & { jobStatus: JobStatus }) | undefined> {
    const r = (await this.q.page({ crawlId, urlKey })).rows[0];
    return r ? { urlKey: r.url_key, url: r.url, depth: r.depth, state: r.state as PageRow['state'], jobStatus: r.status as JobStatus } : undefined;
  }

  async pendingPages(crawlId: string, max: number): Promise<FrontierEntry[]> {
    const rows = await this.db
      .selectFrom('crawl_pages')
      .select(['url_key', 'url', 'depth'])
      .where('crawl_id', '=', crawlId)
      .where('state', '=', 'pending')
      .limit(max)
      .execute();
    return rows.map((r) => ({ urlKey: r.url_key, url: r.url, depth: r.depth }));
  }

  /**
   * Adds URLs to the frontier, skipping ones it already holds and stopping at the crawl's limit.
   * Robots-blocked URLs are recorded (for the errors endpoint) but not counted. Returns what was
   * newly admitted: only those need a queue job.
   */
  async admit(crawlId: string, entries: readonly FrontierEntry[], blocked: readonly FrontierEntry[] = []): Promise<FrontierEntry[]> {
    if (entries.length === 0 && blocked.length === 0) return [];
    return this.db.transaction().execute(async (trx) => {
      const crawl = await this.lockCrawl(trx, crawlId);
      if (!crawl || crawl.status !== 'scraping') return [];
      const admitted = await this.admitIn(trx, crawlId, crawl.page_limit - crawl.discovered, entries, blocked);
      if (admitted.length > 0) {
        await trx
          .updateTable('crawls')
          .set({ discovered: crawl.discovered + admitted.length, updated_at: Date.now() })
          .where('id', '=', crawlId)
          .execute();
      }
      return admitted;
    });
  }

  /**
   * Records a page's outcome and the links it led to, in one transaction (which pages finishing
   * at the same moment share, each in a savepoint of its own), and lets the caller
   * record its webhook event in the same transaction. When that page was the last one pending,
   * the job ends in the same transaction too (`onFinish` runs there, once). Returns undefined
   * when the page was already finished (a repeated run) or the job is no longer running.
   */
  async finishPage(
    crawlId: string,
    urlKey: string,
    outcome: PageOutcome,
    links: { discovered: readonly FrontierEntry[]; blocked: readonly FrontierEntry[] },
    hooks: { onPage?: (trx: Trx) => Promise<void>; onFinish?: (trx: Trx, status: JobStatus) => Promise<void> } = {},
  ): Promise<{ admitted: FrontierEntry[]; finished?: JobStatus } | undefined> {
    return this.pageWrites.run(async (trx) => {
      const crawl = await this.lockCrawl(trx, crawlId);
      if (!crawl || crawl.status !== 'scraping') return undefined;
      const now = Date.now();
      const ok = outcome.document !== undefined;
      const updated = await this.q.settlePage({ state: ok ? 'done' : 'failed', error: outcome.error ?? null, code: outcome.code ?? null, now, crawlId, urlKey }, trx);
      if (affected(updated) === 0) return undefined;
      if (ok) await this.q.addResult({ crawlId, urlKey, scrapeId: outcome.scrapeId ?? null, document: outcome.document!, now }, trx);
      const admitted = await this.admitIn(trx, crawlId, crawl.page_limit - crawl.discovered, links.discovered, links.blocked);
      const counts = {
        discovered: crawl.discovered + admitted.length,
        finished: crawl.finished + 1,
        succeeded: crawl.succeeded + (ok ? 1 : 0),
      };
      // Every admitted page is counted in `discovered` and leaves `pending` exactly once, counted
      // in `finished`: when they meet after the kickoff, nothing is left to do.
      const finished = crawl.kickoff_done === 1 && counts.discovered === counts.finished ? endStatus(counts) : undefined;
      await this.q.count(
        {
          ...counts,
          creditsUsed: crawl.credits_used + (ok ? (outcome.credits ?? 1) : 0),
          now,
          status: finished ?? 'scraping',
          finishedAt: finished ? now : null,
          crawlId,
        },
        trx,
      );
      if (hooks.onPage) await hooks.onPage(trx);
      if (finished && hooks.onFinish) await hooks.onFinish(trx, finished);
      return { admitted, ...(finished ? { finished } : {}) };
    });
  }

  async markKickoffDone(crawlId: string): Promise<void> {
    await this.db.updateTable('crawls').set({ kickoff_done: 1, updated_at: Date.now() }).where('id', '=', crawlId).execute();
  }

  /**
   * Moves a running job to a terminal state when nothing is left to do. Exactly one caller wins
   * the transition, and only it runs `onFinish` (in the same transaction), so the final webhook
   * fires once however many workers race here.
   */
  async finishIfDone(crawlId: string, onFinish: (trx: Trx, status: JobStatus) => Promise<void>): Promise<JobStatus | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const crawl = await this.lockCrawl(trx, crawlId);
      if (!crawl || crawl.status !== 'scraping' || crawl.kickoff_done !== 1) return undefined;
      // Whether any page is pending, not how many: a count walks every pending page of the index.
      const pending = await trx
        .selectFrom('crawl_pages')
        .select('url_key')
        .where('crawl_id', '=', crawlId)
        .where('state', '=', 'pending')
        .limit(1)
        .executeTakeFirst();
      if (pending) return undefined;
      const status = endStatus(crawl);
      const now = Date.now();
      await trx.updateTable('crawls').set({ status, finished_at: now, updated_at: now }).where('id', '=', crawlId).execute();
      await onFinish(trx, status);
      return status;
    });
  }

  async cancel(crawlId: string, onCancel: (trx: Trx) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const crawl = await this.lockCrawl(trx, crawlId);
      if (!crawl || crawl.status !== 'scraping') return false;
      const now = Date.now();
      await trx.updateTable('crawls').set({ status: 'cancelled', finished_at: now, updated_at: now }).where('id', '=', crawlId).execute();
      await onCancel(trx);
      return true;
    });
  }

  async fail(crawlId: string, error: string, onFail: (trx: Trx) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const crawl = await this.lockCrawl(trx, crawlId);
      if (!crawl || crawl.status !== 'scraping') return false;
      const now = Date.now();
      await trx.updateTable('crawls').set({ status: 'failed', error, finished_at: now, updated_at: now }).where('id', '=', crawlId).execute();
      await onFail(trx);
      return true;
    });
  }

  async resultCount(crawlId: string): Promise<number> {
    const r = await this.db
      .selectFrom('crawl_results')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('crawl_id', '=', crawlId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Result documents (JSON text) in the order they finished, with their sequence ids. */
  async results(crawlId: string, skip: number, limit: number): Promise<Array<{ seq: number; document: string }>> {
    const rows = await this.db
      .selectFrom('crawl_results')
      .select(['id', 'document'])
      .where('crawl_id', '=', crawlId)
      .orderBy('id')
      .offset(skip)
      .limit(limit)
      .execute();
    return rows.map((r) => ({ seq: Number(r.id), document: r.document }));
  }

  /** Results finished after a sequence id: what a watcher has not seen yet. */
  async resultsAfter(crawlId: string, afterSeq: number, limit: number): Promise<Array<{ seq: number; document: string }>> {
    const rows = await this.db
      .selectFrom('crawl_results')
      .select(['id', 'document'])
      .where('crawl_id', '=', crawlId)
      .where('id', '>', afterSeq)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ seq: Number(r.id), document: r.document }));
  }

  async errors(crawlId: string): Promise<{ errors: CrawlError[]; robotsBlocked: string[] }> {
    const rows = await this.db
      .selectFrom('crawl_pages')
      .select(['url_key', 'url', 'state', 'error', 'code', 'updated_at'])
      .where('crawl_id', '=', crawlId)
      .where('state', 'in', ['failed', 'blocked'])
      .orderBy('updated_at')
      .execute();
    const errors: CrawlError[] = [];
    const robotsBlocked: string[] = [];
    for (const r of rows) {
      if (r.state === 'blocked') {
        robotsBlocked.push(r.url);
        continue;
      }
      const e: CrawlError = { id: pageErrorId(crawlId, r.url_key), timestamp: new Date(r.updated_at).toISOString(), url: r.url, error: r.error ?? 'Unknown error' };
      if (r.code) e.code = r.code;
      errors.push(e);
    }
    return { errors, robotsBlocked };
  }

  async active(teamId: string): Promise<Array<{ id: string; url: string; createdAt: number; plan: unknown }>> {
    const rows = await this.db
      .selectFrom('crawls')
      .select(['id', 'url', 'created_at', 'options'])
      .where('team_id', '=', teamId)
      .where('kind', '=', 'crawl')
      .where('status', '=', 'scraping')
      .orderBy('created_at')
      .execute();
    return rows.map((r) => ({ id: r.id, url: r.url, createdAt: r.created_at, plan: JSON.parse(r.options) as unknown }));
  }

  /** Running jobs whose last progress is older than `staleMs`: candidates for recovery. */
  async stalled(staleMs: number, max = 50): Promise<string[]> {
    const rows = await this.db
      .selectFrom('crawls')
      .select('id')
      .where('status', '=', 'scraping')
      .where('updated_at', '<', Date.now() - staleMs)
      .limit(max)
      .execute();
    return rows.map((r) => r.id);
  }

  async touch(crawlId: string): Promise<void> {
    await this.db.updateTable('crawls').set({ updated_at: Date.now() }).where('id', '=', crawlId).execute();
  }

  /** Deletes jobs past their expiry, with their frontier and results. */
  async purgeExpired(now = Date.now()): Promise<number> {
    const ids = (await this.db.selectFrom('crawls').select('id').where('expires_at', '<', now).limit(100).execute()).map((r) => r.id);
    if (ids.length === 0) return 0;
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('crawl_results').where('crawl_id', 'in', ids).execute();
      await trx.deleteFrom('crawl_pages').where('crawl_id', 'in', ids).execute();
      await trx.deleteFrom('crawls').where('id', 'in', ids).execute();
    });
    return ids.length;
  }

  private async lockCrawl(trx: Trx, crawlId: string) {
    return (await this.q.lockCrawl({ crawlId }, trx)).rows[0];
  }

  private async admitIn(
    trx: Trx,
    crawlId: string,
    room: number,
    entries: readonly FrontierEntry[],
    blocked: readonly FrontierEntry[],
  ): Promise<FrontierEntry[]> {
    // A full frontier admits nothing: only robots-blocked links are still worth recording.
    const wanted = room > 0 ? entries : [];
    const unique = new Map<string, FrontierEntry>();
    for (const e of wanted) if (!unique.has(e.urlKey)) unique.set(e.urlKey, e);
    const blockedUnique = new Map<string, FrontierEntry>();
    for (const e of blocked) if (!unique.has(e.urlKey) && !blockedUnique.has(e.urlKey)) blockedUnique.set(e.urlKey, e);
    const keys = [...unique.keys(), ...blockedUnique.keys()];
    if (keys.length === 0) return [];
    const known = new Set<string>();
    // Chunks keep the IN list under SQLite's parameter limit.
    for (let i = 0; i < keys.length; i += 500) {
      const rows = await trx
        .selectFrom('crawl_pages')
        .select('url_key')
        .where('crawl_id', '=', crawlId)
        .where('url_key', 'in', keys.slice(i, i + 500))
        .execute();
      for (const r of rows) known.add(r.url_key);
    }
    const now = Date.now();
    const admitted = [...unique.values()].filter((e) => !known.has(e.urlKey)).slice(0, Math.max(0, room));
    const rows = [
      ...admitted.map((e) => ({ crawl_id: crawlId, url_key: e.urlKey, url: e.url, depth: e.depth, state: 'pending', error: null, code: null, updated_at: now })),
      ...[...blockedUnique.values()]
        .filter((e) => !known.has(e.urlKey))
        .map((e) => ({ crawl_id: crawlId, url_key: e.urlKey, url: e.url, depth: e.depth, state: 'blocked', error: null, code: null, updated_at: now })),
    ];
    for (let i = 0; i < rows.length; i += 200) {
      await trx.insertInto('crawl_pages').values(rows.slice(i, i + 200)).execute();
    }
    return admitted;
  }
}

function pageQueries(db: Db, dialect: Dialect) {
  return {
    page: prepared(db, (v: { crawlId: string; urlKey: string }) =>
      db
        .selectFrom('crawl_pages as p')
        .innerJoin('crawls as c', 'c.id', 'p.crawl_id')
        .select(['p.url_key', 'p.url', 'p.depth', 'p.state', 'c.status'])
        .where('p.crawl_id', '=', v.crawlId)
        .where('p.url_key', '=', v.urlKey),
    ),
    lockCrawl: prepared(db, (v: { crawlId: string }) => {
      const q = db
        .selectFrom('crawls')
        .select(['status', 'page_limit', 'discovered', 'finished', 'succeeded', 'credits_used', 'kickoff_done'])
        .where('id', '=', v.crawlId);
      // SQLite runs one transaction at a time; PostgreSQL needs the row lock.
      return dialect === 'postgres' ? q.forUpdate() : q;
    }),
    settlePage: prepared(db, (v: { state: string; error: string | null; code: string | null; now: number; crawlId: string; urlKey: string }) =>
      db
        .updateTable('crawl_pages')
        .set({ state: v.state, error: v.error, code: v.code, updated_at: v.now })
        .where('crawl_id', '=', v.crawlId)
        .where('url_key', '=', v.urlKey)
        .where('state', '=', 'pending'),
    ),
    addResult: prepared(db, (v: { crawlId: string; urlKey: string; scrapeId: string | null; document: string; now: number }) =>
      db.insertInto('crawl_results').values({ crawl_id: v.crawlId, url_key: v.urlKey, scrape_id: v.scrapeId, document: v.document, created_at: v.now }),
    ),
    count: prepared(
      db,
      (v: { discovered: number; finished: number; succeeded: number; creditsUsed: number; now: number; status: JobStatus; finishedAt: number | null; crawlId: string }) =>
        db
          .updateTable('crawls')
          .set({
            discovered: v.discovered,
            finished: v.finished,
            succeeded: v.succeeded,
            credits_used: v.creditsUsed,
            updated_at: v.now,
            status: v.status,
            finished_at: v.finishedAt,
          })
          .where('id', '=', v.crawlId),
    ),
  };
}

/** A job fails only when it produced nothing and something went wrong. */
function endStatus(c: { succeeded: number; finished: number }): JobStatus {
  return c.succeeded === 0 && c.finished > 0 ? 'failed' : 'completed';
}

/** Stable id for a failed page, so repeated reads of the errors list agree. */
export function pageErrorId(crawlId: string, urlKey: string): string {
  const h = createHash('sha256').update(`${crawlId}\n${urlKey}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
