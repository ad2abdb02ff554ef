/**
 * An upgrade request (a WebSocket watcher) that is answered over plain HTTP instead (401, 404,
 * 429...) leaves a socket Node no longer reads HTTP from: once a request asks to upgrade, the
 * socket is handed over whole. Keeping it alive promised answers that never came, so the refusal
 * says `Connection: close` and the socket is ended once it is written.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

const isUpgrade = (raw: IncomingMessage) => raw.headers.upgrade !== undefined && /\bupgrade\b/i.test(raw.headers.connection ?? '');

export function closeRefusedUpgrades(app: FastifyInstance): void {
  // A request that was upgraded is hijacked and never reaches these hooks: only refusals do.
  app.addHook('onSend', async (req, reply, payload) => {
    if (isUpgrade(req.raw)) void reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async (req) => {
    if (isUpgrade(req.raw)) req.raw.socket.end();
  });
}
