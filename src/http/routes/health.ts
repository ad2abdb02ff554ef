/** Liveness and readiness: `/health` says the process answers, `/ready` that its store does too. */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ApiError } from '../../errors.js';
import type { Runtime } from '../../runtime.js';

export async function healthRoutes(app: FastifyInstance, rt: Runtime): Promise<void> {
  app.get('/health', { config: { public: true }, schema: { tags: ['health'] } }, async () => ({ status: 'ok' }));
  app.get('/ready', { config: { public: true }, schema: { tags: ['health'] } }, async () => {
    try {
      await sql`select 1`.execute(rt.store.db);
      return { status: 'ready' };
    } catch {
      throw new ApiError('SERVICE_UNAVAILABLE', { details: { store: 'unreachable' } });
    }
  });
}
