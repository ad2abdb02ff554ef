/**
 * `POST /v2/scrape` (synchronous) and `GET /v2/scrape/{id}` (a stored result). With `keepAlive`
 * the scrape's page stays open afterwards as the `interact` session of its scrapeId.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { COSTS, scrapeCost } from '../../billing/costs.js';
import type { CreditLedger } from '../../billing/ledger.js';
import type { BrowserSessions } from '../../browser/sessions.js';
import type { Document } from '../../core/document.js';
import { ApiError, isApiError } from '../../errors.js';
import { scrapeRequestSchema, type ScrapeRequest } from '../../scrape/options.js';
import type { ScrapeContext, Scraper } from '../../scrape/pipeline.js';
import type { DocumentRepository } from '../../store/documents.js';
import { principalOf } from '../auth.js';
import { baseUrlOf } from '../base-url.js';

const idParams = z.object({ id: z.string().uuid() });

/** Cancels the scrape's outbound work when the client goes away. */
function disconnectSignal(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) ac.abort();
  });
  return ac.signal;
}

export function scrapeContext(publicUrl: string | undefined, req: FastifyRequest, reply: FastifyReply): ScrapeContext {
  const base = baseUrlOf(publicUrl, req);
  const who = principalOf(req);
  return { teamId: who.teamId, keyId: who.keyId, absoluteUrl: (p) => base + p, signal: disconnectSignal(reply) };
}

export interface ScrapeRouteDeps {
  scraper: Scraper;
  documents: DocumentRepository<Document>;
  browserSessions: BrowserSessions;
  ledger: CreditLedger;
  publicUrl: string | undefined;
}

export async function scrapeRoutes(app: FastifyInstance, deps: ScrapeRouteDeps): Promise<void> {
  app.post(
    '/v2/scrape',
    { schema: { body: scrapeRequestSchema, tags: ['scrape'] }, config: { scope: 'scrape', bucket: 'scrape' } },
    async (req, reply) => {
      const { url, ...options } = req.body as ScrapeRequest;
      const { teamId, keyId } = principalOf(req);
      const charge = async (doc: Document) => {
        const n = await deps.ledger.charge({ teamId, keyId, cause: `scrape:${doc.metadata.scrapeId ?? randomUUID()}`, credits: scrapeCost(doc, options) });
        req.creditsCharged = (req.creditsCharged ?? 0) + n;
        return n;
      };
      const ctx = { ...scrapeContext(deps.publicUrl, req, reply), charge };
      try {
        const doc = options.keepAlive
          ? await deps.browserSessions.keepScrape(ctx.teamId, (keepPage) => deps.scraper.scrape(url, options, { ...ctx, keepPage }))
          : await deps.scraper.scrape(url, options, ctx);
        return { success: true, data: doc };
      } catch (e) {
        // A lockdown miss still looked: it costs its row of the table, and the 404 goes out.
        if (isApiError(e) && e.key === 'SCRAPE_LOCKDOWN_CACHE_MISS') {
          req.creditsCharged = await deps.ledger.charge({ teamId, keyId, cause: `lockdown-miss:${randomUUID()}`, credits: COSTS.lockdownMiss });
        }
        throw e;
      }
    },
  );

  app.get(
    '/v2/scrape/:id',
    { schema: { params: idParams, tags: ['scrape'] }, config: { scope: 'scrape', bucket: 'status' } },
    async (req) => {
      const { id } = req.params as z.output<typeof idParams>;
      const doc = await deps.documents.getScrape(id, principalOf(req).teamId);
      if (!doc) throw new ApiError('JOB_NOT_FOUND');
      return { success: true, data: doc };
    },
  );
}
