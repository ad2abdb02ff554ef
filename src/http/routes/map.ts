/** `POST /v2/map`: a site's URL list from its sitemaps and links (see crawl/map.ts). */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { COSTS } from '../../billing/costs.js';
import type { CreditLedger } from '../../billing/ledger.js';
import { DEFAULT_MAP_LIMIT, MAX_MAP_LIMIT, type MapRequest, type MapService } from '../../crawl/map.js';
import { MAX_TIMEOUT_MS, scrapeOptionsShape } from '../../scrape/options.js';
import { threatProtectionField } from '../../security/threat/policy.js';
import type { ThreatProtection } from '../../security/threat/service.js';
import { principalOf } from '../auth.js';
import { scrapeContext } from './scrape.js';

export const mapRequestSchema = z.looseObject({
  url: z.string().min(1).max(8192),
  search: z.string().max(1000).optional(),
  sitemap: z.enum(['include', 'skip', 'only']).default('include'),
  /** Older spellings of `sitemap`, still sent by v1-era callers. */
  ignoreSitemap: z.boolean().optional(),
  sitemapOnly: z.boolean().optional(),
  includeSubdomains: z.boolean().default(true),
  ignoreQueryParameters: z.boolean().default(true),
  filterByPath: z.boolean().default(true),
  limit: z.number().int().min(1).max(MAX_MAP_LIMIT).default(DEFAULT_MAP_LIMIT),
  timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional(),
  location: scrapeOptionsShape.location,
  // There is no shared index to consult; accepted so callers that send it keep working.
  useIndex: z.boolean().optional(),
  threatProtection: threatProtectionField,
  auditMetadata: scrapeOptionsShape.auditMetadata,
  integration: z.string().max(256).optional(),
  origin: z.string().max(256).optional(),
});

type MapBody = z.output<typeof mapRequestSchema>;

function toMapRequest(b: MapBody): MapRequest {
  const req: MapRequest = {
    url: b.url,
    sitemap: b.sitemapOnly ? 'only' : b.ignoreSitemap ? 'skip' : b.sitemap,
    includeSubdomains: b.includeSubdomains,
    ignoreQueryParameters: b.ignoreQueryParameters,
    filterByPath: b.filterByPath,
    limit: b.limit,
  };
  if (b.search !== undefined) req.search = b.search;
  if (b.timeout !== undefined) req.timeout = b.timeout;
  if (b.location) req.location = b.location;
  return req;
}

export interface MapRouteDeps {
  mapper: MapService;
  ledger: CreditLedger;
  threat: ThreatProtection;
  publicUrl: string | undefined;
}

export async function mapRoutes(app: FastifyInstance, deps: MapRouteDeps): Promise<void> {
  app.post('/v2/map', { schema: { body: mapRequestSchema, tags: ['map'] }, config: { scope: 'map', bucket: 'map' } }, async (req, reply) => {
    const body = req.body as MapBody;
    const { teamId, keyId } = principalOf(req);
    // One guard for the whole map: the pages it reads and the links it answers with.
    const guard = await deps.threat.guardFor(teamId, body.threatProtection);
    const ctx = scrapeContext(deps.publicUrl, req, reply);
    let links;
    try {
      ({ links } = await deps.mapper.map(toMapRequest(body), guard ? { ...ctx, guard } : ctx));
    } catch (e) {
      // A blocked start URL was still scanned.
      if (guard) await deps.threat.settle(guard, teamId, keyId);
      throw e;
    }
    let warning: string | undefined;
    let scans = 0;
    if (guard) {
      // Blocked links are dropped: a map lists what the team may fetch.
      const screened = await deps.threat.screen(guard, teamId, keyId, links.map((l) => l.url));
      const allowed = new Set(screened.allowed);
      links = links.filter((l) => allowed.has(l.url));
      scans = screened.credits;
      const notes = [...screened.warnings];
      if (screened.blocked.length) notes.push(`${screened.blocked.length} link(s) were dropped by threat protection`);
      if (notes.length) warning = notes.join(' ');
    }
    req.creditsCharged = (await deps.ledger.charge({ teamId, keyId, cause: `map:${randomUUID()}`, credits: COSTS.map })) + scans;
    return { success: true, links, ...(warning ? { warning } : {}) };
  });
}
