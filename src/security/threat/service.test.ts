/**
 * Charging the scans a guard made: once per cause, so a job's page that runs again (a retry, a
 * replay after a lost worker) does not pay for its scans twice.
 */
import { describe, expect, it } from 'vitest';
import type { UrlGuard } from '../../core/url-guard.js';
import type { UrlClassifier } from './decide.js';
import { TeamGuard } from './guard.js';
import type { ThreatRules } from './policy.js';
import { ThreatProtection } from './service.js';

const rules: ThreatRules = { mode: 'normal', riskScoreThreshold: 50, blacklist: [], whitelist: [], blockedTlds: [], failurePolicy: 'open' };
const base: UrlGuard = { checkUrl: () => Promise.resolve(), checkAddress: () => undefined };
const classifier: UrlClassifier = { name: 'c', classify: () => Promise.resolve({ riskScore: 10 }) };

/** A ledger that, like the real one, charges a cause once. */
function ledger() {
  const charged = new Map<string, number>();
  return {
    charged,
    charge: (c: { cause: string; credits: number }) => {
      if (charged.has(c.cause)) return Promise.resolve(0);
      charged.set(c.cause, c.credits);
      return Promise.resolve(c.credits);
    },
  };
}

describe('settling a guard’s scans', () => {
  it('charges a named cause once however often its work runs', async () => {
    const l = ledger();
    const threat = new ThreatProtection({ policies: undefined as never, base, classifier, ledger: l, scanCredits: 2 });
    for (let attempt = 0; attempt < 3; attempt++) {
      const g = new TeamGuard(base, rules, classifier);
      await g.checkUrl('https://a.example/');
      await threat.settle(g, 'team', undefined, 'crawl-1:a.example/');
    }
    expect([...l.charged.values()]).toEqual([2]);
  });

  it('charges each unnamed settlement on its own', async () => {
    const l = ledger();
    const threat = new ThreatProtection({ policies: undefined as never, base, classifier, ledger: l, scanCredits: 2 });
    for (let i = 0; i < 2; i++) {
      const g = new TeamGuard(base, rules, classifier);
      await g.checkUrl('https://a.example/');
      await threat.settle(g, 'team', undefined);
    }
    expect([...l.charged.values()]).toEqual([2, 2]);
  });
});
