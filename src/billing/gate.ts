/**
 * The credit check every billable request passes before any work starts: a team that cannot pay
 * the least a request costs gets 402 before the handler runs, so nothing is fetched for it.
 */
import { ApiError } from '../errors.js';
import { COSTS, MINIMUM_CHARGE } from './costs.js';
import type { CreditLedger } from './ledger.js';

/**
 * Routes (method and path pattern) that spend credits, with the least each costs. A browser
 * session is charged when it ends, for at least its first minute; `interact` may open one.
 */
const BILLABLE = new Map<string, number>([
  ...['POST /v2/scrape', 'POST /v2/crawl', 'POST /v2/batch/scrape', 'POST /v2/map', 'POST /v2/parse', 'POST /v2/search', 'POST /v2/agent', 'POST /v2/extract'].map(
    (r) => [r, MINIMUM_CHARGE] as const,
  ),
  ['POST /v2/browser', COSTS.browserMinute],
  ['POST /v2/scrape/:id/interact', COSTS.browserMinute],
]);

/** The least the route costs, or undefined when it spends nothing. */
export const minimumCharge = (method: string, routeUrl: string | undefined): number | undefined =>
  routeUrl === undefined ? undefined : BILLABLE.get(`${method} ${routeUrl}`);

export async function assertCanPay(ledger: CreditLedger, teamId: string, credits = MINIMUM_CHARGE): Promise<void> {
  if (!(await ledger.canPay(teamId, credits))) {
    throw new ApiError('PAYMENT_REQUIRED', {
      message: 'Payment Required: Insufficient credits to perform this request. Ask the operator for a top-up or a plan with more credits.',
    });
  }
}
