/**
 * Plans: what a team may do per minute. Limits are per team and per bucket, so a crawl-status
 * poll loop does not eat into the scrape allowance.
 */
export type RateBucket = 'scrape' | 'crawl' | 'map' | 'status' | 'browser';

export interface Plan {
  name: string;
  perMinute: Record<RateBucket, number>;
  /** Pages of this team's crawls and batches scraped at once, across all workers. */
  concurrency: number;
}

export function plans(standardPerMinute: number): Record<string, Plan> {
  const scaled = (n: number) => ({ scrape: n, crawl: Math.max(1, Math.floor(n / 5)), map: n, status: n * 10, browser: Math.max(1, Math.floor(n / 10)) });
  return {
    free: { name: 'free', perMinute: scaled(10), concurrency: 2 },
    standard: { name: 'standard', perMinute: scaled(standardPerMinute), concurrency: 50 },
    scale: { name: 'scale', perMinute: scaled(standardPerMinute * 10), concurrency: 200 },
  };
}

export const DEFAULT_PLAN = 'standard';
