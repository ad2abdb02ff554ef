/** `POST /v2/search`: web, news and image results, optionally scraped (see search/service.ts). */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { CreditLedger } from '../../billing/ledger.js';
import { DEFAULT_PLAN, plans } from '../../billing/plans.js';
import { planSearch, searchRequestSchema, type SearchBody } from '../../search/request.js';
import type { SearchService } from '../../search/service.js';
import { principalOf } from '../auth.js';
import { scrapeContext } from './scrape.js';

/** Results scraped at once for one search, whatever the plan allows. */
const MAX_SCRAPES_PER_SEARCH = 10;

export interface SearchRouteDeps {
  search: SearchService;
  ledger: CreditLedger;
  /** The standard plan's requests per minute, from which the plan table is built. */
  rateLimitPerMinute: number;
  publicUrl: string | undefined;
}

export async function searchRoutes(app: FastifyInstance, deps: SearchRouteDeps): Promise<void> {
  const table = plans(deps.rateLimitPerMinute);
  app.post('/v2/search', { schema: { body: searchRequestSchema, tags: ['search'] }, config: { scope: 'search', bucket: 'scrape' } }, async (req, reply) => {
    const plan = planSearch(req.body as SearchBody);
    const { teamId, keyId, plan: planName } = principalOf(req);
    const teamPlan = table[planName] ?? table[DEFAULT_PLAN]!;
    const out = await deps.search.search(plan, {
      ...scrapeContext(deps.publicUrl, req, reply),
      scrapeConcurrency: Math.min(teamPlan.concurrency, MAX_SCRAPES_PER_SEARCH),
    });
    // One request, one cause: the results and the scrapes of them, priced by the search service.
    const creditsUsed = out.creditsUsed > 0 ? await deps.ledger.charge({ teamId, keyId, cause: `search:${randomUUID()}`, credits: out.creditsUsed }) : 0;
    req.creditsCharged = creditsUsed;
    return { success: true, data: out.data, creditsUsed, ...(out.warning ? { warning: out.warning } : {}) };
  });
}
