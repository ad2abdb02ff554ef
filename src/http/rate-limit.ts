/**
 * Per-team, per-plan, per-minute limits. In memory for the embedded mode; in Redis when
 * configured, so every API process counts against the same budget.
 */
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DEFAULT_PLAN, type Plan, type RateBucket } from '../billing/plans.js';
import { ApiError } from '../errors.js';
import type { Principal } from '../store/keys.js';

export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly plans: Record<string, Plan>,
    private readonly redis?: Redis,
    private readonly keyPrefix = 'gleaner:rl',
  ) {}

  async consume(p: Principal, bucket: RateBucket, reply: FastifyReply): Promise<void> {
    const plan = this.plans[p.plan] ?? this.plans[DEFAULT_PLAN]!;
    const points = plan.perMinute[bucket];
    if (!Number.isFinite(points)) return;
    const limiter = this.limiter(plan.name, bucket, points);
    try {
      const res = await limiter.consume(p.teamId);
      void reply.header('X-RateLimit-Limit', points).header('X-RateLimit-Remaining', res.remainingPoints);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      const retryAfter = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
      const resetsAt = new Date(Date.now() + e.msBeforeNext).toISOString();
      throw new ApiError('RATE_LIMIT_EXCEEDED', {
        message: `Rate limit exceeded. Consumed (req/min): ${e.consumedPoints}, Remaining (req/min): 0. Please retry after ${retryAfter}s, resets at ${resetsAt}`,
        details: { retryAfterSeconds: retryAfter, limit: points, bucket },
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
  }

  private limiter(plan: string, bucket: RateBucket, points: number): RateLimiterAbstract {
    const key = `${plan}:${bucket}`;
    let l = this.limiters.get(key);
    if (!l) {
      const opts = { points, duration: 60, keyPrefix: `${this.keyPrefix}:${key}` };
      l = this.redis ? new RateLimiterRedis({ ...opts, storeClient: this.redis, useRedisPackage: false }) : new RateLimiterMemory(opts);
      this.limiters.set(key, l);
    }
    return l;
  }
}
