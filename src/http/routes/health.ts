/** Liveness and readiness: `/health` says the process answers, `/ready` that its store does too. */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.js';

export interface HealthRouteDeps {
  /** Resolves when the store answers. */
  storeReady(): Promise<void>;
}

export async function healthRoutes(app: FastifyInstance, deps: HealthRouteDeps): Promise<void> {
  app.get('/health', { config: { public: true }, schema: { tags: ['health'] } }, async () => ({ status: 'ok' }));
  app.get('/ready', { config: { public: true }, schema: { tags: ['health'] } }, async () => {
    try {
      await deps.storeReady();
      return { status: 'ready' };
    } catch {
      throw new ApiError('SERVICE_UNAVAILABLE', { details: { store: 'unreachable' } });
    }
  });
}
