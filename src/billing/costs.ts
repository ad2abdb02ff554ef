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
  /** Added when a json format asks for a prompt-injection check. */
  promptInjectionCheck: 4,
  /** Added per URL the threat scanner looks at. */
  threatScan: 2,
  /** One map call, however many links it returns. */
  map: 1,
  /** One search result returned without scraping (a scraped result costs as a scrape). */
  searchResult: 1,
} as const;

/** What a scrape's options add on top of its pages; `proxy: enhanced` adds nothing. */
export interface ScrapeCostOptions {
  lockdown?: boolean;
  formats?: ReadonlyArray<{ type: string }>;
}

function asksPromptInjectionCheck(formats: ScrapeCostOptions['formats']): boolean {
  return (formats ?? []).some((f) => f.type === 'json' && (f as { checkPromptInjection?: unknown }).checkPromptInjection === true);
}

/**
 * A finished scrape's cost. `billablePages` is what the pipeline counted: 1 for a web page, the
 * page count of a document parsed with `parsers` (1 when the list is empty: the bytes come back
 * unparsed).
 */
export function scrapeCost(doc: Pick<Document, 'metadata'>, o: ScrapeCostOptions): number {
  const base = o.lockdown ? COSTS.lockdownHit : Math.max(1, doc.metadata.creditsUsed ?? COSTS.page) * COSTS.page;
  return base + (asksPromptInjectionCheck(o.formats) ? COSTS.promptInjectionCheck : 0);
}

/** The least a billable request can cost: a team that cannot pay this much gets 402. */
export const MINIMUM_CHARGE = 1;
