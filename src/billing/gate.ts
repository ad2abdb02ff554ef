/**
 * The credit check every billable request passes before any work starts: a team that cannot pay
 * the least a request costs gets 402 before the handler runs, so nothing is fetched for it.
 */
import { ApiError } from '../errors.js';
import { MINIMUM_CHARGE } from './costs.js';
import type { CreditLedger } from './ledger.js';

/** Routes (method and path pattern) that spend credits. */
const BILLABLE = new Set(['POST /v2/scrape', 'POST /v2/crawl', 'POST /v2/batch/scrape', 'POST /v2/map', 'POST /v2/parse', 'POST /v2/search', 'POST /v2/agent', 'POST /v2/extract']);

export const isBillable = (method: string, routeUrl: string | undefined): boolean => routeUrl !== undefined && BILLABLE.has(`${method} ${routeUrl}`);

export async function assertCanPay(ledger: CreditLedger, teamId: string): Promise<void> {
  if (!(await ledger.canPay(teamId, MINIMUM_CHARGE))) {
    throw new ApiError('PAYMENT_REQUIRED', {
      message: 'Payment Required: Insufficient credits to perform this request. Ask the operator for a top-up or a plan with more credits.',
    });
  }
}
