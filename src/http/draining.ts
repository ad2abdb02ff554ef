/**
 * Requests that arrive while the server closes (on a kept-alive connection, or pipelined) get
 * the catalog's 503 through the error handler, so they carry the envelope and `Retry-After`
 * like every other 503, and `Connection: close` so the client reconnects elsewhere. Fastify's
 * own closing answer (`return503OnClosing`) bypasses the error handler, so it is turned off in
 * favour of this hook.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_req, reply) => {
    if (!closing) return;
    void reply.header('connection', 'close');
    throw new ApiError('SERVICE_UNAVAILABLE', { message: 'Service Unavailable: the server is shutting down' });
  });
}
