/**
 * Crawl and batch-scrape state in the store, split by what each part owns: the job row
 * (job-store.ts), its frontier of admitted URLs (frontier-store.ts) and its result documents
 * (result-store.ts). The store, not the queue, is the source of truth.
 */
import type { Dialect } from '../store/db.js';
import { CrawlFrontier } from './frontier-store.js';
import { CrawlJobs } from './job-store.js';
import type { Db } from './records.js';
import { CrawlResults } from './result-store.js';

export * from './records.js';
export { CrawlFrontier, CrawlJobs, CrawlResults };

export class CrawlRepository {
  readonly jobs: CrawlJobs;
  readonly frontier: CrawlFrontier;
  readonly results: CrawlResults;

  constructor(db: Db, dialect: Dialect) {
    this.jobs = new CrawlJobs(db, dialect);
    this.frontier = new CrawlFrontier(db, dialect);
    this.results = new CrawlResults(db);
  }
}
