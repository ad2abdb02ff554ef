/**
 * Signed webhook delivery through a durable outbox.
 *
 * `emit` only inserts a row (optionally inside the caller's transaction, so an event exists if
 * and only if the state change it reports was committed). The delivery loop, run by worker
 * processes, sends rows and records every outcome in the same table, which doubles as the
 * delivery log.
 *
 * Ordering: events of one stream (a job id) go out strictly in row-id order; a row is sent only
 * while no earlier row of its stream is pending, so a failing event holds back the ones after
 * it until it is delivered or given up. Different streams proceed in parallel.
 *
 * Several processes may share one PostgreSQL database: a row is sent only by the process that
 * won a conditional UPDATE on its lease (`locked_until`/`locked_by`). A process that dies mid-
 * send leaves a lease that expires, and the row is sent again: delivery is at least once, and
 * receivers deduplicate on `webhookId`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Logger } from 'pino';
import { Agent, request, type Dispatcher } from 'undici';
import { isApiError } from '../errors.js';
import { tasks } from '../jobs/catalog.js';
import { claimed, ClaimLoop, leaseFree } from '../jobs/lease.js';
import { guardedConnector } from '../security/connector.js';
import type { SsrfGuard } from '../security/ssrf.js';
import type { Database, WebhookDeliveriesTable } from '../store/schema.js';
import { VERSION } from '../version.js';
import { RESERVED_WEBHOOK_HEADERS, type WebhookTarget } from './schema.js';
import { SIGNATURE_HEADER, signBody } from './sign.js';

export interface WebhookEvent {
  /** Full event name, e.g. `crawl.page`, `batch_scrape.completed`, `monitor.check.completed`. */
  type: string;
  /** The job id; also the stream within which events keep their order. */
  id: string;
  success: boolean;
  data: unknown[];
  error?: string;
}

export interface WebhookDispatcherOptions {
  db: Kysely<Database>;
  guard: SsrfGuard;
  log: Logger;
  /** Attempts per event, the first included, before it is marked failed (default: the job catalog's). */
  maxAttempts?: number;
  /** Wait after the first failed attempt; doubles after each further one (default: the job catalog's). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Per attempt, connect to last response byte (default: the job catalog's timeout). */
  timeoutMs?: number;
  /** How often the loop looks for work it was not told about (other processes' events). */
  pollMs?: number;
  /** Streams sent to in parallel by this process. */
  concurrency?: number;
  /** Delivered and failed rows older than this are deleted. */
  retentionMs?: number;
  /** How long `close()` lets in-flight sends finish before aborting them. */
  closeGraceMs?: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveryRecord {
  id: number;
  webhookId: string;
  type: string;
  url: string;
  state: DeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: number;
  createdAt: number;
  deliveredAt: number | null;
}

type Row = Selectable<WebhookDeliveriesTable>;

type Outcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'retry'; status: number | null; error: string }
  | { kind: 'fail'; status: number | null; error: string }
  /** Cut short by shutdown: not the receiver's fault, so no attempt is counted. */
  | { kind: 'release' };

const PURGE_EVERY_MS = 10 * 60_000;
// Enough to read a short error text for the log without letting a receiver stream at us.
const RESPONSE_DUMP_LIMIT = 64 * 1024;
const USER_AGENT = `Gleaner-Webhooks/${VERSION}`;

/**
 * The name `target.events` is matched against: `crawl.page` -> `page`, but monitor events keep
 * their full name (`monitor.check.completed`), as the monitor API spells them that way.
 */
export function eventFilterName(type: string): string {
  if (type.startsWith('monitor.')) return type;
  const dot = type.indexOf('.');
  return dot < 0 ? type : type.slice(dot + 1);
}

export function wantsEvent(target: Pick<WebhookTarget, 'events'>, type: string): boolean {
  return target.events === undefined || target.events.includes(eventFilterName(type));
}

/** The caller's headers as sent: lower-cased names, reserved and content-type dropped. */
function sanitizeHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (RESERVED_WEBHOOK_HEADERS.has(lower) || lower === 'content-type') continue;
    out[lower] = String(value);
  }
  return out;
}

export function backoffDelay(attempts: number, backoffMs: number, maxBackoffMs: number): number {
  return Math.min(backoffMs * 2 ** Math.max(0, attempts - 1), maxBackoffMs);
}

export class WebhookDispatcher {
  private readonly db: Kysely<Database>;
  private readonly guard: SsrfGuard;
  private readonly log: Logger;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly retentionMs: number;
  private readonly closeGraceMs: number;
  /** Longer than any attempt can take, so a live owner never loses its row to another process. */
  private readonly leaseMs: number;

  private readonly secrets = new Map<string, string>();
  private readonly active = new Map<string, Promise<void>>();
  private readonly shutdown = new AbortController();
  private readonly loop: ClaimLoop;
  private agent: Dispatcher | undefined;
  private closed = false;
  private lastPurge = 0;

  constructor(opts: WebhookDispatcherOptions) {
    this.db = opts.db;
    this.guard = opts.guard;
    this.log = opts.log;
    const policy = tasks.webhookDelivery;
    this.maxAttempts = Math.max(1, opts.maxAttempts ?? policy.attempts);
    this.backoffMs = opts.backoffMs ?? policy.backoffMs;
    this.maxBackoffMs = opts.maxBackoffMs ?? 5 * 60_000;
    this.timeoutMs = opts.timeoutMs ?? policy.timeoutMs;
    this.pollMs = opts.pollMs ?? 250;
    this.concurrency = Math.max(1, opts.concurrency ?? 8);
    this.retentionMs = opts.retentionMs ?? 3 * 24 * 3600_000;
    this.closeGraceMs = opts.closeGraceMs ?? 5000;
    this.leaseMs = Math.max(policy.leaseMs, this.timeoutMs * 2 + 30_000);
    this.loop = new ClaimLoop({
      step: async () => {
        await this.fill();
        await this.purgeNow();
        return false;
      },
      pollMs: this.pollMs,
      onError: (err) => this.log.warn({ err }, 'webhook delivery loop failed; retrying'),
    });
  }

  /**
   * Records an event for delivery. Pass the caller's transaction to make the event part of the
   * state change it reports. Returns the `webhookId`, or undefined when `target.events` filters
   * the event out.
   */
  async emit(teamId: string, target: WebhookTarget, event: WebhookEvent, trx?: Kysely<Database>): Promise<string | undefined> {
    if (!wantsEvent(target, event.type)) return undefined;
    const webhookId = randomUUID();
    const body = JSON.stringify({
      success: event.success,
      type: event.type,
      id: event.id,
      data: event.data,
      ...(event.error !== undefined ? { error: event.error } : {}),
      metadata: target.metadata ?? {},
      webhookId,
    });
    const now = Date.now();
    await (trx ?? this.db)
      .insertInto('webhook_deliveries')
      .values({
        webhook_id: webhookId,
        team_id: teamId,
        stream: event.id,
        type: event.type,
        url: target.url,
        headers: JSON.stringify(sanitizeHeaders(target.headers)),
        body,
        state: 'pending',
        attempts: 0,
        next_attempt_at: now,
        locked_until: null,
        locked_by: null,
        last_status: null,
        last_error: null,
        created_at: now,
        delivered_at: null,
      })
      .execute();
    // Inside a transaction the row is invisible to the loop until the caller commits; a short
    // delay usually covers that, and the poll covers the rest.
    if (trx) setTimeout(() => this.wake(), 20).unref();
    else this.wake();
    return webhookId;
  }

  /** The team's signing secret, created on first use. */
  async secretFor(teamId: string): Promise<string> {
    const cached = this.secrets.get(teamId);
    if (cached) return cached;
    const read = () => this.db.selectFrom('webhook_secrets').select('secret').where('team_id', '=', teamId).executeTakeFirst();
    let row = await read();
    if (!row) {
      // Two processes may race to create it; the loser reads the winner's.
      await this.db
        .insertInto('webhook_secrets')
        .values({ team_id: teamId, secret: randomBytes(32).toString('hex'), created_at: Date.now() })
        .onConflict((oc) => oc.column('team_id').doNothing())
        .execute();
      row = await read();
    }
    if (!row) throw new Error(`webhook secret for team ${teamId} could not be created`);
    // Secrets never change once created, so caching them for the process lifetime is safe.
    this.secrets.set(teamId, row.secret);
    return row.secret;
  }

  /** Starts the delivery loop in this process (worker side). Idempotent. */
  start(): void {
    if (this.loop.started || this.closed) return;
    this.loop.start();
  }

  /** Stops the loop and waits for in-flight sends; those still running after the grace period are aborted and left pending. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.loop.stop();
    const inflight = [...this.active.values()];
    const grace = setTimeout(() => this.shutdown.abort(), this.closeGraceMs);
    await Promise.allSettled(inflight);
    clearTimeout(grace);
    this.shutdown.abort();
    await this.agent?.destroy().catch(() => undefined);
  }

  /** The delivery log of one stream, oldest first. */
  async deliveries(stream: string): Promise<DeliveryRecord[]> {
    const rows = await this.db.selectFrom('webhook_deliveries').selectAll().where('stream', '=', stream).orderBy('id').execute();
    return rows.map((r) => ({
      id: Number(r.id),
      webhookId: r.webhook_id,
      type: r.type,
      url: r.url,
      state: r.state as DeliveryState,
      attempts: r.attempts,
      lastStatus: r.last_status,
      lastError: r.last_error,
      nextAttemptAt: r.next_attempt_at,
      createdAt: r.created_at,
      deliveredAt: r.delivered_at,
    }));
  }

  private wake(): void {
    this.loop.wake();
  }

  /** Whether the loop still takes work: in-flight streams stop at their next row once it does not. */
  private get running(): boolean {
    return this.loop.started && !this.loop.stopping;
  }

  /** Claims ready stream heads for free slots and starts a sender per stream. */
  private async fill(): Promise<void> {
    const free = this.concurrency - this.active.size;
    if (free <= 0) return;
    const now = Date.now();
    const busy = [...this.active.keys()];
    const heads = await this.db
      .selectFrom('webhook_deliveries as d')
      .select(['d.id', 'd.stream'])
      .where('d.state', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => leaseFree(eb, 'd.locked_until', now))
      .$if(busy.length > 0, (qb) => qb.where('d.stream', 'not in', busy))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('webhook_deliveries as e')
              .select(sql<number>`1`.as('one'))
              .whereRef('e.stream', '=', 'd.stream')
              .where('e.state', '=', 'pending')
              .whereRef('e.id', '<', 'd.id'),
          ),
        ),
      )
      .orderBy('d.id')
      .limit(free)
      .execute();
    for (const head of heads) {
      if (!this.running || this.active.has(head.stream)) continue;
      const row = await this.claim(Number(head.id), Date.now());
      if (!row) continue;
      const stream = head.stream;
      const sender = this.runStream(row)
        .catch((err: unknown) => this.log.warn({ err, stream }, 'webhook sender failed'))
        .finally(() => {
          this.active.delete(stream);
          this.wake();
        });
      this.active.set(stream, sender);
    }
  }

  /** Sends a stream's rows one after another while they are due; stops at one waiting to retry. */
  private async runStream(first: Row): Promise<void> {
    let row: Row | undefined = first;
    while (row) {
      const outcome = await this.attempt(row);
      const settled = await this.record(row, outcome);
      if (!settled || !this.running) return;
      row = await this.claimNextHead(row.stream);
    }
  }

  /** Takes the lease on a row if it is still pending, due and not leased by anyone else. */
  private async claim(id: number, now: number): Promise<Row | undefined> {
    return this.db
      .updateTable('webhook_deliveries')
      .set({ locked_until: now + this.leaseMs, locked_by: randomUUID() })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => leaseFree(eb, 'locked_until', now))
      .returningAll()
      .executeTakeFirst();
  }

  private async claimNextHead(stream: string): Promise<Row | undefined> {
    const head = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('stream', '=', stream)
      .where('state', '=', 'pending')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return head ? this.claim(Number(head.id), Date.now()) : undefined;
  }

  private dispatcher(): Dispatcher {
    this.agent ??= new Agent({
      connect: guardedConnector(this.guard, { rejectUnauthorized: true }),
      keepAliveTimeout: 10_000,
      connections: 16,
    });
    return this.agent;
  }

  private async attempt(row: Row): Promise<Outcome> {
    // Checked on every attempt: a name may start resolving somewhere private between retries.
    try {
      await this.guard.checkUrl(row.url);
    } catch (e) {
      return classify(e, false);
    }
    const body = Buffer.from(row.body, 'utf8');
    let headers: Record<string, string>;
    try {
      headers = {
        'user-agent': USER_AGENT,
        ...sanitizeHeaders(JSON.parse(row.headers) as Record<string, string>),
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signBody(await this.secretFor(row.team_id), body),
      };
    } catch (e) {
      return { kind: 'retry', status: null, error: `could not prepare the request: ${(e as Error).message}` };
    }
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = AbortSignal.any([timeout, this.shutdown.signal]);
    try {
      const res = await request(row.url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.dispatcher(),
        signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      await res.body.dump({ limit: RESPONSE_DUMP_LIMIT }).catch(() => undefined);
      if (res.statusCode >= 200 && res.statusCode < 300) return { kind: 'delivered', status: res.statusCode };
      // Redirects are not followed: the target was checked, the Location was not.
      return { kind: 'retry', status: res.statusCode, error: `HTTP ${res.statusCode}` };
    } catch (e) {
      if (this.shutdown.signal.aborted) return { kind: 'release' };
      return classify(e, timeout.aborted, this.timeoutMs);
    }
  }

  /** Stores an attempt's outcome; true when the row left the pending state (the stream may move on). */
  private async record(row: Row, outcome: Outcome): Promise<boolean> {
    const now = Date.now();
    const mine = this.db.updateTable('webhook_deliveries').where('id', '=', row.id).where('locked_by', '=', row.locked_by);
    const attempts = row.attempts + 1;
    let settled: boolean;
    let result;
    switch (outcome.kind) {
      case 'release':
        await mine.set({ locked_until: null, locked_by: null }).execute();
        return false;
      case 'delivered':
        settled = true;
        result = await mine
          .set({ state: 'delivered', attempts, last_status: outcome.status, last_error: null, delivered_at: now, locked_until: null, locked_by: null })
          .executeTakeFirst();
        break;
      case 'retry':
      case 'fail': {
        const giveUp = outcome.kind === 'fail' || attempts >= this.maxAttempts;
        const delay = backoffDelay(attempts, this.backoffMs, this.maxBackoffMs);
        settled = giveUp;
        result = await mine
          .set({
            state: giveUp ? 'failed' : 'pending',
            attempts,
            last_status: outcome.status,
            last_error: outcome.error.slice(0, 1000),
            next_attempt_at: giveUp ? row.next_attempt_at : now + delay,
            locked_until: null,
            locked_by: null,
          })
          .executeTakeFirst();
        const ctx = { webhookId: row.webhook_id, type: row.type, stream: row.stream, host: hostOf(row.url), attempts, status: outcome.status, error: outcome.error };
        if (giveUp) this.log.warn(ctx, 'webhook delivery failed for good');
        else {
          this.log.debug({ ...ctx, retryInMs: delay }, 'webhook delivery failed; will retry');
          setTimeout(() => this.wake(), delay + 5).unref();
        }
        break;
      }
    }
    if (!claimed(result)) {
      // Our lease ran out and another process took the row; its outcome is the one that counts.
      this.log.warn({ webhookId: row.webhook_id }, 'webhook lease lost before the outcome was recorded');
      return false;
    }
    return settled;
  }

  private async purgeNow(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    await this.db
      .deleteFrom('webhook_deliveries')
      .where('state', 'in', ['delivered', 'failed'])
      .where('created_at', '<', now - this.retentionMs)
      .execute();
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** A failed attempt: what the error catalog calls final is, everything else (network, DNS, timeouts) is retried. */
function classify(e: unknown, timedOut: boolean, timeoutMs?: number): Outcome {
  for (let cur: unknown = e, depth = 0; cur && depth < 6; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (isApiError(cur)) {
      // The error catalog says which refusals no retry can mend (a blocked or invalid target).
      const final = !cur.retryable;
      const address = (cur.details as { address?: string } | undefined)?.address;
      const error = `${cur.message}${address ? ` (${address})` : ''}`;
      return { kind: final ? 'fail' : 'retry', status: null, error };
    }
  }
  if (timedOut) return { kind: 'retry', status: null, error: `timed out after ${timeoutMs} ms` };
  const code = (e as { code?: string; cause?: { code?: string } }).code ?? (e as { cause?: { code?: string } }).cause?.code;
  const message = (e as Error).message || String(e);
  return { kind: 'retry', status: null, error: code ? `${code}: ${message}` : message };
}
