/**
 * The distributed queue: BullMQ on Redis, shared by every `gleaner worker` process.
 *
 * Deduplication uses BullMQ's deduplication key rather than custom job ids: the key is released
 * when a job completes or fails, so ids can be reused while failed jobs are still kept, and ids
 * may contain any character. The per-team cap is a sorted set per team of running job ids, each
 * scored by its lease expiry, so a slot held by a dead process frees itself.
 */
import { DelayedError, Queue, UnrecoverableError, WaitingError, Worker, type Job, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { isRetryable, leaseOf } from './catalog.js';
import { abortedForClose, resolveEnqueue, runAsKind, RunningSet, teamCap } from './common.js';
import type { EnqueueItem, EnqueueOptions, JobHandler, JobQueue, ProcessOptions, QueueCounts, QueueFactory } from './queue.js';

export interface BullQueueOptions {
  redisUrl: string;
  /** Prefix of every key; lets installations (and test runs) share one Redis. */
  prefix: string;
  log?: Logger;
  /**
   * BullMQ lock duration: a dead worker's jobs are taken back about this long after it died.
   * Overrides the job catalog's lease of each queue (default: the catalog's, or 30 s).
   */
  leaseMs?: number;
  /** How often each worker looks for jobs whose lock lapsed (default half the lease). */
  stalledIntervalMs?: number;
  /** After aborting handlers on close, how long to wait for them before abandoning them (default 1 s). */
  abortGraceMs?: number;
  /** Lock lapses a job survives before it is failed as poison (default 5). */
  maxStalls?: number;
  /** How long failed jobs are kept for inspection (default 7 days). */
  keepFailedMs?: number;
  /** How long a job of a team at its cap waits before it is tried again (default 500 ms, jittered). */
  teamRetryMs?: number;
}

interface Settings {
  prefix: string;
  log: Logger;
  leaseMs: number | undefined;
  stalledIntervalMs: number | undefined;
  abortGraceMs: number;
  maxStalls: number;
  keepFailedMs: number;
  teamRetryMs: number;
  /** For adds and counts: fails commands when Redis stays away, so API requests do not hang. */
  producer: Redis;
  /** For workers: BullMQ needs commands to wait out reconnects there. */
  consumer: Redis;
}

/** What a BullMQ job carries: the caller's id and team beside the data. */
interface Envelope<T> {
  id: string;
  teamId: string;
  data: T;
}

export class BullQueueFactory implements QueueFactory {
  readonly kind = 'distributed' as const;
  private readonly settings: Settings;
  private readonly queues = new Map<string, BullJobQueue<unknown>>();
  private closing: Promise<void> | undefined;

  constructor(opts: BullQueueOptions) {
    if (!opts.prefix) throw new Error('a Redis key prefix is required');
    const log = opts.log ?? pino({ level: 'silent' });
    const producer = new Redis(opts.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const consumer = new Redis(opts.redisUrl, { lazyConnect: true, maxRetriesPerRequest: null });
    for (const r of [producer, consumer]) r.on('error', (err: unknown) => log.warn({ err }, 'redis connection error'));
    this.settings = {
      prefix: opts.prefix,
      log,
      leaseMs: opts.leaseMs,
      stalledIntervalMs: opts.stalledIntervalMs,
      abortGraceMs: opts.abortGraceMs ?? 1000,
      maxStalls: opts.maxStalls ?? 5,
      keepFailedMs: opts.keepFailedMs ?? 7 * 24 * 3600_000,
      teamRetryMs: opts.teamRetryMs ?? 500,
      producer,
      consumer,
    };
  }

  queue<T>(name: string): JobQueue<T> {
    if (this.closing) throw new Error('queue factory is closed');
    let q = this.queues.get(name);
    if (!q) {
      q = new BullJobQueue<unknown>(name, this.settings);
      this.queues.set(name, q);
    }
    return q as BullJobQueue<T>;
  }

  close(drainMs = 0): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.queues.values()].map((q) => q.close(drainMs)));
      await Promise.allSettled([this.settings.producer, this.settings.consumer].map((r) => (r.status === 'wait' ? r.disconnect() : r.quit())));
    })();
    return this.closing;
  }
}

class BullJobQueue<T> implements JobQueue<T> {
  private readonly queue: Queue<Envelope<T>>;
  private readonly running = new RunningSet();
  private readonly slots: TeamSlots;
  private worker: Worker<Envelope<T>> | undefined;
  private stopping = false;
  /** Set once close gave up on the handlers still running: they must not touch Redis again. */
  private detached = false;
  private closing: Promise<void> | undefined;
  private closed = false;
  private readonly leaseMs: number;

  constructor(
    readonly name: string,
    private readonly s: Settings,
  ) {
    this.leaseMs = s.leaseMs ?? leaseOf(name) ?? DEFAULT_LEASE_MS;
    this.queue = new Queue<Envelope<T>>(name, { connection: s.producer, prefix: s.prefix });
    this.queue.on('error', (err: unknown) => s.log.warn({ err, queue: name }, 'queue error'));
    this.slots = new TeamSlots(s.consumer, `${s.prefix}:${name}:gleaner-team:`, this.leaseMs);
  }

  add(teamId: string, data: T, opts?: EnqueueOptions): Promise<void> {
    return this.addBulk([{ teamId, data, ...(opts ? { opts } : {}) }]);
  }

  async addBulk(items: readonly EnqueueItem<T>[]): Promise<void> {
    // Draining handlers may still add follow-up work; only a finished close refuses it.
    if (this.closed) throw new Error(`queue ${this.name} is closed`);
    if (items.length === 0) return;
    await this.queue.addBulk(
      items.map((item) => {
        const o = resolveEnqueue(item.opts);
        const opts: JobsOptions = {
          attempts: o.attempts,
          backoff: { type: 'exponential', delay: o.backoffMs },
          removeOnComplete: true,
          removeOnFail: { age: Math.ceil(this.s.keepFailedMs / 1000) },
          ...(o.delayMs > 0 ? { delay: o.delayMs } : {}),
          ...(o.dedup ? { deduplication: { id: o.id } } : {}),
        };
        return { name: 'task', data: { id: o.id, teamId: item.teamId, data: item.data }, opts };
      }),
    );
  }

  process(handler: JobHandler<T>, opts: ProcessOptions): void {
    if (this.worker) throw new Error(`queue ${this.name} is already being processed`);
    if (this.stopping) throw new Error(`queue ${this.name} is closed`);
    this.worker = new Worker<Envelope<T>>(this.name, (job, token) => this.run(job, token, handler, opts), {
      connection: this.s.consumer,
      prefix: this.s.prefix,
      concurrency: Math.max(1, Math.floor(opts.concurrency)),
      lockDuration: this.leaseMs,
      stalledInterval: this.s.stalledIntervalMs ?? Math.max(100, Math.floor(this.leaseMs / 2)),
      maxStalledCount: this.s.maxStalls,
    });
    this.worker.on('error', (err: unknown) => this.s.log.warn({ err, queue: this.name }, 'queue worker error'));
    this.worker.on('stalled', (jobId) => this.s.log.warn({ queue: this.name, jobId }, 'job stalled: its worker stopped renewing the lock; it runs again'));
    this.worker.on('failed', (job, err) => {
      if (job && (job.attemptsMade >= (job.opts.attempts ?? 1) || err instanceof UnrecoverableError)) {
        this.s.log.warn({ queue: this.name, id: job.data.id, attempts: job.attemptsMade, err }, 'job failed');
      }
    });
  }

  async counts(): Promise<QueueCounts> {
    const c = await this.queue.getJobCounts('wait', 'prioritized', 'active', 'delayed', 'failed');
    return {
      waiting: (c.wait ?? 0) + (c.prioritized ?? 0),
      active: c.active ?? 0,
      delayed: c.delayed ?? 0,
      failed: c.failed ?? 0,
    };
  }

  close(drainMs = 0): Promise<void> {
    this.closing ??= (async () => {
      this.stopping = true;
      const worker = this.worker;
      if (worker) {
        // Stops fetching; a fetch already under way may still deliver a job, which `run` hands back.
        await worker.pause(true).catch((err: unknown) => this.s.log.warn({ err }, 'pausing queue worker failed'));
        const abandoned = await this.running.drain(drainMs, this.s.abortGraceMs);
        if (abandoned > 0) {
          this.s.log.warn({ queue: this.name, abandoned }, 'handlers ignored the abort; their jobs run again once their locks lapse');
        }
        this.detached = true;
        // Forced, so BullMQ neither waits for the abandoned handlers nor records their outcome.
        await worker.close(true);
      }
      this.detached = true;
      this.closed = true;
      await this.queue.close();
    })();
    return this.closing;
  }

  private async run(job: Job<Envelope<T>>, token: string | undefined, handler: JobHandler<T>, opts: ProcessOptions): Promise<void> {
    const env = job.data;
    if (this.stopping) await this.handBack(job, token);
    const jobId = job.id!;
    const cap = teamCap(opts.teamConcurrency, env.teamId);
    if (cap !== undefined && !(await this.acquireSlot(env.teamId, jobId, cap))) {
      // The team is at its cap elsewhere: step aside without spending an attempt.
      const wait = this.s.teamRetryMs * (0.5 + Math.random());
      await job.moveToDelayed(Date.now() + wait, token);
      throw new DelayedError();
    }
    return this.running.track(async (signal) => {
      const renew = cap === undefined ? undefined : setInterval(() => void this.renewSlot(env.teamId, jobId), Math.max(50, this.leaseMs / 3));
      let failure: { error: unknown } | undefined;
      try {
        const attempt = job.attemptsMade + 1;
        const queued = { id: env.id, teamId: env.teamId, data: env.data, attempt, final: attempt >= (job.opts.attempts ?? 1) };
        await runAsKind(this.name, env.data, signal, (s) => handler(queued, s));
      } catch (error) {
        failure = { error };
      } finally {
        clearInterval(renew);
      }
      if (this.detached) return;
      if (cap !== undefined) await this.slots.release(env.teamId, jobId).catch((err: unknown) => this.s.log.warn({ err }, 'releasing a team slot failed'));
      if (abortedForClose(signal)) await this.handBack(job, token);
      if (!failure) return;
      // BullMQ retries whatever is thrown while attempts remain; an error no retry can mend says so.
      if (!isRetryable(failure.error)) throw new UnrecoverableError(messageOf(failure.error));
      throw failure.error;
    });
  }

  /** Puts a job back in the wait list untouched; BullMQ leaves a job alone after a WaitingError. */
  private async handBack(job: Job<Envelope<T>>, token: string | undefined): Promise<never> {
    // If this fails the lock still lapses and the stalled checker hands the job back instead.
    await job.moveToWait(token).catch((err: unknown) => this.s.log.warn({ err, queue: this.name }, 'handing a job back failed'));
    throw new WaitingError();
  }

  /** A Redis hiccup here should delay the job, not spend one of its attempts. */
  private async acquireSlot(teamId: string, jobId: string, cap: number): Promise<boolean> {
    try {
      return await this.slots.acquire(teamId, jobId, cap);
    } catch (err) {
      this.s.log.warn({ err, queue: this.name }, 'taking a team slot failed');
      return false;
    }
  }

  private async renewSlot(teamId: string, jobId: string): Promise<void> {
    if (this.detached) return;
    await this.slots.renew(teamId, jobId).catch((err: unknown) => this.s.log.warn({ err }, 'renewing a team slot failed'));
  }
}

const DEFAULT_LEASE_MS = 30_000;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// Scores are lease expiries in Redis server time, so clocks of worker machines do not matter.
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;
const RENEW = `${NOW}
if redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[2]), ARGV[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

/** Running jobs per team across every process: one sorted set per team, members expire with their lease. */
class TeamSlots {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly leaseMs: number,
  ) {}

  async acquire(teamId: string, jobId: string, cap: number): Promise<boolean> {
    return (await this.redis.eval(ACQUIRE, 1, this.keyPrefix + teamId, jobId, this.leaseMs, cap)) === 1;
  }

  async renew(teamId: string, jobId: string): Promise<void> {
    await this.redis.eval(RENEW, 1, this.keyPrefix + teamId, jobId, this.leaseMs);
  }

  async release(teamId: string, jobId: string): Promise<void> {
    await this.redis.zrem(this.keyPrefix + teamId, jobId);
  }
}
