/**
 * `POST /v2/scrape` (synchronous) and `GET /v2/scrape/{id}` (a stored result). With `keepAlive`
 * the scrape's page stays open afterwards as the `interact` session of its scrapeId.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import type { Runtime } from '../../runtime.js';
import { scrapeRequestSchema, type ScrapeRequest } from '../../scrape/options.js';
import type { ScrapeContext } from '../../scrape/pipeline.js';
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

export function scrapeContext(rt: Runtime, req: FastifyRequest, reply: FastifyReply): ScrapeContext {
  const base = baseUrlOf(rt.config, req);
  const who = principalOf(req);
  return { teamId: who.teamId, keyId: who.keyId, absoluteUrl: (p) => base + p, signal: disconnectSignal(reply) };
}

export async function scrapeRoutes(app: FastifyInstance, rt: Runtime): Promise<void> {
  app.post(
    '/v2/scrape',
    { schema: { body: scrapeRequestSchema, tags: ['scrape'] }, config: { scope: 'scrape', bucket: 'scrape' } },
    async (req, reply) => {
      const { url, ...options } = req.body as ScrapeRequest;
      const ctx = scrapeContext(rt, req, reply);
      const doc = options.keepAlive
        ? await rt.browserSessions.keepScrape(ctx.teamId, (keepPage) => rt.scraper.scrape(url, options, { ...ctx, keepPage }))
        : await rt.scraper.scrape(url, options, ctx);
      return { success: true, data: doc };
    },
  );

  app.get(
    '/v2/scrape/:id',
    { schema: { params: idParams, tags: ['scrape'] }, config: { scope: 'scrape', bucket: 'status' } },
    async (req) => {
      const { id } = req.params as z.output<typeof idParams>;
      const doc = await rt.documents.getScrape(id, principalOf(req).teamId);
      if (!doc) throw new ApiError('JOB_NOT_FOUND');
      return { success: true, data: doc };
    },
  );
}
