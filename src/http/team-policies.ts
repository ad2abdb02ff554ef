/**
 * The team policies a request meets before its handler runs (src/security/threat): a
 * `threatProtection` override the team's policy refuses is 403 before any job is made or URL
 * fetched, and a zero-data-retention team is refused, with ZDR_NOT_SUPPORTED, the endpoints that
 * only work by keeping what they fetched.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import type { ThreatOverride } from '../security/threat/policy.js';
import type { ThreatProtection } from '../security/threat/service.js';

/** Endpoints a ZDR team cannot use, and why (README, "Zero data retention"). */
const NEEDS_STORAGE: Record<string, string> = {
  'POST /v2/crawl': 'a crawl keeps its pages for its status pages, so crawls are not available',
  'POST /v2/batch/scrape': 'a batch scrape keeps its pages for its status pages, so batch scrapes are not available',
  'GET /v2/scrape/:id': 'scrapes are not stored, so scrape status is not available',
  'POST /v2/monitor': 'a monitor keeps snapshots of the pages it watches, so monitors are not available',
};

type Body = { threatProtection?: ThreatOverride | null; scrapeOptions?: { threatProtection?: ThreatOverride | null } } | undefined;

/** `threatProtection` sits at the top level, or in `scrapeOptions` for a crawl. */
const overrideOf = (body: Body, route: string): ThreatOverride | null | undefined =>
  route === 'POST /v2/crawl' ? body?.scrapeOptions?.threatProtection : body?.threatProtection;

export function installTeamPolicies(app: FastifyInstance, threat: ThreatProtection): void {
  app.addHook('preHandler', async (req) => {
    if (!req.principal || !req.routeOptions.url) return;
    const route = `${req.method} ${req.routeOptions.url}`;
    const refused = NEEDS_STORAGE[route];
    if (refused && (await threat.zdr(req.principal.teamId))) {
      throw new ApiError('ZDR_NOT_SUPPORTED', { message: `Zero data retention is enabled for this team: ${refused}` });
    }
    if (req.method !== 'POST' || typeof req.body !== 'object' || req.body === null) return;
    const override = overrideOf(req.body as Body, route);
    if (override) await threat.rulesFor(req.principal.teamId, override);
  });
}
