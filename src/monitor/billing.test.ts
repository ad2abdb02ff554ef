/**
 * A monitor page's price follows the cost table: a fetched page as a scrape of it, an unchanged
 * answer as one page (it took a request), a lockdown miss as a miss, any other failure nothing;
 * each page is charged once per check.
 */
import { describe, expect, it } from 'vitest';
import { COSTS } from '../billing/costs.js';
import type { Charge } from '../billing/ledger.js';
import { ApiError } from '../errors.js';
import { CheckBilling, pageCredits, type MonitorLedger } from './billing.js';

const doc = (creditsUsed: number) => ({ doc: { metadata: { creditsUsed } } }) as never;

describe('monitor page prices', () => {
  it('prices a fetched page as the scrape it was', () => {
    expect(pageCredits(doc(1), { lockdown: false })).toBe(COSTS.page);
    expect(pageCredits(doc(1 + COSTS.jsonFormat), { lockdown: false })).toBe(COSTS.page + COSTS.jsonFormat);
    expect(pageCredits(doc(1), { lockdown: true })).toBe(COSTS.lockdownHit);
  });

  it('prices an unchanged answer as a page, a lockdown miss as a miss, and other failures at nothing', () => {
    expect(pageCredits({ unchanged: true }, { lockdown: false })).toBe(COSTS.page);
    expect(pageCredits({ error: new ApiError('SCRAPE_LOCKDOWN_CACHE_MISS') }, { lockdown: true })).toBe(COSTS.lockdownMiss);
    expect(pageCredits({ error: new ApiError('SCRAPE_TIMEOUT') }, { lockdown: false })).toBe(0);
    expect(pageCredits({ error: new Error('socket hang up') }, { lockdown: false })).toBe(0);
  });
});

/** A ledger in memory with the real one's rule: a cause is charged once. */
function memoryLedger(balance: number) {
  const causes = new Map<string, number>();
  const ledger: MonitorLedger = {
    canPay: async (_t: string, credits: number) => balance >= credits,
    charge: async (c: Charge) => {
      if (!causes.has(c.cause)) {
        causes.set(c.cause, c.credits);
        balance -= c.credits;
      }
      return causes.get(c.cause)!;
    },
  };
  return { ledger, causes, balance: () => balance };
}

describe('check billing', () => {
  it('charges a page once per check, keyed by check, target and page', async () => {
    const m = memoryLedger(10);
    const first = new CheckBilling(m.ledger, 'team', 'check-1');
    expect(await first.page('t1', 'example.com/a', 1)).toBe(1);
    // The same check run again after a crash charges its pages nothing more.
    expect(await new CheckBilling(m.ledger, 'team', 'check-1').page('t1', 'example.com/a', 1)).toBe(1);
    expect(await new CheckBilling(m.ledger, 'team', 'check-2').page('t1', 'example.com/a', 1)).toBe(1);
    expect([...m.causes.keys()]).toEqual(['monitor:check-1:t1:example.com/a', 'monitor:check-2:t1:example.com/a']);
    expect(m.balance()).toBe(8);
  });

  it('writes nothing for a page that costs nothing, and says when the team cannot pay', async () => {
    const m = memoryLedger(0);
    const b = new CheckBilling(m.ledger, 'team', 'check-1');
    expect(await b.page('t1', 'example.com/a', 0)).toBe(0);
    expect(m.causes.size).toBe(0);
    expect(await b.canPay()).toBe(false);
  });

  it('prices without charging when there is no ledger', async () => {
    const b = new CheckBilling(undefined, 'team', 'check-1');
    expect(await b.canPay()).toBe(true);
    expect(await b.page('t1', 'example.com/a', 5)).toBe(5);
  });
});
