/**
 * Usage endpoints (`/v2/team/...`, `/v2/concurrency-check`): a team's credits, tokens and queue,
 * read from the ledger and the job tables, for any key of the team.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { QueueStatus } from '../../billing/queue-status.js';
import type { CreditLedger, UsagePeriod } from '../../billing/ledger.js';
import { principalOf } from '../auth.js';

const historicalQuery = z.object({ byApiKey: z.enum(['true', 'false']).optional() }).passthrough();

const config = { bucket: 'status' } as const;
const UNLIMITED_REMAINING = 99_999_999;

function periods(rows: UsagePeriod[], field: 'creditsUsed' | 'tokensUsed') {
  return rows.map(({ amount, ...p }) => ({ ...p, [field]: amount }));
}

/** A team's queued and running pages, against the concurrency its plan allows. */
export type QueueStatusReader = (teamId: string, maxConcurrency: number) => Promise<QueueStatus>;

export interface TeamRouteDeps {
  ledger: CreditLedger;
  queueStatus: QueueStatusReader;
}

export async function teamRoutes(app: FastifyInstance, deps: TeamRouteDeps): Promise<void> {
  app.get('/v2/team/credit-usage', { schema: { tags: ['team'] }, config }, async (req) => {
    const a = await deps.ledger.account(principalOf(req).teamId);
    // A team that is never blocked reports a remaining figure no client will stop at (clients
    // read a missing one as 0 and some refuse to start work), and `unlimited: true` says why.
    return {
      success: true,
      data: {
        remainingCredits: a.periodCredits === null ? UNLIMITED_REMAINING : a.balance,
        planCredits: a.periodCredits,
        billingPeriodStart: a.period.start.toISOString(),
        billingPeriodEnd: a.period.end.toISOString(),
        ...(a.periodCredits === null ? { unlimited: true } : {}),
      },
    };
  });

  app.get('/v2/team/credit-usage/historical', { schema: { tags: ['team'], querystring: historicalQuery }, config }, async (req) => {
    const q = req.query as z.output<typeof historicalQuery>;
    return { success: true, periods: periods(await deps.ledger.creditHistory(principalOf(req).teamId, q.byApiKey === 'true'), 'creditsUsed') };
  });

  app.get('/v2/team/token-usage', { schema: { tags: ['team'] }, config }, async (req) => {
    const teamId = principalOf(req).teamId;
    const a = await deps.ledger.account(teamId);
    // No plan grants tokens yet: they are counted, not limited.
    return {
      success: true,
      data: {
        remainingTokens: null,
        planTokens: null,
        tokensUsed: await deps.ledger.tokensInPeriod(teamId),
        billingPeriodStart: a.period.start.toISOString(),
        billingPeriodEnd: a.period.end.toISOString(),
      },
    };
  });

  app.get('/v2/team/token-usage/historical', { schema: { tags: ['team'], querystring: historicalQuery }, config }, async (req) => {
    const q = req.query as z.output<typeof historicalQuery>;
    return { success: true, periods: periods(await deps.ledger.tokenHistory(principalOf(req).teamId, q.byApiKey === 'true'), 'tokensUsed') };
  });

  app.get('/v2/team/queue-status', { schema: { tags: ['team'] }, config }, async (req) => {
    const p = principalOf(req);
    return { success: true, ...(await deps.queueStatus(p.teamId, deps.ledger.plan(p.plan).concurrency)) };
  });

  app.get('/v2/concurrency-check', { schema: { tags: ['team'] }, config }, async (req) => {
    const p = principalOf(req);
    const q = await deps.queueStatus(p.teamId, deps.ledger.plan(p.plan).concurrency);
    return { success: true, concurrency: q.activeJobsInQueue, maxConcurrency: q.maxConcurrency };
  });
}
