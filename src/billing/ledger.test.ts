/**
 * The ledger's promises, on SQLite and (with DATABASE_URL) PostgreSQL: a cause is charged once
 * however often and however concurrently it is written, grants add up, and the period grant is
 * written once. On PostgreSQL the two ledgers use two connection pools, as two worker processes
 * would; SQLite's embedded store is one process's single connection, so there they share it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchStore, type ScratchStore } from '../../test/helpers/scratch-store.js';
import type { Store } from '../store/db.js';
import { COSTS, scrapeCost } from './costs.js';
import { CreditLedger, periodOf, UNLIMITED } from './ledger.js';
import { plans } from './plans.js';

const backends = [{ name: 'sqlite', url: undefined }, ...(process.env.DATABASE_URL ? [{ name: 'postgres', url: process.env.DATABASE_URL }] : [])];

describe.each(backends)('credit ledger ($name)', ({ url }) => {
  let scratch: ScratchStore;
  let a: Store;
  let b: Store;
  let one: CreditLedger;
  let two: CreditLedger;
  let n = 0;

  beforeAll(async () => {
    scratch = scratchStore('ledger', url);
    a = await scratch.open();
    b = url ? await scratch.open() : a;
    one = new CreditLedger(a.db, plans(100), 'standard');
    two = new CreditLedger(b.db, plans(100), 'standard');
  });
  afterAll(async () => {
    await a?.close();
    if (b !== a) await b?.close();
    await scratch?.remove();
  });

  async function team(credits: number): Promise<string> {
    const id = `team-${n++}`;
    await a.db.insertInto('teams').values({ id, name: id, plan: 'standard', created_at: Date.now() }).execute();
    await one.setPeriodCredits(id, credits);
    return id;
  }

  it('charges a cause once, however many writers race to write it', async () => {
    const t = await team(10);
    const charged = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? one : two).charge({ teamId: t, cause: 'scrape:x', credits: 3 })));
    expect(charged).toEqual(Array(8).fill(3));
    expect((await one.account(t)).balance).toBe(7);
    expect((await one.creditHistory(t, false))[0]?.amount).toBe(3);
  });

  it('answers a repeated cause with what was first charged for it', async () => {
    const t = await team(10);
    await one.charge({ teamId: t, cause: 'parse:y', credits: 2 });
    expect(await two.charge({ teamId: t, cause: 'parse:y', credits: 5 })).toBe(2);
    expect((await two.account(t)).balance).toBe(8);
  });

  it('grants the period credits once across processes, and adds top-ups to them', async () => {
    const t = await team(10);
    const [x, y] = await Promise.all([one.account(t), two.account(t)]);
    expect(x.balance).toBe(10);
    expect(y.balance).toBe(10);
    await one.grant(t, 5);
    expect(await one.canPay(t, 15)).toBe(true);
    expect(await one.canPay(t, 16)).toBe(false);
    expect((await two.account(t)).period.id).toBe(periodOf(Date.now()).id);
  });

  it('never blocks a team without a limit, and keeps counting its usage', async () => {
    const t = await team(UNLIMITED);
    await one.charge({ teamId: t, cause: 'scrape:z', credits: 1 });
    expect(await one.canPay(t, 1_000_000)).toBe(true);
    expect((await one.account(t)).periodCredits).toBeNull();
    expect((await one.creditHistory(t, true))[0]).toMatchObject({ amount: 1, apiKey: '' });
  });
});

describe('cost table', () => {
  const page = { metadata: { creditsUsed: 1 } } as never;
  it('prices what the pipeline counted, and a lockdown answer as a hit', () => {
    expect(scrapeCost(page, {})).toBe(COSTS.page);
    expect(scrapeCost({ metadata: { creditsUsed: 7 } } as never, {})).toBe(7);
    expect(scrapeCost(page, { lockdown: true })).toBe(COSTS.lockdownHit);
    // A lockdown answer with a json format: the format's part stays on top of the hit.
    expect(scrapeCost({ metadata: { creditsUsed: 1 + COSTS.jsonFormat } } as never, { lockdown: true })).toBe(COSTS.lockdownHit + COSTS.jsonFormat);
  });
});
