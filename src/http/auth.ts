/**
 * Bearer-key authentication and per-team rate limits, run for every route before its body is
 * read, so an anonymous or over-limit caller costs no parsing. Routes declare what they need in
 * their `config`: a scope and a rate bucket, or `public: true`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { assertCanPay, minimumCharge } from '../billing/gate.js';
import type { CreditLedger } from '../billing/ledger.js';
import type { RateBucket } from '../billing/plans.js';
import { hasScope, type KeyRepository, type Principal, type Scope } from '../store/keys.js';
import type { RateLimits } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    public?: boolean;
    scope?: Scope;
    bucket?: RateBucket;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** The authenticated caller; routes that are not public can rely on it. */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new ApiError('UNAUTHORIZED');
  return req.principal;
}

const bearer = /^Bearer\s+(\S+)\s*$/i;

/**
 * Browsers and the SDK's watcher cannot set headers on a WebSocket, so they send the key as the
 * subprotocol; the server echoes it back in the handshake.
 */
function websocketToken(req: FastifyRequest): string | undefined {
  if (req.headers.upgrade?.toLowerCase() !== 'websocket') return undefined;
  const proto = req.headers['sec-websocket-protocol'];
  return typeof proto === 'string' ? proto.split(',')[0]?.trim() || undefined : undefined;
}

export function installAuth(app: FastifyInstance, keys: KeyRepository, limits: RateLimits, ledger?: CreditLedger): void {
  app.addHook('onRequest', async (req, reply) => {
    const config = req.routeOptions.config;
    // Unknown routes have no config; let the not-found handler answer them.
    if (config.public || !req.routeOptions.url) return;
    const token = bearer.exec(req.headers.authorization ?? '')?.[1] ?? websocketToken(req);
    const principal = token ? await keys.authenticate(token) : undefined;
    if (!principal) throw new ApiError('UNAUTHORIZED');
    if (config.scope && !hasScope(principal, config.scope)) {
      throw new ApiError('FORBIDDEN', { message: `Forbidden: this API key lacks the '${config.scope}' scope` });
    }
    req.principal = principal;
    if (config.bucket) await limits.consume(principal, config.bucket, reply);
  });
  if (!ledger) return;
  // Credits are checked once the body is valid (a malformed request is a 400, whatever the
  // balance) and before the handler does any work; the audit log then sees who was refused.
  app.addHook('preHandler', async (req) => {
    const least = minimumCharge(req.method, req.routeOptions.url);
    if (req.principal && least !== undefined) await assertCanPay(ledger, req.principal.teamId, least);
  });
}
