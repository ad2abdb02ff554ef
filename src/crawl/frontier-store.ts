/**
 * A job's frontier: one row per admitted URL, pending until its page's outcome is written. The
 * outcome is written once, guarded by its (crawl, url key) row, so a page task that runs twice
 * after a crash still yields the page exactly once; the job's counts move in the same
 * transaction.
 */
import type { Dialect } from '../store/db.js';
import { affected, prepared } from '../store/prepared.js';
import { SharedTransactions } from '../store/shared-transactions.js';
import { crawlLock, endStatus, pageErrorId, type CrawlError, type Db, type FrontierEntry, type JobStatus, type PageOutcome, type PageRow, type Trx } from './records.js';

export class CrawlFrontier {
  /** What every page of a job runs, compiled once. */
  private readonly q: ReturnType<typeof pageQueries>;
  private readonly lockCrawl: ReturnType<typeof crawlLock>;
  /** Pages that finish together commit together. */
  private readonly pageWrites: SharedTransactions;

  constructor(
    private readonly db: Db,
    dialect: Dialect,
  ) {
    this.q = pageQueries(db);
    this.lockCrawl = crawlLock(db, dialect);
    this.pageWrites = new SharedTransactions(db);
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

function pageQueries(db: Db) {
  return {
    page: prepared(db, (v: { crawlId: string; urlKey: string }) =>
      db
        .selectFrom('crawl_pages as p')
        .innerJoin('crawls as c', 'c.id', 'p.crawl_id')
        .select(['p.url_key', 'p.url', 'p.depth', 'p.state', 'c.status'])
        .where('p.crawl_id', '=', v.crawlId)
        .where('p.url_key', '=', v.urlKey),
    ),
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
