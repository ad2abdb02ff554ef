/** `POST /v2/search`: web, news and image results, optionally scraped (see search/service.ts). */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_PLAN, plans } from '../../billing/plans.js';
import { planSearch, searchRequestSchema, type SearchBody } from '../../search/request.js';
import type { SearchService } from '../../search/service.js';
import { principalOf } from '../auth.js';
import { scrapeContext } from './scrape.js';

/** Results scraped at once for one search, whatever the plan allows. */
const MAX_SCRAPES_PER_SEARCH = 10;

export interface SearchRouteDeps {
  search: SearchService;
  /** The standard plan's requests per minute, from which the plan table is built. */
  rateLimitPerMinute: number;
  publicUrl: string | undefined;
}

export async function searchRoutes(app: FastifyInstance, deps: SearchRouteDeps): Promise<void> {
  const table = plans(deps.rateLimitPerMinute);
  app.post('/v2/search', { schema: { body: searchRequestSchema, tags: ['search'] }, config: { scope: 'search', bucket: 'scrape' } }, async (req, reply) => {
    const plan = planSearch(req.body as SearchBody);
    const teamPlan = table[principalOf(req).plan] ?? table[DEFAULT_PLAN]!;
    const out = await deps.search.search(plan, {
      ...scrapeContext(deps.publicUrl, req, reply),
      scrapeConcurrency: Math.min(teamPlan.concurrency, MAX_SCRAPES_PER_SEARCH),
    });
    return { success: true, data: out.data, creditsUsed: out.creditsUsed, ...(out.warning ? { warning: out.warning } : {}) };
  });
}
