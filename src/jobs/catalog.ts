/**
 * The job catalog: every kind of background task, declared once with its payload schema and
 * its delivery policy (attempts, backoff, lease, timeout). Producers build queue items from it
 * (`taskItem`), and both queue backends read it when they run a job: the payload is checked
 * against its kind's schema, the handler is stopped at the kind's timeout, and a failed attempt
 * is retried only while attempts remain and the error catalog calls the error retryable.
 *
 * A new feature (search, accounts, the agent) adds its kinds here; a queue is a group of kinds
 * that share workers and per-team caps.
 */
import { z } from 'zod';
import { isApiError } from '../errors.js';
import type { EnqueueItem } from './queue.js';

export interface TaskSpec<P = unknown> {
  /** Dotted name: the feature, then the step. */
  readonly name: string;
  /** The queue its jobs wait in. */
  readonly queue: string;
  readonly payload: z.ZodType<P>;
  /** Runs in all, the first included, before the job is given up. */
  readonly attempts: number;
  /** Wait before the first retry; it doubles for each one after. */
  readonly backoffMs: number;
  /** How long a worker holds the job without renewing before another may take it over. */
  readonly leaseMs: number;
  /** How long one run may take; past it the run is aborted and counts as a retryable failure. */
  readonly timeoutMs: number;
}

const id = z.string().min(1).max(4096);
/** A page's URL key: normalised URLs go up to 8,192 characters (crawl/normalize.ts), keys a little past. */
const urlKey = z.string().min(1).max(16_384);

function task<P>(spec: TaskSpec<P>): TaskSpec<P> {
  return Object.freeze(spec);
}

export const tasks = {
  /** Robots.txt, sitemaps and the start URL of a crawl. */
  crawlKickoff: task({
    name: 'crawl.kickoff',
    queue: 'crawl',
    payload: z.object({ kind: z.literal('kickoff'), crawlId: id }),
    attempts: 3,
    backoffMs: 1000,
    leaseMs: 30_000,
    timeoutMs: 10 * 60_000,
  }),
  /** One page of a crawl: politeness gate, the scrape pipeline, link discovery. */
  crawlPage: task({
    name: 'crawl.page',
    queue: 'crawl',
    payload: z.object({ kind: z.literal('page'), crawlId: id, urlKey }),
    attempts: 3,
    backoffMs: 1000,
    leaseMs: 30_000,
    timeoutMs: 10 * 60_000,
  }),
  /** One listed URL of a batch scrape. */
  batchPage: task({
    name: 'batch.page',
    queue: 'crawl',
    payload: z.object({ kind: z.literal('batch-page'), crawlId: id, urlKey }),
    attempts: 3,
    backoffMs: 1000,
    leaseMs: 30_000,
    timeoutMs: 10 * 60_000,
  }),
  /**
   * One check of a monitor. A check whose crawl targets are still running puts itself back with
   * a delay rather than holding a worker while it waits for them; the check row carries its
   * progress, so each run picks up where the last one stopped.
   */
  monitorCheck: task({
    name: 'monitor.check',
    queue: 'monitor',
    payload: z.object({ checkId: id }),
    attempts: 3,
    backoffMs: 2000,
    leaseMs: 30_000,
    timeoutMs: 30 * 60_000,
  }),
  /**
   * One signed webhook event. Deliveries wait in the store's outbox rather than a job queue: an
   * event is written in the transaction of the state change it reports, and the events of one
   * job go out in order.
   */
  webhookDelivery: task({
    name: 'webhook.delivery',
    queue: 'webhook',
    payload: z.object({ deliveryId: z.number().int().positive() }),
    attempts: 6,
    backoffMs: 1000,
    leaseMs: 50_000,
    timeoutMs: 10_000,
  }),
} as const;

export type TaskKind = keyof typeof tasks;
export type PayloadOf<K extends TaskKind> = z.infer<(typeof tasks)[K]['payload']>;

const all: readonly TaskSpec[] = Object.values(tasks) as TaskSpec[];

/** The kinds whose jobs wait in a queue; empty for a queue the catalog does not know. */
export function kindsOf(queue: string): readonly TaskSpec[] {
  return all.filter((s) => s.queue === queue);
}

/** A queue's lease: the longest of its kinds', so no kind loses a live worker's job. */
export function leaseOf(queue: string): number | undefined {
  const kinds = kindsOf(queue);
  return kinds.length === 0 ? undefined : Math.max(...kinds.map((k) => k.leaseMs));
}

/**
 * The kind of a queued payload: the first of the queue's kinds whose schema accepts it (their
 * payloads differ by a literal field, or by shape). Undefined when none does.
 */
export function kindOfPayload(queue: string, data: unknown): TaskSpec | undefined {
  return kindsOf(queue).find((k) => k.payload.safeParse(data).success);
}

/**
 * A queue item of a kind, with the kind's attempts and backoff. `id` deduplicates against a job
 * of that id still pending; `delayMs` holds the job back.
 */
export function taskItem<P>(spec: TaskSpec<P>, teamId: string, payload: P, opts: { id?: string; delayMs?: number } = {}): EnqueueItem<P> {
  return {
    teamId,
    data: spec.payload.parse(payload),
    opts: { ...opts, attempts: spec.attempts, backoffMs: spec.backoffMs },
  };
}

/** Why a run stopped when its kind's timeout passed. */
export class TaskTimeoutError extends Error {
  constructor(spec: TaskSpec) {
    super(`${spec.name} task ran longer than ${spec.timeoutMs} ms`);
    this.name = 'TaskTimeoutError';
  }
}

/** A payload no kind of its queue accepts: running it again cannot help. */
export class TaskPayloadError extends Error {
  constructor(queue: string) {
    super(`a job of queue ${queue} has a payload none of its task kinds accepts`);
    this.name = 'TaskPayloadError';
  }
}

/**
 * Whether another attempt may succeed: the error catalog's `retryable` flag for its errors, no
 * for a payload no kind accepts, yes for anything else (a lost connection, a full disk).
 */
export function isRetryable(error: unknown): boolean {
  for (let cur: unknown = error, depth = 0; cur && depth < 6; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (isApiError(cur)) return cur.retryable;
    if (cur instanceof TaskPayloadError) return false;
  }
  return true;
}

/** Whether the run's signal fired because its kind's timeout passed (rather than close or a lost lease). */
export function timedOut(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof TaskTimeoutError;
}
