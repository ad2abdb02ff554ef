/**
 * Small write transactions that arrive together share one transaction and so one commit. A
 * commit is the dearest part of a small write: on SQLite it writes every changed page to the log,
 * on PostgreSQL it is a round trip and a log flush. A crawl finishes pages in bursts (a page
 * thread's answers land in one turn of the event loop), each with a transaction of its own.
 *
 * Each unit runs in a savepoint of its own, so one that throws rolls back only its own writes and
 * rejects only its own caller; its neighbours commit. A unit's promise settles after the commit,
 * so nobody acts on writes that could still be lost. While one shared transaction runs, new units
 * wait for the next: under load the batches grow, idle there is no wait beyond the current turn.
 */
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.js';

type Unit = {
  run: (trx: Transaction<Database>) => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
};

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release savepoint unit');
const ROLLBACK = CompiledQuery.raw('rollback to savepoint unit');

export class SharedTransactions {
  private waiting: Unit[] = [];
  private busy = false;

  constructor(
    private readonly db: Kysely<Database>,
    /** Bounds how long one transaction holds the write lock. */
    private readonly maxUnits = 64,
  ) {}

  run<R>(unit: (trx: Transaction<Database>) => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ run: unit, resolve: resolve as (v: unknown) => void, reject });
      if (this.waiting.length === 1 && !this.busy) setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.maxUnits);
        await (batch.length === 1 ? this.alone(batch[0]!) : this.together(batch));
      }
    } finally {
      this.busy = false;
    }
  }

  /** One unit needs no savepoint: its own transaction is the same thing. */
  private async alone(unit: Unit): Promise<void> {
    try {
      unit.resolve(await this.db.transaction().execute(unit.run));
    } catch (e) {
      unit.reject(e);
    }
  }

  private async together(batch: Unit[]): Promise<void> {
    const outcomes: Outcome[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const unit of batch) {
          await trx.executeQuery(SAVEPOINT);
          try {
            outcomes.push({ ok: true, value: await unit.run(trx) });
          } catch (error) {
            await trx.executeQuery(ROLLBACK);
            outcomes.push({ ok: false, error });
          }
          await trx.executeQuery(RELEASE);
        }
      });
    } catch (e) {
      // The commit itself failed: nothing of the batch was written.
      for (const unit of batch) unit.reject(e);
      return;
    }
    batch.forEach((unit, i) => {
      const o = outcomes[i]!;
      if (o.ok) unit.resolve(o.value);
      else unit.reject(o.error);
    });
  }
}
