/**
 * What the crawl stores share: the shapes of a job, its frontier and its results, and the row
 * lock every change of a job's counts or state takes first.
 */
import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../store/db.js';
import { prepared } from '../store/prepared.js';
import type { Database } from '../store/schema.js';
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

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;

/** The job row's counts and state, locked for the rest of the transaction (PostgreSQL). */
export function crawlLock(db: Db, dialect: Dialect) {
  const query = prepared(db, (v: { crawlId: string }) => {
    const q = db
      .selectFrom('crawls')
      .select(['status', 'page_limit', 'discovered', 'finished', 'succeeded', 'credits_used', 'kickoff_done'])
      .where('id', '=', v.crawlId);
    // SQLite runs one transaction at a time; PostgreSQL needs the row lock.
    return dialect === 'postgres' ? q.forUpdate() : q;
  });
  return async (trx: Trx, crawlId: string) => (await query({ crawlId }, trx)).rows[0];
}

/** A job fails only when it produced nothing and something went wrong. */
export function endStatus(c: { succeeded: number; finished: number }): JobStatus {
  return c.succeeded === 0 && c.finished > 0 ? 'failed' : 'completed';
}

/** Stable id for a failed page, so repeated reads of the errors list agree. */
export function pageErrorId(crawlId: string, urlKey: string): string {
  const h = createHash('sha256').update(`${crawlId}\n${urlKey}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
