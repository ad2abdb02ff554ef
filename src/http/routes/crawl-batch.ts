/**
 * Crawl and batch-scrape routes: one shape for both kinds of job. Create, status (paged, and a
 * WebSocket stream on the same path), cancel, errors; plus the list of a team's active crawls.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { ApiError, isApiError } from '../../errors.js';
import type { Logger } from 'pino';
import type { ModelProvider } from '../../llm/provider.js';
import { applyGenerated, optionsFromPrompt, paramsPreviewSchema, type GeneratedOptions } from '../../crawl/prompt.js';
import { batchRequestSchema, crawlRequestSchema, type BatchRequest, type CrawlRequest } from '../../crawl/options.js';
import type { JobKind } from '../../crawl/store.js';
import { TERMINAL } from '../../crawl/store.js';
import type { CrawlService } from '../../crawl/service.js';
import { principalOf } from '../auth.js';
import { baseUrlOf } from '../base-url.js';

// Any id shape is looked up: an unknown one is simply not found.
const idParams = z.object({ id: z.string().min(1).max(128) });
const pageQuery = z.looseObject({
  skip: z.coerce.number().int().min(0).max(10_000_000).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
});

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function idempotencyKey(req: FastifyRequest): string | undefined {
  const v = req.headers['x-idempotency-key'];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !IDEMPOTENCY_KEY.test(v)) {
    throw new ApiError('BAD_REQUEST', { details: [{ code: 'invalid_header', path: ['x-idempotency-key'], message: 'Expected 1-255 visible ASCII characters' }] });
  }
  return v;
}

/** The model call behind a crawl prompt: the caller's team and key, a fresh id, a bounded wait. */
const promptScope = (who: { teamId: string; keyId: string }, timeoutMs: number) => ({ teamId: who.teamId, keyId: who.keyId, requestId: randomUUID(), deadline: Date.now() + timeoutMs });

const basePath = (kind: JobKind) => (kind === 'crawl' ? '/v2/crawl' : '/v2/batch/scrape');

export interface CrawlBatchRouteDeps {
  crawls: CrawlService;
  /** The language model, when one is configured: a crawl's `prompt` becomes its options. */
  model: ModelProvider | undefined;
  log: Logger;
  publicUrl: string | undefined;
}

export async function crawlBatchRoutes(app: FastifyInstance, deps: CrawlBatchRouteDeps): Promise<void> {
  app.post(
    '/v2/crawl',
    { schema: { body: crawlRequestSchema, tags: ['crawl'] }, config: { scope: 'crawl', bucket: 'crawl' } },
    async (req) => {
      const base = baseUrlOf(deps.publicUrl, req);
      const who = principalOf(req);
      let body = req.body as CrawlRequest;
      let generated: GeneratedOptions | undefined;
      if (typeof body.prompt === 'string' && body.prompt.trim()) {
        generated = await optionsFromPrompt(deps.model, promptScope(who, body.scrapeOptions.timeout), body.url, body.prompt);
        body = applyGenerated(body, generated, crawlRequestSchema.parse({ url: body.url }));
      }
      const { id } = await deps.crawls.startCrawl(who.teamId, body, idempotencyKey(req), base);
      return { success: true, id, url: `${base}/v2/crawl/${id}`, ...(generated ? { promptGeneratedOptions: generated } : {}) };
    },
  );

  app.post(
    '/v2/crawl/params-preview',
    { schema: { body: paramsPreviewSchema, tags: ['crawl'] }, config: { scope: 'crawl', bucket: 'crawl' } },
    async (req) => {
      const body = req.body as z.output<typeof paramsPreviewSchema>;
      const who = principalOf(req);
      const data = await optionsFromPrompt(deps.model, promptScope(who, 60_000), body.url, body.prompt);
      return { success: true, data: { url: body.url, ...data } };
    },
  );

  app.post(
    '/v2/batch/scrape',
    { schema: { body: batchRequestSchema, tags: ['batch'] }, config: { scope: 'scrape', bucket: 'crawl' } },
    async (req) => {
      const base = baseUrlOf(deps.publicUrl, req);
      const r = await deps.crawls.startBatch(principalOf(req).teamId, req.body as BatchRequest, idempotencyKey(req), base);
      return { success: true, id: r.id, url: `${base}/v2/batch/scrape/${r.id}`, ...(r.invalidURLs ? { invalidURLs: r.invalidURLs } : {}) };
    },
  );

  for (const path of ['/v2/crawl/active', '/v2/crawl/ongoing']) {
    app.get(path, { schema: { tags: ['crawl'] }, config: { scope: 'crawl', bucket: 'status' } }, async (req) => ({
      success: true,
      crawls: await deps.crawls.active(principalOf(req).teamId),
    }));
  }

  for (const kind of ['crawl', 'batch'] as const) {
    const scope = kind === 'crawl' ? 'crawl' : 'scrape';
    const path = basePath(kind);

    app.route({
      method: 'GET',
      url: `${path}/:id`,
      schema: { params: idParams, querystring: pageQuery, tags: [kind] },
      config: { scope, bucket: 'status' },
      handler: async (req, reply) => {
        const { id } = req.params as z.output<typeof idParams>;
        const q = req.query as z.output<typeof pageQuery>;
        const base = baseUrlOf(deps.publicUrl, req);
        const selfUrl = (skip: number, limit?: number) => `${base}${path}/${id}?skip=${skip}${limit !== undefined ? `&limit=${limit}` : ''}`;
        const { documents, ...page } = await deps.crawls.status(principalOf(req).teamId, id, kind, { ...(q.skip !== undefined ? { skip: q.skip } : {}), ...(q.limit !== undefined ? { limit: q.limit } : {}) }, selfUrl);
        return reply.type('application/json; charset=utf-8').send(withRawData({ success: true, ...page }, documents));
      },
      wsHandler: (socket, req) => {
        const { id } = req.params as { id: string };
        void watch(deps, socket, principalOf(req).teamId, id, kind);
      },
    });

    app.delete(
      `${path}/:id`,
      { schema: { params: idParams, tags: [kind] }, config: { scope, bucket: 'status' } },
      async (req) => {
        const { id } = req.params as z.output<typeof idParams>;
        await deps.crawls.cancel(principalOf(req).teamId, id, kind);
        return { success: true, status: 'cancelled' };
      },
    );

    app.get(
      `${path}/:id/errors`,
      { schema: { params: idParams, tags: [kind] }, config: { scope, bucket: 'status' } },
      async (req) => {
        const { id } = req.params as z.output<typeof idParams>;
        return { success: true, ...(await deps.crawls.errors(principalOf(req).teamId, id, kind)) };
      },
    );
  }
}

const WATCH_POLL_MS = 250;

/**
 * The status stream the SDK's watcher reads: a `catchup` snapshot, then one `document` message
 * per finished page in order, then `done` (or a terminal snapshot for cancelled and failed jobs)
 * and a clean close. It reads the store, so it works whichever process runs the job.
 */
async function watch(deps: CrawlBatchRouteDeps, socket: WebSocket, teamId: string, id: string, kind: JobKind): Promise<void> {
  let open = true;
  socket.on('close', () => (open = false));
  socket.on('error', () => (open = false));
  const send = (msg: unknown) => open && socket.send(JSON.stringify(msg));
  try {
    let job = await deps.crawls.owned(teamId, id, kind);
    const snapshot = () => ({
      status: job.status,
      completed: job.finished,
      total: job.discovered,
      creditsUsed: job.creditsUsed,
      expiresAt: new Date(job.expiresAt).toISOString(),
      data: [],
    });
    send({ type: 'catchup', data: { ...snapshot(), status: 'scraping' } });
    let seq = 0;
    while (open) {
      const rows = await deps.crawls.resultsAfter(id, seq, 200);
      for (const r of rows) {
        seq = r.seq;
        send({ type: 'document', data: JSON.parse(r.document) });
      }
      if (rows.length === 200) continue;
      const terminal = TERMINAL.includes(job.status);
      if (terminal) {
        // Documents that landed between the last read and the terminal state were read above.
        if (job.status === 'completed') send({ type: 'done', data: { status: 'completed', total: job.discovered, completed: job.finished, creditsUsed: job.creditsUsed } });
        else send({ type: 'catchup', data: snapshot() });
        socket.close(1000);
        return;
      }
      await new Promise((r) => setTimeout(r, WATCH_POLL_MS));
      job = await deps.crawls.owned(teamId, id, kind);
    }
  } catch (e) {
    const error = isApiError(e) ? e.message : 'Internal error';
    if (!isApiError(e)) deps.log.error({ err: e, jobId: id }, 'watch stream failed');
    send({ type: 'error', error });
    if (open) socket.close(isApiError(e) && e.status === 404 ? 1008 : 1011, error.slice(0, 120));
  }
}

/** `body` as JSON text with a `data` array of documents that are JSON text already. */
function withRawData(body: Record<string, unknown>, documents: readonly string[]): string {
  const head = JSON.stringify(body);
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"data":[${documents.join(',')}]}`;
}
