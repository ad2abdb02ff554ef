import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchStore } from '../../test/helpers/scratch-store.js';
import type { Store } from './db.js';
import { affected, prepared } from './prepared.js';

describe('a prepared query', () => {
  const scratch = scratchStore('prepared', process.env.DATABASE_URL);
  let store: Store;

  beforeAll(async () => {
    store = await scratch.open();
    await store.db
      .insertInto('webhook_secrets')
      .values([
        { team_id: 'a', secret: 'sa', created_at: 1 },
        { team_id: 'b', secret: 'sb', created_at: 2 },
      ])
      .execute();
  });
  afterAll(async () => {
    await store?.close();
    await scratch.remove();
  });

  it('runs with the values of each call, keeping the constants it was built with', async () => {
    const secretOf = prepared(store.db, (v: { team: string }) =>
      store.db.selectFrom('webhook_secrets').select('secret').where('team_id', '=', v.team).where('created_at', '>', 0),
    );
    expect((await secretOf({ team: 'a' })).rows).toEqual([{ secret: 'sa' }]);
    expect((await secretOf({ team: 'b' })).rows).toEqual([{ secret: 'sb' }]);
    expect((await secretOf({ team: 'nobody' })).rows).toEqual([]);
  });

  it('runs inside a transaction and counts the rows it changed', async () => {
    const rename = prepared(store.db, (v: { secret: string; team: string }) => store.db.updateTable('webhook_secrets').set({ secret: v.secret }).where('team_id', '=', v.team));
    await expect(
      store.db.transaction().execute(async (trx) => {
        expect(affected(await rename({ secret: 'changed', team: 'a' }, trx))).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const rows = await store.db.selectFrom('webhook_secrets').select(['team_id', 'secret']).orderBy('team_id').execute();
    expect(rows).toEqual([
      { team_id: 'a', secret: 'sa' },
      { team_id: 'b', secret: 'sb' },
    ]);
    expect(affected(await rename({ secret: 'x', team: 'nobody' }))).toBe(0);
  });
});
