/** Picks the queue implementation: BullMQ when Redis is configured, the store-backed one otherwise. */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../store/schema.js';
import { BullQueueFactory } from './bullmq.js';
import { EmbeddedQueueFactory } from './embedded.js';
import type { QueueFactory } from './queue.js';

export interface QueueFactoryOptions {
  db: Kysely<Database>;
  redisUrl?: string;
  /** Redis key prefix (default `gleaner`). */
  redisPrefix?: string;
  log?: Logger;
  /** How long a job stays with a worker that stopped renewing its claim (default 30 s). */
  leaseMs?: number;
}

export function createQueueFactory(opts: QueueFactoryOptions): QueueFactory {
  const common = { ...(opts.log ? { log: opts.log } : {}), ...(opts.leaseMs !== undefined ? { leaseMs: opts.leaseMs } : {}) };
  if (opts.redisUrl) return new BullQueueFactory({ redisUrl: opts.redisUrl, prefix: opts.redisPrefix ?? 'gleaner', ...common });
  return new EmbeddedQueueFactory({ db: opts.db, ...common });
}

export type { BullQueueOptions } from './bullmq.js';
export type { EmbeddedQueueOptions } from './embedded.js';
export { BullQueueFactory, EmbeddedQueueFactory };
