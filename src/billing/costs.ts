/**
 * The cost table: what each billable unit costs, in one place. Callers describe what happened
 * (a page scraped, a lockdown hit, a search result) and charge what this module answers; the
 * README's table is this file in prose, so change both together.
 */
import type { Document } from '../core/document.js';

export const COSTS = {
  /** A scraped page, and each page of a crawl or batch. */
  page: 1,
  /** A lockdown scrape answered from the cache. */
  lockdownHit: 5,
  /** A lockdown scrape that found nothing in the cache (the request still fails with 404). */
  lockdownMiss: 1,
  /** Added by a json format (extraction, with or without a model). */
  jsonFormat: 4,
  /** Added when a json format asks for a prompt-injection check. */
  promptInjectionCheck: 4,
  /** Added per URL the threat scanner looks at. */
  threatScan: 2,
  /** One map call, however many links it returns. */
  map: 1,
  /** One search result returned without scraping (a scraped result costs as a scrape). */
  searchResult: 1,
  /**
   * Each started minute of an interactive browser session. A minute of a held Chromium context
   * costs the server about what two plain page fetches do, and a session is charged once, when
   * it ends.
   */
  browserMinute: 2,
  /** One agent step (a model turn with its tool calls); pages a step scrapes cost as scrapes. */
  agentStep: 1,
} as const;

const MINUTE_MS = 60_000;

/** A browser session's price: every started minute, and at least one. */
export function browserSessionCost(durationMs: number): number {
  return Math.max(1, Math.ceil(Math.max(0, durationMs) / MINUTE_MS)) * COSTS.browserMinute;
}

/** What changes a scrape's price beyond what the pipeline counted; `proxy: enhanced` adds nothing. */
export interface ScrapeCostOptions {
  lockdown?: boolean;
}

/**
 * A finished scrape's cost. The pipeline counts the page units into `metadata.creditsUsed`: 1
 * for a web page, the page count of a document parsed with `parsers` (1 when the list is empty:
 * the bytes come back unparsed), plus what the requested formats declare (the formats table,
 * scrape/formats: json and its prompt-injection check, priced from COSTS above). A lockdown
 * answer's page is priced as a lockdown hit.
 */
export function scrapeCost(doc: Pick<Document, 'metadata'>, o: ScrapeCostOptions): number {
  const counted = Math.max(COSTS.page, doc.metadata.creditsUsed ?? COSTS.page);
  return o.lockdown ? counted - COSTS.page + COSTS.lockdownHit : counted;
}

/** The least a billable request can cost: a team that cannot pay this much gets 402. */
export const MINIMUM_CHARGE = 1;
