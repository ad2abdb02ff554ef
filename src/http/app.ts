/**
 * Builds the Fastify application on a Runtime. Separate from `listen()` so tests can build the
 * whole server and talk to it in process or on an ephemeral port.
 */
import { randomUUID } from 'node:crypto';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Runtime } from '../runtime.js';
import { VERSION } from '../version.js';
import { installAudit } from '../billing/audit.js';
import { installAuth } from './auth.js';
import { frameworkError, installErrorHandling } from './errors.js';
import { installOpenApi } from './openapi.js';
import { endQuietConnectionsOnClose } from './quiet-connections.js';
import { browserRoutes } from './routes/browser.js';
import { fileRoutes } from './routes/files.js';
import { healthRoutes } from './routes/health.js';
import { jobRoutes } from './routes/jobs.js';
import { mapRoutes } from './routes/map.js';
import { parseRoutes } from './routes/parse.js';
import { monitorRoutes } from './routes/monitors.js';
import { scrapeRoutes } from './routes/scrape.js';
import { teamRoutes } from './routes/team.js';
import { zodValidatorCompiler } from './validation.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(rt: Runtime): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: rt.log as FastifyBaseLogger,
    bodyLimit: rt.config.bodyLimitBytes,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
    frameworkErrors: frameworkError,
    routerOptions: { ignoreTrailingSlash: true },
  });
  endQuietConnectionsOnClose(app);
  app.setValidatorCompiler(zodValidatorCompiler);
  // Responses are plain objects we build ourselves; skip schema-driven serialisation.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addHook('onSend', async (req, reply, payload) => {
    void reply.header('x-request-id', req.id);
    return payload;
  });

  installErrorHandling(app);
  installAuth(app, rt.keys, rt.limits, rt.ledger);
  installAudit(app, rt.audit);
  await installOpenApi(app, VERSION);
  await healthRoutes(app, rt);
  await fileRoutes(app, rt);
  await scrapeRoutes(app, rt);
  await mapRoutes(app, rt);
  await parseRoutes(app, rt);
  await monitorRoutes(app, rt);
  await browserRoutes(app, rt);
  await teamRoutes(app, rt);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(async (scope) => jobRoutes(scope, rt));
  return app;
}
