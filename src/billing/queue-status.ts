/**
 * A team's share of the job queue, read from the job tables: pages of its running crawls and
 * batches still to scrape, and when one last finished. Pages are not marked when a worker takes
 * them, so "active" is the pending pages the team's concurrency lets run at once.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

export interface QueueStatus {
  jobsInQueue: number;
  activeJobsInQueue: number;
  waitingJobsInQueue: number;
  maxConcurrency: number;
  mostRecentSuccess: string | null;
}

export async function queueStatus(db: Kysely<Database>, teamId: string, maxConcurrency: number): Promise<QueueStatus> {
  const pending = await db
    .selectFrom('crawl_pages as p')
    .innerJoin('crawls as c', 'c.id', 'p.crawl_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('c.team_id', '=', teamId)
    .where('c.status', '=', 'scraping')
    .where('p.state', '=', 'pending')
    .executeTakeFirst();
  const last = await db
    .selectFrom('crawl_pages as p')
    .innerJoin('crawls as c', 'c.id', 'p.crawl_id')
    .select((eb) => eb.fn.max('p.updated_at').as('at'))
    .where('c.team_id', '=', teamId)
    .where('p.state', '=', 'done')
    .executeTakeFirst();
  const jobs = Number(pending?.n ?? 0);
  const active = Math.min(jobs, maxConcurrency);
  const at = last?.at == null ? null : Number(last.at);
  return {
    jobsInQueue: jobs,
    activeJobsInQueue: active,
    waitingJobsInQueue: jobs - active,
    maxConcurrency,
    mostRecentSuccess: at === null ? null : new Date(at).toISOString(),
  };
}
