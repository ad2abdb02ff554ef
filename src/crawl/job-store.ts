/**
 * The job row of a crawl or batch scrape: its plan, counts and state, from creation to its end
 * (exactly one caller moves a job to a terminal state) and its expiry.
 */
import { claimed } from '../jobs/lease.js';
import type { Dialect } from '../store/db.js';
import type { WebhookTarget } from '../webhooks/schema.js';
import { crawlLock, endStatus, type CrawlRecord, type Db, type JobKind, type JobStatus, type Trx } from './records.js';

export class CrawlJobs {
  private readonly lockCrawl: ReturnType<typeof crawlLock>;

  constructor(
    private readonly db: Db,
    dialect: Dialect,
  ) {
    this.lockCrawl = crawlLock(db, dialect);
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

  /**
   * Claims running jobs whose last progress is older than `staleMs`, for recovery. Each is taken
   * by moving its progress time on only if it still reads what was seen, so of the processes
   * that look at once, one recovers each job; the job counts as stalled again only if nothing
   * moves for another `staleMs`.
   */
  async claimStalled(staleMs: number, max = 50): Promise<string[]> {
    const now = Date.now();
    const rows = await this.db
      .selectFrom('crawls')
      .select(['id', 'updated_at'])
      .where('status', '=', 'scraping')
      .where('updated_at', '<', now - staleMs)
      .limit(max)
      .execute();
    const won: string[] = [];
    for (const r of rows) {
      const res = await this.db
        .updateTable('crawls')
        .set({ updated_at: now })
        .where('id', '=', r.id)
        .where('status', '=', 'scraping')
        .where('updated_at', '=', r.updated_at)
        .executeTakeFirst();
      if (claimed(res)) won.push(r.id);
    }
    return won;
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
}
