/**
 * What a monitor check's pages cost, charged through the credit ledger as each page is checked.
 * A page's cause is its check, target and URL, so a check run again (a retry, or a worker that
 * died mid-check) charges each page once; the check records the sum as its `actualCredits`.
 * Crawl targets are charged by their crawl, page by page, as any crawl is.
 */
import { COSTS, MINIMUM_CHARGE, scrapeCost } from '../billing/costs.js';
import type { CreditLedger } from '../billing/ledger.js';
import type { Document } from '../core/document.js';
import { catalog, isApiError } from '../errors.js';
import type { ScrapeOptions } from '../scrape/options.js';

export type MonitorLedger = Pick<CreditLedger, 'canPay' | 'charge'>;

const PAYMENT_REQUIRED = catalog.PAYMENT_REQUIRED.error;
/** Why a check did not run at all. */
export const CHECK_NOT_PAID = `${PAYMENT_REQUIRED}: the team cannot pay for this check, so no page was checked`;
/** Why a page of a check that ran out midway was not checked. */
export const PAGE_NOT_PAID = `${PAYMENT_REQUIRED}: the team ran out of credits before this page was checked`;

/** A page's price by what its check got: a page, an unchanged answer (a request all the same), or an error. */
export type PageResult = { doc: Document } | { unchanged: true } | { error: unknown };

export function pageCredits(r: PageResult, options: Pick<ScrapeOptions, 'lockdown'>): number {
  if ('doc' in r) return scrapeCost(r.doc, { lockdown: options.lockdown });
  if ('unchanged' in r) return COSTS.page;
  // A lockdown miss still looked, as it does for a scrape; any other failure costs nothing.
  return isApiError(r.error) && r.error.key === 'SCRAPE_LOCKDOWN_CACHE_MISS' ? COSTS.lockdownMiss : 0;
}

/** The charging side of one check: whether the team can pay for another page, and each page's charge. */
export class CheckBilling {
  constructor(
    private readonly ledger: MonitorLedger | undefined,
    private readonly teamId: string,
    private readonly checkId: string,
  ) {}

  /** Teams without a limit always can; without a ledger, checks are free to run. */
  canPay(): Promise<boolean> {
    return this.ledger ? this.ledger.canPay(this.teamId, MINIMUM_CHARGE) : Promise.resolve(true);
  }

  /** Charges a page once per check; answers the credits charged for it (now or by an earlier run). */
  async page(targetId: string, urlKey: string, credits: number): Promise<number> {
    if (!this.ledger || credits <= 0) return credits;
    return this.ledger.charge({ teamId: this.teamId, cause: `monitor:${this.checkId}:${targetId}:${urlKey}`, credits });
  }
}
