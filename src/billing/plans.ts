/**
 * Plans: what a team may do per minute and spend per billing period. Limits are per team and per
 * bucket, so a crawl-status poll loop does not eat into the scrape allowance.
 */
export type RateBucket = 'scrape' | 'crawl' | 'map' | 'status' | 'browser';

export interface Plan {
  name: string;
  /** Requests per minute per bucket; Infinity means the bucket is not limited. */
  perMinute: Record<RateBucket, number>;
  /** Pages of this team's crawls and batches scraped at once, across all workers. */
  concurrency: number;
  /**
   * Credits granted at the start of each billing period (a UTC calendar month). null: usage is
   * counted in the ledger but never blocks, as on an installation run for oneself.
   */
  creditsPerPeriod: number | null;
}

export function plans(standardPerMinute: number): Record<string, Plan> {
  const scaled = (n: number) => ({ scrape: n, crawl: Math.max(1, Math.floor(n / 5)), map: n, status: n * 10, browser: Math.max(1, Math.floor(n / 10)) });
  const unlimited = { scrape: Infinity, crawl: Infinity, map: Infinity, status: Infinity, browser: Infinity };
  return {
    free: { name: 'free', perMinute: scaled(10), concurrency: 2, creditsPerPeriod: 500 },
    standard: { name: 'standard', perMinute: scaled(standardPerMinute), concurrency: 50, creditsPerPeriod: 100_000 },
    scale: { name: 'scale', perMinute: scaled(standardPerMinute * 10), concurrency: 200, creditsPerPeriod: 1_000_000 },
    // The operator's own team on a fresh installation: counted, never blocked, never throttled.
    'self-hosted': { name: 'self-hosted', perMinute: unlimited, concurrency: 200, creditsPerPeriod: null },
  };
}

export const DEFAULT_PLAN = 'standard';
/** The plan of the team a fresh installation makes for its first key. */
export const SELF_HOSTED_PLAN = 'self-hosted';
