import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { scratchStore } from '../../test/helpers/scratch-store.js';
import type { Store } from './db.js';
import { SharedTransactions } from './shared-transactions.js';

describe('shared transactions', () => {
  const scratch = scratchStore('shared_tx', process.env.DATABASE_URL);
  let store: Store;

  beforeAll(async () => {
    store = await scratch.open();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await store.db.deleteFrom('webhook_secrets').execute();
  });
  afterAll(async () => {
    await store?.close();
    await scratch.remove();
  });

  const insert = (shared: SharedTransactions, team: string) =>
    shared.run(async (trx) => {
      await trx.insertInto('webhook_secrets').values({ team_id: team, secret: `s-${team}`, created_at: 1 }).execute();
      return team;
    });
  const teams = async () => (await store.db.selectFrom('webhook_secrets').select('team_id').orderBy('team_id').execute()).map((r) => r.team_id);

  it('commits units started together in one transaction, each getting its own result', async () => {
    const shared = new SharedTransactions(store.db);
    const opened = vi.spyOn(store.db, 'transaction');
    const names = Array.from({ length: 10 }, (_, i) => `t${i}`);
    expect(await Promise.all(names.map((n) => insert(shared, n)))).toEqual(names);
    expect(opened).toHaveBeenCalledTimes(1);
    expect(await teams()).toEqual(names);
  });

  it('rolls back only the unit that throws, and rejects only its caller', async () => {
    const shared = new SharedTransactions(store.db);
    const failing = shared.run(async (trx) => {
      await trx.insertInto('webhook_secrets').values({ team_id: 'bad', secret: 'x', created_at: 1 }).execute();
      throw new Error('unit failed after writing');
    });
    const results = await Promise.allSettled([insert(shared, 'a'), failing, insert(shared, 'b')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'unit failed after writing' });
    expect(await teams()).toEqual(['a', 'b']);
  });

  it('rolls back a failing unit that ran alone', async () => {
    const shared = new SharedTransactions(store.db);
    await expect(
      shared.run(async (trx) => {
        await trx.insertInto('webhook_secrets').values({ team_id: 'alone', secret: 'x', created_at: 1 }).execute();
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await teams()).toEqual([]);
  });

  it('a unit that breaks a constraint leaves its neighbours written', async () => {
    const shared = new SharedTransactions(store.db);
    const results = await Promise.allSettled([insert(shared, 'dup'), insert(shared, 'dup'), insert(shared, 'other')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await teams()).toEqual(['dup', 'other']);
  });

  it('bounds how many units one transaction holds', async () => {
    const shared = new SharedTransactions(store.db, 4);
    const opened = vi.spyOn(store.db, 'transaction');
    await Promise.all(Array.from({ length: 10 }, (_, i) => insert(shared, `u${String(i).padStart(2, '0')}`)));
    expect(opened).toHaveBeenCalledTimes(3);
    expect(await teams()).toHaveLength(10);
  });

  it('units that arrive while a transaction runs go together into the next', async () => {
    const shared = new SharedTransactions(store.db);
    const opened = vi.spyOn(store.db, 'transaction');
    let late: Array<Promise<string>> = [];
    const first = shared.run(async (trx) => {
      // Arrivals during the running transaction wait for it to end, then share the next one.
      late = ['l1', 'l2', 'l3'].map((n) => insert(shared, n));
      await trx.insertInto('webhook_secrets').values({ team_id: 'first', secret: 'x', created_at: 1 }).execute();
      return 'first';
    });
    await first;
    await Promise.all(late);
    expect(opened).toHaveBeenCalledTimes(2);
    expect(await teams()).toEqual(['first', 'l1', 'l2', 'l3']);
  });
});
