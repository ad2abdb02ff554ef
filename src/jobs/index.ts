/**
 * Picks the queue implementation: BullMQ when Redis is configured, the store-backed one
 * otherwise. BullMQ and its Redis client are loaded only when used (about 8 MB of heap that an
 * embedded server would otherwise carry).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../store/schema.js';
import { EmbeddedQueueFactory } from './embedded.js';
import type { QueueFactory } from './queue.js';

export interface QueueFactoryOptions {
  db: Kysely<Database>;
  redisUrl?: string;
  /** Redis key prefix (default `gleaner`). */
  redisPrefix?: string;
  log?: Logger;
  /** How long a job stays with a worker that stopped renewing its claim; overrides the job catalog's leases. */
  leaseMs?: number;
}

export async function createQueueFactory(opts: QueueFactoryOptions): Promise<QueueFactory> {
  const common = { ...(opts.log ? { log: opts.log } : {}), ...(opts.leaseMs !== undefined ? { leaseMs: opts.leaseMs } : {}) };
  if (opts.redisUrl) {
    const { BullQueueFactory } = await import('./bullmq.js');
    return new BullQueueFactory({ redisUrl: opts.redisUrl, prefix: opts.redisPrefix ?? 'gleaner', ...common });
  }
  return new EmbeddedQueueFactory({ db: opts.db, ...common });
}

export type { BullQueueOptions } from './bullmq.js';
export type { EmbeddedQueueOptions } from './embedded.js';
