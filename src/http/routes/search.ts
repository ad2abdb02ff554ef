/** `POST /v2/search`: web, news and image results, optionally scraped (see search/service.ts). */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { CreditLedger } from '../../billing/ledger.js';
import { DEFAULT_PLAN, plans } from '../../billing/plans.js';
import { planSearch, searchRequestSchema, type SearchBody } from '../../search/request.js';
import type { SearchService } from '../../search/service.js';
import type { ThreatProtection } from '../../security/threat/service.js';
import { principalOf } from '../auth.js';
import { scrapeContext } from './scrape.js';

/** Results scraped at once for one search, whatever the plan allows. */
const MAX_SCRAPES_PER_SEARCH = 10;

export interface SearchRouteDeps {
  search: SearchService;
  threat: ThreatProtection;
  ledger: CreditLedger;
  /** The standard plan's requests per minute, from which the plan table is built. */
  rateLimitPerMinute: number;
  publicUrl: string | undefined;
}

export async function searchRoutes(app: FastifyInstance, deps: SearchRouteDeps): Promise<void> {
  const table = plans(deps.rateLimitPerMinute);
  app.post('/v2/search', { schema: { body: searchRequestSchema, tags: ['search'] }, config: { scope: 'search', bucket: 'scrape' } }, async (req, reply) => {
    const body = req.body as SearchBody;
    const plan = planSearch(body);
    const { teamId, keyId, plan: planName } = principalOf(req);
    const teamPlan = table[planName] ?? table[DEFAULT_PLAN]!;
    // One guard for the whole search: the results it screens and the pages it scrapes.
    const guard = await deps.threat.guardFor(teamId, body.threatProtection);
    const out = await deps.search.search(plan, {
      ...scrapeContext(deps.publicUrl, req, reply),
      scrapeConcurrency: Math.min(teamPlan.concurrency, MAX_SCRAPES_PER_SEARCH),
      ...(guard ? { guard, screen: (urls: string[]) => deps.threat.screen(guard, teamId, keyId, urls) } : {}),
    });
    // Scans of hosts first met while scraping (a redirect elsewhere) are charged here.
    const late = guard ? await deps.threat.settle(guard, teamId, keyId) : 0;
    // One request, one cause: the results and the scrapes of them, priced by the search service;
    // the scans of the results were charged as they were screened.
    const owed = out.creditsUsed - out.creditsCharged;
    const charged = owed > 0 ? await deps.ledger.charge({ teamId, keyId, cause: `search:${randomUUID()}`, credits: owed }) : 0;
    const creditsUsed = charged + out.creditsCharged + late;
    req.creditsCharged = creditsUsed;
    return { success: true, data: out.data, creditsUsed, ...(out.warning ? { warning: out.warning } : {}) };
  });
}
