/**
 * What both queue implementations share: enqueue defaults, tracking running handlers so `close`
 * can drain, abort and give up on them, and telling an abort for closing from any other abort.
 */
import { randomUUID } from 'node:crypto';
import { kindsOf, TaskPayloadError, TaskTimeoutError } from './catalog.js';
import type { EnqueueOptions } from './queue.js';

export interface ResolvedEnqueue {
  id: string;
  /** Whether the caller gave the id, i.e. whether to deduplicate on it. */
  dedup: boolean;
  delayMs: number;
  attempts: number;
  backoffMs: number;
}

export function resolveEnqueue(opts: EnqueueOptions | undefined): ResolvedEnqueue {
  const whole = (v: number | undefined, min: number, fallback: number) =>
    v === undefined || !Number.isFinite(v) ? fallback : Math.max(min, Math.floor(v));
  return {
    id: opts?.id ?? randomUUID(),
    dedup: opts?.id !== undefined,
    delayMs: whole(opts?.delayMs, 0, 0),
    attempts: whole(opts?.attempts, 1, 1),
    backoffMs: whole(opts?.backoffMs, 0, 1000),
  };
}

/**
 * Runs a job under its catalog kind: a payload no kind of the queue accepts fails without
 * running, and the handler's signal also fires at the kind's timeout. Jobs of a queue the
 * catalog does not list run as they are.
 */
export async function runAsKind(queue: string, data: unknown, signal: AbortSignal, run: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const kinds = kindsOf(queue);
  if (kinds.length === 0) return run(signal);
  const spec = kinds.find((k) => k.payload.safeParse(data).success);
  if (!spec) throw new TaskPayloadError(queue);
  const controller = new AbortController();
  const forward = () => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(() => controller.abort(new TaskTimeoutError(spec)), spec.timeoutMs);
  try {
    await run(controller.signal);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', forward);
  }
}

/** A team's cap as a usable number, or undefined for none; below 1 would starve the team forever. */
export function teamCap(fn: ((teamId: string) => number) | undefined, teamId: string): number | undefined {
  if (!fn) return undefined;
  const cap = fn(teamId);
  return Number.isFinite(cap) ? Math.max(1, Math.floor(cap)) : undefined;
}

/** The abort reason a handler sees when its queue closes without waiting for it. */
export class QueueClosingError extends Error {
  constructor() {
    super('job queue is closing; the job will run again');
    this.name = 'QueueClosingError';
  }
}

export function abortedForClose(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof QueueClosingError;
}

const noop = (): void => undefined;

export class RunningSet {
  private readonly runs = new Map<AbortController, Promise<void>>();
  private readonly onSettle: () => void;

  /** `onSettle` fires after any run ends, so a fetch loop can look for work again. */
  constructor(onSettle: () => void = noop) {
    this.onSettle = onSettle;
  }

  get size(): number {
    return this.runs.size;
  }

  /** Runs `fn` with a fresh signal; the returned promise is `fn`'s own, rejections included. */
  track<R>(fn: (signal: AbortSignal, abort: (reason: unknown) => void) => Promise<R>): Promise<R> {
    const controller = new AbortController();
    const result = fn(controller.signal, (reason) => controller.abort(reason));
    this.runs.set(
      controller,
      result.then(noop, noop).finally(() => {
        this.runs.delete(controller);
        this.onSettle();
      }),
    );
    return result;
  }

  /**
   * Gives running handlers `drainMs` to finish, then aborts the rest and gives them `graceMs` to
   * notice. Returns how many are still running after that; the caller abandons those.
   */
  async drain(drainMs: number, graceMs: number): Promise<number> {
    await settleWithin([...this.runs.values()], drainMs);
    if (this.runs.size === 0) return 0;
    const reason = new QueueClosingError();
    for (const controller of this.runs.keys()) controller.abort(reason);
    await settleWithin([...this.runs.values()], graceMs);
    return this.runs.size;
  }
}

async function settleWithin(promises: Promise<void>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(promises), new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
  clearTimeout(timer);
}

/** A wake-up call for a polling loop: `wait` returns on `wake` or after `ms`, whichever is first. */
export class Wakeup {
  /** `keepAlive` false lets the process exit while only this timer is pending. */
  constructor(private readonly keepAlive = true) {}

  private pending = false;
  private resolve: (() => void) | undefined;
  /** At most one timer, for the deadline of the current or the last `waitUntil`. */
  private timer: NodeJS.Timeout | undefined;
  private deadline = 0;

  wake(): void {
    this.pending = true;
    this.resolve?.();
  }

  async wait(ms: number): Promise<void> {
    await this.waitUntil(Date.now() + ms);
    this.disarm();
  }

  /**
   * Returns on `wake` or at `deadline` (a `Date.now()` time), whichever is first. The timer stays
   * set after a wake, so a loop that waits for one deadline again after each wake sets it once.
   */
  async waitUntil(deadline: number): Promise<void> {
    if (!this.pending) {
      if (this.timer && this.deadline !== deadline) this.disarm();
      if (!this.timer) {
        this.deadline = deadline;
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.resolve?.();
        }, deadline - Date.now());
        if (!this.keepAlive) this.timer.unref();
      }
      await new Promise<void>((resolve) => (this.resolve = resolve));
      this.resolve = undefined;
    }
    this.pending = false;
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
