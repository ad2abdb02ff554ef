/**
 * One suite for every queue implementation: embedded on SQLite always, embedded on PostgreSQL
 * when DATABASE_URL is set, BullMQ when REDIS_URL is set. A second factory on the same store or
 * Redis stands in for a second process.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import type { Store } from '../store/db.js';
import { scratchStore } from '../../test/helpers/scratch-store.js';
import { BullQueueFactory } from './bullmq.js';
import { EmbeddedQueueFactory } from './embedded.js';
import type { JobQueue, QueueFactory, QueueJob } from './queue.js';

interface FactoryOptions {
  leaseMs?: number;
  maxStalls?: number;
}

interface Impl {
  name: string;
  setup(): Promise<void>;
  /** A factory as another process would have it: on the same store or Redis, with its own connections. */
  factory(opts?: FactoryOptions): Promise<QueueFactory>;
  teardown(): Promise<void>;
}

const runId = randomUUID().replace(/-/g, '').slice(0, 12);

function embedded(name: string, databaseUrl?: string): Impl {
  const scratch = scratchStore('queue', databaseUrl);
  let first: Store | undefined;
  const open = () => scratch.open();
  return {
    name,
    async setup() {
      first = await open();
    },
    async factory(opts = {}) {
      // A process has one SQLite connection: a second one in the same process would block the
      // event loop on the file lock that the first one, waiting on that same loop, holds.
      const store = databaseUrl ? await open() : first!;
      const f = new EmbeddedQueueFactory({ db: store.db, pollMs: 50, abortGraceMs: 100, ...opts });
      let closing: Promise<void> | undefined;
      return {
        kind: f.kind,
        queue: <T>(n: string) => f.queue<T>(n),
        close: (drainMs?: number) => (closing ??= f.close(drainMs).then(() => (store === first ? undefined : store.close()))),
      };
    },
    async teardown() {
      await first?.close();
      await scratch.remove();
    },
  };
}

function bullmq(redisUrl: string): Impl {
  const prefix = `gleaner-test:${runId}`;
  return {
    name: 'BullMQ',
    async setup() {},
    async factory(opts = {}) {
      return new BullQueueFactory({ redisUrl, prefix, abortGraceMs: 100, teamRetryMs: 100, ...opts });
    },
    async teardown() {
      const redis = new Redis(redisUrl);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
          if (keys.length > 0) await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}

const impls: Impl[] = [embedded('embedded (SQLite)')];
if (process.env.DATABASE_URL) impls.push(embedded('embedded (PostgreSQL)', process.env.DATABASE_URL));
if (process.env.REDIS_URL) impls.push(bullmq(process.env.REDIS_URL));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A promise with its resolve exposed, for handlers that should wait for the test. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

interface Data {
  n: number;
}

describe.each(impls)('job queue: $name', (impl) => {
  const factories: QueueFactory[] = [];
  let queueCount = 0;
  /** Each test gets its own queue name, so tests share the store without seeing each other's jobs. */
  let queueName = '';
  beforeEach(() => {
    queueName = `q${++queueCount}`;
  });

  const factory = async (opts?: FactoryOptions) => {
    const f = await impl.factory(opts);
    factories.push(f);
    return f;
  };
  const queue = async (opts?: FactoryOptions): Promise<JobQueue<Data>> => (await factory(opts)).queue<Data>(queueName);

  beforeAll(() => impl.setup());
  afterAll(() => impl.teardown());
  afterEach(async () => {
    await Promise.all(factories.splice(0).map((f) => f.close(0)));
  });

  it('runs each job once with its data and team', async () => {
    const q = await queue();
    const seen: QueueJob<Data>[] = [];
    q.process(async (job) => void seen.push(job), { concurrency: 4 });
    await q.add('team-a', { n: 0 }, { id: 'job-0' });
    await q.addBulk(Array.from({ length: 19 }, (_, i) => ({ teamId: i % 2 ? 'team-a' : 'team-b', data: { n: i + 1 } })));
    await waitFor('20 jobs', () => seen.length >= 20);
    await waitFor('an empty queue', async () => Object.values(await q.counts()).every((c) => c === 0));
    await sleep(200);
    expect(seen).toHaveLength(20);
    expect(new Set(seen.map((j) => j.data.n)).size).toBe(20);
    expect(seen.find((j) => j.data.n === 0)).toMatchObject({ id: 'job-0', teamId: 'team-a', attempt: 1 });
    for (const j of seen.filter((j) => j.data.n > 0)) expect(j.teamId).toBe(j.data.n % 2 === 0 ? 'team-a' : 'team-b');
    expect(new Set(seen.map((j) => j.id)).size).toBe(20);
  });

  it('ignores an add whose id is still pending, and takes it again once the job finished', async () => {
    const q = await queue();
    await q.add('t', { n: 1 }, { id: 'same' });
    await q.add('t', { n: 2 }, { id: 'same' });
    await q.addBulk([
      { teamId: 't', data: { n: 3 }, opts: { id: 'same' } },
      { teamId: 't', data: { n: 4 }, opts: { id: 'other' } },
      { teamId: 't', data: { n: 5 }, opts: { id: 'other' } },
    ]);
    expect(await q.counts()).toMatchObject({ waiting: 2, active: 0 });
    const seen: QueueJob<Data>[] = [];
    const release = gate();
    q.process(
      async (job) => {
        seen.push(job);
        if (job.data.n === 1) await release.promise;
      },
      { concurrency: 2 },
    );
    await waitFor('both jobs', () => seen.length === 2);
    // Still active: another add of the same id is a no-op.
    await q.add('t', { n: 6 }, { id: 'same' });
    release.open();
    await waitFor('an empty queue', async () => Object.values(await q.counts()).every((c) => c === 0));
    expect(seen.map((j) => [j.id, j.data.n]).sort()).toEqual([
      ['other', 4],
      ['same', 1],
    ]);
    await q.add('t', { n: 7 }, { id: 'same' });
    await waitFor('the re-added job', () => seen.length === 3);
    expect(seen[2]).toMatchObject({ id: 'same', data: { n: 7 } });
  });

  it('runs a delayed job no sooner than its delay', async () => {
    const q = await queue();
    const ran: Array<{ n: number; at: number }> = [];
    q.process(async (job) => void ran.push({ n: job.data.n, at: Date.now() }), { concurrency: 2 });
    const added = Date.now();
    await q.add('t', { n: 1 }, { delayMs: 700 });
    expect((await q.counts()).delayed).toBe(1);
    await q.add('t', { n: 2 });
    await waitFor('both jobs', () => ran.length === 2);
    expect(ran.map((r) => r.n)).toEqual([2, 1]);
    expect(ran[1]!.at - added).toBeGreaterThanOrEqual(690);
  });

  it('retries with exponential backoff, then keeps the job as failed; its id can be added again', async () => {
    const q = await queue();
    const attempts: Array<{ n: number; attempt: number; at: number }> = [];
    q.process(
      async (job) => {
        attempts.push({ n: job.data.n, attempt: job.attempt, at: Date.now() });
        if (job.data.n === 1 || job.attempt < 2) throw new Error(`boom ${job.attempt}`);
      },
      { concurrency: 2 },
    );
    await q.add('t', { n: 1 }, { id: 'doomed', attempts: 3, backoffMs: 150 });
    await q.add('t', { n: 2 }, { id: 'flaky', attempts: 2, backoffMs: 50 });
    await waitFor('one failed job', async () => (await q.counts()).failed === 1);
    await waitFor('no active job', async () => (await q.counts()).active === 0);
    const doomed = attempts.filter((a) => a.n === 1);
    expect(doomed.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(doomed[1]!.at - doomed[0]!.at).toBeGreaterThanOrEqual(140);
    expect(doomed[2]!.at - doomed[1]!.at).toBeGreaterThanOrEqual(290);
    expect(attempts.filter((a) => a.n === 2).map((a) => a.attempt)).toEqual([1, 2]);
    expect(await q.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 1 });

    await q.add('t', { n: 1 }, { id: 'doomed' });
    await waitFor('the re-added job', () => attempts.filter((a) => a.n === 1).length === 4);
    expect(attempts.at(-1)).toMatchObject({ n: 1, attempt: 1 });
  });

  it("retries what the error catalog calls retryable and nothing else, and tells a handler its last attempt", async () => {
    const q = await queue();
    const seen: Array<{ n: number; attempt: number; final: boolean }> = [];
    q.process(
      async (job) => {
        seen.push({ n: job.data.n, attempt: job.attempt, final: job.final });
        if (job.data.n === 1) throw new ApiError('URL_BLOCKED');
        if (job.data.n === 2 && job.attempt < 3) throw new ApiError('SCRAPE_TIMEOUT');
      },
      { concurrency: 2 },
    );
    await q.add('t', { n: 1 }, { attempts: 3, backoffMs: 10 });
    await q.add('t', { n: 2 }, { attempts: 3, backoffMs: 10 });
    await waitFor('one failed job', async () => (await q.counts()).failed === 1);
    await waitFor('the retried job done', () => seen.filter((s) => s.n === 2).length === 3);
    await waitFor('no active job', async () => (await q.counts()).active === 0);
    expect(seen.filter((s) => s.n === 1)).toEqual([{ n: 1, attempt: 1, final: false }]);
    expect(seen.filter((s) => s.n === 2)).toEqual([
      { n: 2, attempt: 1, final: false },
      { n: 2, attempt: 2, final: false },
      { n: 2, attempt: 3, final: true },
    ]);
    expect(await q.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 1 });
  });

  it('never runs more of one team at once than its cap, across processes', async () => {
    const caps: Record<string, number> = { a: 2, b: 1 };
    const running: Record<string, number> = { a: 0, b: 0, c: 0 };
    const max: Record<string, number> = { a: 0, b: 0, c: 0 };
    let done = 0;
    const handler = async (job: QueueJob<Data>) => {
      const t = job.teamId;
      running[t]!++;
      max[t] = Math.max(max[t]!, running[t]!);
      await sleep(40);
      running[t]!--;
      done++;
    };
    const opts = { concurrency: 4, teamConcurrency: (team: string) => caps[team] ?? 100 };
    const q1 = await queue();
    const q2 = await queue();
    q1.process(handler, opts);
    q2.process(handler, opts);
    await q1.addBulk(
      ['a', 'b', 'c'].flatMap((teamId) => Array.from({ length: 8 }, (_, i) => ({ teamId, data: { n: i } }))),
    );
    await waitFor('24 jobs', () => done === 24, 30_000);
    expect(max.a).toBeLessThanOrEqual(2);
    expect(max.b).toBe(1);
    expect(max.c).toBeGreaterThanOrEqual(1);
  });

  it('lets running handlers finish, and queue follow-up jobs, when closing with a drain time', async () => {
    const q = await queue();
    let started = false;
    let finished = false;
    let aborted = false;
    q.process(
      async (job, signal) => {
        if (job.data.n !== 1) return;
        started = true;
        await sleep(300);
        await q.add('t', { n: 2 }, { delayMs: 60_000 });
        aborted = signal.aborted;
        finished = true;
      },
      { concurrency: 1 },
    );
    await q.add('t', { n: 1 });
    // Its handler, not just the job: BullMQ counts a job active a moment before the handler
    // runs, and a job not yet begun when the queue closes is handed back, not drained.
    await waitFor('the handler to start', async () => started);
    await q.close(10_000);
    expect(finished).toBe(true);
    expect(aborted).toBe(false);
    await expect(q.add('t', { n: 3 })).rejects.toThrow(/closed/);
    const other = await queue();
    expect(await other.counts()).toEqual({ waiting: 0, active: 0, delayed: 1, failed: 0 });
  });

  it('aborts handlers on close without drain and hands their jobs back', async () => {
    const q = await queue();
    let started = 0;
    let reason: unknown;
    q.process(
      (_job, signal) =>
        new Promise<void>((_resolve, reject) => {
          started++;
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            reject(new Error('aborted'));
          });
        }),
      { concurrency: 1 },
    );
    await q.add('t', { n: 1 }, { id: 'handed-back' });
    await waitFor('the job to start', () => started === 1);
    await q.close(0);
    expect(reason).toBeInstanceOf(Error);

    const next = await queue();
    expect(await next.counts()).toMatchObject({ waiting: 1, active: 0, failed: 0 });
    const seen: QueueJob<Data>[] = [];
    next.process(async (job) => void seen.push(job), { concurrency: 1 });
    await waitFor('the job to run again', () => seen.length === 1);
    expect(seen[0]).toMatchObject({ id: 'handed-back', data: { n: 1 }, attempt: 1 });
  });

  it('gives the job of a worker that died to another once its lease lapses', async () => {
    const leaseMs = 1000;
    const dying = await queue({ leaseMs });
    let started = 0;
    // A handler that ignores its signal: as far as the store or Redis can tell, its process died.
    dying.process(() => new Promise<void>(() => void started++), { concurrency: 1 });
    await dying.add('t', { n: 42 }, { id: 'orphan' });
    await waitFor('the job to start', () => started === 1);
    await dying.close(0);

    const survivor = await queue({ leaseMs });
    const seen: QueueJob<Data>[] = [];
    survivor.process(async (job) => void seen.push(job), { concurrency: 1 });
    await waitFor('the job to be recovered', () => seen.length === 1);
    expect(seen[0]).toMatchObject({ id: 'orphan', teamId: 't', data: { n: 42 } });
    await waitFor('an empty queue', async () => Object.values(await survivor.counts()).every((c) => c === 0));
  });

  it('fails a job whose workers keep dying with it once it used up its stalls', async () => {
    const opts = { leaseMs: 1000, maxStalls: 0 };
    const dying = await queue(opts);
    let started = 0;
    dying.process(() => new Promise<void>(() => void started++), { concurrency: 1 });
    await dying.add('t', { n: 1 }, { id: 'poison' });
    await waitFor('the job to start', () => started === 1);
    await dying.close(0);

    const survivor = await queue(opts);
    let ran = 0;
    survivor.process(async () => void ran++, { concurrency: 1 });
    await waitFor('the job to fail', async () => (await survivor.counts()).failed === 1);
    expect(ran).toBe(0);
    expect(await survivor.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 1 });
  });

  it('keeps a job that runs longer than its lease with its worker', async () => {
    const leaseMs = 1500;
    let runs = 0;
    const handler = async () => {
      runs++;
      await sleep(2500);
    };
    const first = await queue({ leaseMs });
    first.process(handler, { concurrency: 1 });
    await first.add('t', { n: 1 });
    await waitFor('the job to start', () => runs === 1);
    const second = await queue({ leaseMs });
    second.process(handler, { concurrency: 1 });
    await waitFor('the job to finish', async () => Object.values(await second.counts()).every((c) => c === 0));
    expect(runs).toBe(1);
  });

  it('resumes waiting and delayed jobs after a restart', async () => {
    const before = await queue();
    await before.addBulk(Array.from({ length: 5 }, (_, i) => ({ teamId: 't', data: { n: i } })));
    await before.add('t', { n: 5 }, { delayMs: 300 });
    await factories[0]!.close(0);

    const after = await queue();
    const seen = new Set<number>();
    after.process(async (job) => void seen.add(job.data.n), { concurrency: 2 });
    await waitFor('all six jobs', () => seen.size === 6);
  });

  it('counts waiting, active, delayed and failed jobs', async () => {
    const q = await queue();
    expect(await q.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
    await q.add('t', { n: 1 });
    await q.add('t', { n: 2 });
    await q.add('t', { n: 3 }, { delayMs: 60_000 });
    expect(await q.counts()).toEqual({ waiting: 2, active: 0, delayed: 1, failed: 0 });
    const release = gate();
    q.process(
      async (job) => {
        if (job.data.n === 1) await release.promise;
        else throw new Error('no');
      },
      { concurrency: 2 },
    );
    await waitFor('one active and one failed', async () => {
      const c = await q.counts();
      return c.active === 1 && c.failed === 1;
    });
    expect(await q.counts()).toEqual({ waiting: 0, active: 1, delayed: 1, failed: 1 });
    release.open();
    await waitFor('no active job', async () => (await q.counts()).active === 0);
    expect(await q.counts()).toEqual({ waiting: 0, active: 0, delayed: 1, failed: 1 });
  });
});
