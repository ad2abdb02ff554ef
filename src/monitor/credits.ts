/**
 * `estimatedCreditsPerMonth`: an upper bound, never a guess from history. Runs are bounded from
 * the cron fields over 31 days (the longest month) and each run is priced at its most:
 * every URL of a scrape target, the page limit of a crawl target, and for a search target two
 * credits per query for the search plus one per result page scraped.
 */
import { DEFAULT_CRAWL_LIMIT } from '../crawl/options.js';
import { maxRunsPerMonth } from './schedule.js';
import type { Target } from './schemas.js';

export const CREDITS_PER_PAGE = 1;
export const CREDITS_PER_SEARCH_QUERY = 2;

export function creditsPerCheck(targets: readonly Target[]): number {
  let total = 0;
  for (const t of targets) {
    if (t.type === 'scrape') total += t.urls.length * CREDITS_PER_PAGE;
    else if (t.type === 'crawl') {
      const limit = (t.crawlOptions as { limit?: unknown } | undefined)?.limit;
      total += (typeof limit === 'number' ? limit : DEFAULT_CRAWL_LIMIT) * CREDITS_PER_PAGE;
    } else total += t.queries.length * CREDITS_PER_SEARCH_QUERY + t.maxResults * CREDITS_PER_PAGE;
  }
  return total;
}

export function estimateCreditsPerMonth(cron: string, targets: readonly Target[]): number {
  return maxRunsPerMonth(cron) * creditsPerCheck(targets);
}
