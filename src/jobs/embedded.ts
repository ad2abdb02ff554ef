/**
 * The embedded queue: jobs are rows of `queue_jobs` in the store, so a restart resumes them.
 *
 * A worker claims due rows by setting a lease; it renews the lease while the handler runs and
 * deletes the row when it succeeds. A row whose lease lapsed (its process died) is due again.
 * Claims of one queue are serialised (an immediate transaction on SQLite, an advisory transaction
 * lock on PostgreSQL), which is what makes the per-team cap hold across processes.
 */
import { randomUUID } from 'node:crypto';
import { CompiledQuery, PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely';
import { pino, type Logger } from 'pino';
import { memoBySmallNumber } from '../memo.js';
import { prepared, type Runner } from '../store/prepared.js';
import type { Database, QueueJobsTable } from '../store/schema.js';
import { isRetryable, leaseOf } from './catalog.js';
import { abortedForClose, resolveEnqueue, runAsKind, RunningSet, teamCap } from './common.js';
import { ClaimLoop } from './lease.js';
import type { EnqueueItem, EnqueueOptions, JobHandler, JobQueue, ProcessOptions, QueueCounts, QueueFactory } from './queue.js';

export interface EmbeddedQueueOptions {
  db: Kysely<Database>;
  log?: Logger;
  /**
   * How long a claim holds without renewal; a dead worker's jobs wait this long. Overrides the
   * job catalog's lease of each queue (default: the catalog's, or 30 s for a queue it lacks).
   */
  leaseMs?: number;
  /** How often an idle worker looks for due jobs; adds in this process wake it at once (default 250 ms). */
  pollMs?: number;
  /** After aborting handlers on close, how long to wait for them before abandoning them (default 1 s). */
  abortGraceMs?: number;
  /** Lease lapses a job survives before it is failed as poison (default 5). */
  maxStalls?: number;
  /** How long failed jobs are kept for inspection (default 7 days). */
  keepFailedMs?: number;
}

interface Settings {
  db: Kysely<Database>;
  log: Logger;
  postgres: boolean;
  leaseMs: number | undefined;
  pollMs: number;
  abortGraceMs: number;
  maxStalls: number;
  keepFailedMs: number;
}

export class EmbeddedQueueFactory implements QueueFactory {
  readonly kind = 'embedded' as const;
  private readonly settings: Settings;
  private readonly queues = new Map<string, EmbeddedQueue<unknown>>();
  private closed = false;

  constructor(opts: EmbeddedQueueOptions) {
    this.settings = {
      db: opts.db,
      log: opts.log ?? pino({ level: 'silent' }),
      postgres: opts.db.getExecutor().adapter instanceof PostgresAdapter,
      leaseMs: opts.leaseMs,
      pollMs: opts.pollMs ?? 250,
      abortGraceMs: opts.abortGraceMs ?? 1000,
      maxStalls: opts.maxStalls ?? 5,
      keepFailedMs: opts.keepFailedMs ?? 7 * 24 * 3600_000,
    };
  }

  queue<T>(name: string): JobQueue<T> {
    if (this.closed) throw new Error('queue factory is closed');
    let q = this.queues.get(name);
    if (!q) {
      q = new EmbeddedQueue<unknown>(name, this.settings);
      this.queues.set(name, q);
    }
    return q as EmbeddedQueue<T>;
  }

  async close(drainMs = 0): Promise<void> {
    this.closed = true;
    await Promise.all([...this.queues.values()].map((q) => q.close(drainMs)));
  }
}

type Row = Selectable<QueueJobsTable>;
/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 500;
const PURGE_EVERY_MS = 60_000;
const DEFAULT_LEASE_MS = 30_000;
/** Keeps a long retry series from pushing a job out of reach (or past what a bigint holds). */
const MAX_BACKOFF_MS = 24 * 3600_000;
/** How long a claim waits for more slots to free up while other jobs run (see gatherSlots). */
const GATHER_MS = 10;
/** Finished jobs deleted per statement. */
const DELETE_CHUNK = 200;
const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

class EmbeddedQueue<T> implements JobQueue<T> {
  private readonly fetcher: ClaimLoop;
  private readonly running = new RunningSet(() => this.fetcher.wake());
  /** Claim tokens of running jobs by row; a lease is renewed only while the token still matches. */
  private readonly leases = new Map<number, { token: string; abort: (reason: unknown) => void }>();
  private readonly workerId = randomUUID();
  private claims = 0;
  private nextLapseCheck = 0;
  /** Jobs that finished well, deleted by the next claim's transaction (or at close). */
  private finished: Array<{ seq: number; token: string }> = [];
  private handler: JobHandler<T> | undefined;
  private processOpts: ProcessOptions | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  /** Set once close gave up on the handlers still running: they must not touch the store again. */
  private detached = false;
  private closing: Promise<void> | undefined;
  private lastPurge = 0;
  private readonly q: ClaimQueries;
  private readonly leaseMs: number;

  constructor(
    readonly name: string,
    private readonly s: Settings,
  ) {
    this.q = claimQueries(s.db, name);
    this.leaseMs = s.leaseMs ?? leaseOf(name) ?? DEFAULT_LEASE_MS;
    this.fetcher = new ClaimLoop({
      step: () => this.fetch(),
      pollMs: s.pollMs,
      onError: (err) => s.log.warn({ err, queue: name }, 'claiming jobs failed'),
    });
  }

  add(teamId: string, data: T, opts?: EnqueueOptions): Promise<void> {
    return this.addBulk([{ teamId, data, ...(opts ? { opts } : {}) }]);
  }

  async addBulk(items: readonly EnqueueItem<T>[]): Promise<void> {
    // Draining handlers may still add follow-up work; only a finished close refuses it.
    if (this.detached) throw new Error(`queue ${this.name} is closed`);
    if (items.length === 0) return;
    const now = Date.now();
    const rows = items.map((item) => {
      const o = resolveEnqueue(item.opts);
      return {
        queue: this.name,
        id: o.id,
        team_id: item.teamId,
        data: JSON.stringify(item.data ?? null),
        state: 'waiting',
        run_at: now + o.delayMs,
        attempts_made: 0,
        max_attempts: o.attempts,
        backoff_ms: o.backoffMs,
        stalls: 0,
        lease_until: null,
        worker: null,
        last_error: null,
        created_at: now,
        finished_at: null,
      };
    });
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      // The partial unique index on (queue, id) turns an add of a still-pending id into a no-op.
      await this.s.db
        .insertInto('queue_jobs')
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    this.fetcher.wake();
  }

  process(handler: JobHandler<T>, opts: ProcessOptions): void {
    if (this.handler) throw new Error(`queue ${this.name} is already being processed`);
    if (this.stopping) throw new Error(`queue ${this.name} is closed`);
    this.handler = handler;
    this.processOpts = { ...opts, concurrency: Math.max(1, Math.floor(opts.concurrency)) };
    this.renewTimer = setInterval(() => void this.renewLeases(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.renewTimer.unref();
    this.fetcher.start();
  }

  async counts(): Promise<QueueCounts> {
    await this.deleteFinished(this.s.db);
    const now = Date.now();
    const rows = await this.s.db
      .selectFrom('queue_jobs')
      .where('queue', '=', this.name)
      .select(['state', sql<number>`count(*)`.as('n'), sql<number>`sum(case when run_at > ${now} then 1 else 0 end)`.as('later')])
      .groupBy('state')
      .execute();
    const counts: QueueCounts = { waiting: 0, active: 0, delayed: 0, failed: 0 };
    for (const r of rows) {
      const n = Number(r.n);
      const later = Number(r.later ?? 0);
      if (r.state === 'waiting') {
        counts.waiting += n - later;
        counts.delayed += later;
      } else if (r.state === 'active') counts.active += n;
      else if (r.state === 'failed') counts.failed += n;
    }
    return counts;
  }

  close(drainMs = 0): Promise<void> {
    this.closing ??= (async () => {
      this.stopping = true;
      await this.fetcher.stop();
      const abandoned = await this.running.drain(drainMs, this.s.abortGraceMs);
      if (abandoned > 0) {
        this.s.log.warn({ queue: this.name, abandoned }, 'handlers ignored the abort; their jobs run again once their leases lapse');
      }
      await this.deleteFinished(this.s.db).catch((err: unknown) => this.s.log.warn({ err, queue: this.name }, 'deleting finished jobs failed; they run again'));
      this.detached = true;
      clearInterval(this.renewTimer);
    })();
    return this.closing;
  }

  /** One turn of the fetch loop: claims due jobs for the free slots and starts them. */
  private async fetch(): Promise<boolean> {
    const concurrency = this.processOpts!.concurrency;
    await this.gatherSlots(concurrency);
    const free = concurrency - this.running.size;
    if (free <= 0) return false;
    const rows = await this.claim(free);
    if (this.stopping) await this.handBack(rows);
    else for (const row of rows) void this.run(row);
    await this.purgeFailed();
    // A full claim means more may be due right now; otherwise wait for an add, a finish or the poll.
    return rows.length === free;
  }

  /**
   * Under load, slots free one at a time, and claiming for each alone costs a transaction apiece.
   * While other jobs still run, wait a few milliseconds for a quarter of the slots to free up:
   * with the rest busy, a slot idle that long costs nothing.
   */
  private async gatherSlots(concurrency: number): Promise<void> {
    const want = Math.max(1, Math.floor(concurrency / 4));
    const until = Date.now() + GATHER_MS;
    while (!this.stopping && this.running.size > 0 && concurrency - this.running.size < want) {
      if (until - Date.now() <= 0) return;
      await this.fetcher.wakeup.waitUntil(until);
    }
  }

  private claim(limit: number): Promise<Row[]> {
    return this.serialized(async (trx) => {
      const now = Date.now();
      await this.deleteFinished(trx);
      // Leases lapse only when a worker dies, after tens of seconds: looking for lapsed rows once
      // per poll interval is soon enough, and spares a busy queue two statements per claim.
      const lapsedToo = now >= this.nextLapseCheck;
      if (lapsedToo) {
        this.nextLapseCheck = now + this.s.pollMs;
        await this.failPoison(trx, now);
      }
      const picked = await this.pick(trx, now, limit, lapsedToo);
      if (picked.length === 0) return [];
      const token = `${this.workerId}.${++this.claims}`;
      const values: Record<string, number | string> = { token, leaseUntil: now + this.leaseMs, now };
      picked.forEach((seq, i) => (values[`seq${i}`] = seq));
      return (await this.q.take(picked.length)(values, trx)).rows;
    });
  }

  /** Runs `fn` in a transaction that no other claim of this queue overlaps, in any process. */
  private async serialized<R>(fn: (trx: Kysely<Database>) => Promise<R>): Promise<R> {
    if (this.s.postgres) {
      return this.s.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${`gleaner.queue_jobs.${this.name}`}))`.execute(trx);
        return fn(trx);
      });
    }
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads and then writes
    // fails outright when another connection wrote in between.
    return this.s.db.connection().execute(async (conn) => {
      await conn.executeQuery(BEGIN_IMMEDIATE);
      try {
        const result = await fn(conn);
        await conn.executeQuery(COMMIT);
        return result;
      } catch (err) {
        await conn.executeQuery(ROLLBACK).catch(() => undefined);
        throw err;
      }
    });
  }

  /**
   * A finished job is deleted with the next claim rather than in a transaction of its own: on a
   * busy queue that halves the commits per job. Should the process die in between, the job runs
   * again once its lease lapses, as it would if it died a moment before finishing.
   */
  private async deleteFinished(db: Kysely<Database>): Promise<void> {
    if (this.finished.length === 0) return;
    const done = this.finished;
    this.finished = [];
    try {
      for (let i = 0; i < done.length; i += DELETE_CHUNK) {
        const chunk = done.slice(i, i + DELETE_CHUNK);
        const values: Record<string, number | string> = {};
        chunk.forEach((d, j) => {
          values[`seq${j}`] = d.seq;
          values[`token${j}`] = d.token;
        });
        await this.q.deleteDone(chunk.length)(values, db);
      }
    } catch (err) {
      this.finished.push(...done);
      throw err;
    }
  }

  /** A job whose worker keeps dying with it (say, it exhausts memory) must not take every worker down. */
  private async failPoison(trx: Kysely<Database>, now: number): Promise<void> {
    await trx
      .updateTable('queue_jobs')
      .set({ state: 'failed', finished_at: now, lease_until: null, worker: null, last_error: `abandoned by its worker ${this.s.maxStalls + 1} times` })
      .where('queue', '=', this.name)
      .where('state', '=', 'active')
      .where('lease_until', '<', now)
      .where('stalls', '>=', this.s.maxStalls)
      .execute();
  }

  /** Due rows in order, skipping teams at their cap; returns the seqs to claim. */
  private async pick(trx: Kysely<Database>, now: number, limit: number, lapsedToo: boolean): Promise<number[]> {
    const capOf = this.processOpts!.teamConcurrency;
    const running = new Map<string, number>();
    if (capOf) {
      for (const r of (await this.q.runningTeams({ now }, trx)).rows) running.set(r.team_id, (running.get(r.team_id) ?? 0) + 1);
    }
    const full = new Set<string>();
    for (const [team, n] of running) if (n >= (teamCap(capOf, team) ?? Infinity)) full.add(team);
    const picked: number[] = [];
    // One team's backlog can fill a page of candidates; a few more pages let other teams through.
    for (let page = 0; page < 4 && picked.length < limit; page++) {
      const want = (limit - picked.length) * 4 + 8;
      const candidates = await this.candidates(trx, now, want, full, picked, lapsedToo);
      for (const c of candidates) {
        if (picked.length >= limit) break;
        const cap = teamCap(capOf, c.team_id);
        const n = running.get(c.team_id) ?? 0;
        if (cap !== undefined && n >= cap) {
          full.add(c.team_id);
          continue;
        }
        running.set(c.team_id, n + 1);
        picked.push(Number(c.seq));
      }
      if (candidates.length < want) break;
    }
    return picked;
  }

  /**
   * Up to `want` claimable rows in due order: waiting rows whose time has come, and active rows
   * whose lease lapsed (their worker died). Two queries, because one with an OR of both cannot
   * use the (queue, state, run_at) index: it sorted the whole backlog on every claim, which at
   * 100,000 queued pages took over a tenth of a second per claim.
   */
  private async candidates(trx: Kysely<Database>, now: number, want: number, full: ReadonlySet<string>, picked: readonly number[], lapsedToo: boolean) {
    // Without teams or seqs to leave out, the query's shape is fixed, and it is the usual one.
    const plain = full.size === 0 && picked.length === 0;
    const find = async (state: 'waiting' | 'active') =>
      plain
        ? (await this.q.candidates[state]({ now, want }, trx)).rows
        : await candidatesQuery(trx, this.name, state, [...full], picked, now, want).execute();
    const due = await find('waiting');
    if (!lapsedToo) return due;
    // Active rows are few (at most every worker's concurrency), so filtering them costs little.
    const lapsed = await find('active');
    if (lapsed.length === 0) return due;
    return [...lapsed, ...due].sort((a, b) => Number(a.run_at) - Number(b.run_at) || Number(a.seq) - Number(b.seq)).slice(0, want);
  }

  private run(row: Row): Promise<void> {
    const seq = Number(row.seq);
    const token = row.worker!;
    return this.running.track(async (signal, abort) => {
      this.leases.set(seq, { token, abort });
      let error: unknown;
      let ok = false;
      try {
        const attempt = row.attempts_made + 1;
        const job = { id: row.id, teamId: row.team_id, data: JSON.parse(row.data) as T, attempt, final: attempt >= row.max_attempts };
        await runAsKind(this.name, job.data, signal, (s) => this.handler!(job, s));
        ok = true;
      } catch (err) {
        error = err;
      } finally {
        this.leases.delete(seq);
      }
      if (this.detached || (signal.aborted && signal.reason instanceof LeaseLostError)) return;
      try {
        if (abortedForClose(signal)) await this.handBack([row]);
        else if (ok) this.finished.push({ seq, token });
        else await this.recordFailure(row, error);
      } catch (err) {
        this.s.log.warn({ err, queue: this.name, id: row.id }, 'recording a job outcome failed; it runs again when its lease lapses');
      }
    });
  }

  private async recordFailure(row: Row, error: unknown): Promise<void> {
    const now = Date.now();
    const attemptsMade = row.attempts_made + 1;
    const message = error instanceof Error ? error.message : String(error);
    const retry = attemptsMade < row.max_attempts && isRetryable(error);
    if (!retry) this.s.log.warn({ queue: this.name, id: row.id, attempts: attemptsMade, err: error }, 'job failed');
    await this.s.db
      .updateTable('queue_jobs')
      .set({
        state: retry ? 'waiting' : 'failed',
        attempts_made: attemptsMade,
        run_at: retry ? now + Math.min(MAX_BACKOFF_MS, row.backoff_ms * 2 ** (attemptsMade - 1)) : row.run_at,
        finished_at: retry ? null : now,
        lease_until: null,
        worker: null,
        last_error: message.slice(0, 2000),
      })
      .where('seq', '=', Number(row.seq))
      .where('worker', '=', row.worker)
      .execute();
  }

  /** Returns claimed rows to the waiting state, as they were before the claim. */
  private async handBack(rows: Row[]): Promise<void> {
    for (const row of rows) {
      await this.s.db
        .updateTable('queue_jobs')
        .set({ state: 'waiting', lease_until: null, worker: null })
        .where('seq', '=', Number(row.seq))
        .where('worker', '=', row.worker)
        .execute();
    }
  }

  private async renewLeases(): Promise<void> {
    if (this.leases.size === 0 || this.detached) return;
    const held = [...this.leases.entries()];
    try {
      const kept = await this.s.db
        .updateTable('queue_jobs')
        .set({ lease_until: Date.now() + this.leaseMs })
        .where('state', '=', 'active')
        .where(
          'worker',
          'in',
          held.map(([, l]) => l.token),
        )
        .where(
          'seq',
          'in',
          held.map(([seq]) => seq),
        )
        .returning('seq')
        .execute();
      const ok = new Set(kept.map((r) => Number(r.seq)));
      for (const [seq, lease] of held) {
        // Another worker owns the job now; stop this run rather than doing the work twice.
        if (!ok.has(seq) && this.leases.get(seq) === lease) lease.abort(new LeaseLostError());
      }
    } catch (err) {
      this.s.log.warn({ err, queue: this.name }, 'renewing job leases failed');
    }
  }

  private async purgeFailed(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    await this.s.db
      .deleteFrom('queue_jobs')
      .where('queue', '=', this.name)
      .where('state', '=', 'failed')
      .where('finished_at', '<', now - this.s.keepFailedMs)
      .execute();
  }
}

/**
 * Up to `want` claimable rows of one state in due order: waiting rows whose time has come, or
 * active rows whose lease lapsed.
 */
function candidatesQuery(
  db: Kysely<Database>,
  queue: string,
  state: 'waiting' | 'active',
  fullTeams: readonly string[],
  picked: readonly number[],
  now: number,
  want: number,
) {
  let q = db.selectFrom('queue_jobs').select(['seq', 'team_id', 'run_at']).where('queue', '=', queue).where('state', '=', state);
  if (fullTeams.length > 0) q = q.where('team_id', 'not in', fullTeams);
  if (picked.length > 0) q = q.where('seq', 'not in', picked);
  q = state === 'waiting' ? q.where('run_at', '<=', now) : q.where('lease_until', '<', now);
  return q.orderBy('run_at').orderBy('seq').limit(want);
}

type Slots = Record<string, number | string>;

interface ClaimQueries {
  runningTeams: Runner<{ now: number }, { team_id: string }>;
  candidates: Record<'waiting' | 'active', Runner<{ now: number; want: number }, Pick<Row, 'seq' | 'team_id' | 'run_at'>>>;
  /** Takes the `seq0`.. rows for the claim `token`; one query per number of rows. */
  take(n: number): Runner<Slots, Row>;
  /** Deletes the `seq0`/`token0`.. rows; one query per number of rows. */
  deleteDone(n: number): Runner<Slots, unknown>;
}

/**
 * The statements a busy queue runs with every claim, compiled once (see store/prepared.ts):
 * built afresh, they cost the claiming thread more than the database takes to run them.
 */
function claimQueries(db: Kysely<Database>, queue: string): ClaimQueries {
  const seq = (v: Slots, i: number) => v[`seq${i}`] as number;
  return {
    // Counted here, not with GROUP BY: grouping makes SQLite walk the (queue, team) index over
    // the whole backlog, where the (queue, state) one finds the few active rows directly.
    runningTeams: prepared(db, (v: { now: number }) =>
      db.selectFrom('queue_jobs').select('team_id').where('queue', '=', queue).where('state', '=', 'active').where('lease_until', '>=', v.now),
    ),
    candidates: {
      waiting: prepared(db, (v: { now: number; want: number }) => candidatesQuery(db, queue, 'waiting', [], [], v.now, v.want)),
      active: prepared(db, (v: { now: number; want: number }) => candidatesQuery(db, queue, 'active', [], [], v.now, v.want)),
    },
    take: memoBySmallNumber((n) =>
      prepared(db, (v: Slots) =>
        db
          .updateTable('queue_jobs')
          .set({
            state: 'active',
            worker: v['token'] as string,
            lease_until: v['leaseUntil'] as number,
            stalls: sql<number>`case when state = 'active' then stalls + 1 else stalls end`,
          })
          .where(
            'seq',
            'in',
            Array.from({ length: n }, (_, i) => seq(v, i)),
          )
          .where((eb) => eb.or([eb('state', '=', 'waiting'), eb('lease_until', '<', v['now'] as number)]))
          .returningAll(),
      ),
    ),
    deleteDone: memoBySmallNumber((n) =>
      prepared(db, (v: Slots) =>
        db
          .deleteFrom('queue_jobs')
          .where((eb) => eb.or(Array.from({ length: n }, (_, i) => eb.and([eb('seq', '=', seq(v, i)), eb('worker', '=', v[`token${i}`] as string)])))),
      ),
    ),
  };
}

class LeaseLostError extends Error {
  constructor() {
    super('job lease lost to another worker');
    this.name = 'LeaseLostError';
  }
}
