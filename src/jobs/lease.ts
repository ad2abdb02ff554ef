/**
 * The one mechanism behind every worker-side loop that takes work from the store: the embedded
 * queue's claims, webhook delivery, the monitor clock and crawl recovery.
 *
 * A claim is a conditional UPDATE: a row is taken only while it is free, so however many
 * processes race for it, exactly one UPDATE changes it and that process owns the work. Free
 * means its lease (an expiry column) is empty or lapsed, because its holder died; or, for work
 * keyed by a time (a monitor's due time, a job's last progress), that the time still reads what
 * the claimer saw. A `ClaimLoop` runs the claiming step over and over, at once when woken
 * (work added in this process, a slot freed) and otherwise after the poll interval.
 */
import type { ExpressionBuilder, Expression, SqlBool } from 'kysely';
import { sleep, Wakeup } from './common.js';

export interface ClaimLoopOptions {
  /** Claims and starts what is due; true when more may be due right now (a full claim). */
  step: () => Promise<boolean>;
  /** How long an idle loop waits before it looks again unwoken. */
  pollMs: number;
  /** Told about a step that threw; the loop waits a few polls, then goes on. */
  onError: (err: unknown) => void;
  /** Whether the loop's timer keeps the process alive (default true). */
  keepAlive?: boolean;
}

export class ClaimLoop {
  readonly wakeup: Wakeup;
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(private readonly opts: ClaimLoopOptions) {
    this.wakeup = new Wakeup(opts.keepAlive ?? true);
  }

  get started(): boolean {
    return this.loop !== undefined;
  }

  get stopping(): boolean {
    return this.stopped;
  }

  start(): void {
    if (this.stopped) throw new Error('claim loop is stopped');
    this.loop ??= this.run();
  }

  /** Looks for work now rather than at the next poll. */
  wake(): void {
    this.wakeup.wake();
  }

  /** Takes no more work; resolves once a step under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeup.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let more = false;
      try {
        more = await this.opts.step();
      } catch (err) {
        this.opts.onError(err);
        await sleep(this.opts.pollMs * 4);
      }
      if (!more && !this.stopped) await this.wakeup.wait(this.opts.pollMs);
    }
  }
}

/** Rows whose lease is free: never taken, or lapsed before `now` because its holder stopped renewing it. */
export function leaseFree<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, column: string, now: number): Expression<SqlBool> {
  const e = eb as unknown as ExpressionBuilder<Record<string, Record<string, number | null>>, string>;
  return e.or([e(column, 'is', null), e(column, '<', now)]);
}

/** Whether a claim's conditional UPDATE took its row (and this process owns the work). */
export function claimed(result: { numUpdatedRows: bigint } | undefined): boolean {
  return Number(result?.numUpdatedRows ?? 0) === 1;
}
