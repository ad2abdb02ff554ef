/**
 * Charges whose cause is not one request: a browser session is priced by its started minutes and
 * charged once however often its end is reported; an agent step is charged once per run and step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchStore, type ScratchStore } from '../../test/helpers/scratch-store.js';
import type { Store } from '../store/db.js';
import { chargeAgentStep, chargeBrowserSession } from './charges.js';
import { browserSessionCost, COSTS } from './costs.js';
import { minimumCharge } from './gate.js';
import { CreditLedger } from './ledger.js';
import { plans } from './plans.js';

describe('browser session prices', () => {
  it('charges every started minute, and at least one', () => {
    expect(browserSessionCost(0)).toBe(COSTS.browserMinute);
    expect(browserSessionCost(1)).toBe(COSTS.browserMinute);
    expect(browserSessionCost(60_000)).toBe(COSTS.browserMinute);
    expect(browserSessionCost(60_001)).toBe(2 * COSTS.browserMinute);
    expect(browserSessionCost(10 * 60_000)).toBe(10 * COSTS.browserMinute);
  });

  it('asks a team opening a session to afford its first minute', () => {
    expect(minimumCharge('POST', '/v2/browser')).toBe(COSTS.browserMinute);
    expect(minimumCharge('POST', '/v2/scrape/:id/interact')).toBe(COSTS.browserMinute);
    expect(minimumCharge('POST', '/v2/scrape')).toBe(1);
    expect(minimumCharge('GET', '/v2/browser')).toBeUndefined();
  });
});

describe('charges keyed by their cause', () => {
  let scratch: ScratchStore;
  let store: Store;
  let ledger: CreditLedger;
  let n = 0;

  beforeAll(async () => {
    scratch = scratchStore('charges', undefined);
    store = await scratch.open();
    ledger = new CreditLedger(store.db, plans(100), 'standard');
  });
  afterAll(async () => {
    await store?.close();
    await scratch?.remove();
  });

  async function team(credits: number): Promise<string> {
    const id = `team-${n++}`;
    await store.db.insertInto('teams').values({ id, name: id, plan: 'standard', created_at: Date.now() }).execute();
    await ledger.setPeriodCredits(id, credits);
    return id;
  }

  it('charges a session once, by the duration first reported', async () => {
    const t = await team(100);
    expect(await chargeBrowserSession(ledger, { teamId: t, sessionId: 's1', durationMs: 150_000 })).toBe(3 * COSTS.browserMinute);
    // The sweep of another process reports the same session later, with a longer time.
    expect(await chargeBrowserSession(ledger, { teamId: t, sessionId: 's1', durationMs: 600_000 })).toBe(3 * COSTS.browserMinute);
    expect((await ledger.account(t)).balance).toBe(100 - 3 * COSTS.browserMinute);
  });

  it('charges each agent step once per run', async () => {
    const t = await team(100);
    for (const step of [1, 2, 2, 3]) await chargeAgentStep(ledger, { teamId: t, runId: 'run-a', step });
    await chargeAgentStep(ledger, { teamId: t, runId: 'run-b', step: 1 });
    expect((await ledger.account(t)).balance).toBe(100 - 4 * COSTS.agentStep);
  });
});
