/**
 * The team guard: threat rules before the installation's own guard, one classifier scan per host
 * per request, and failurePolicy warnings kept for the answer.
 */
import { describe, expect, it } from 'vitest';
import { isApiError } from '../../errors.js';
import type { UrlGuard } from '../../core/url-guard.js';
import { ClassifierUnavailable, type UrlClassifier } from './decide.js';
import { TeamGuard } from './guard.js';
import type { ThreatRules } from './policy.js';

const rules: ThreatRules = { mode: 'normal', riskScoreThreshold: 50, blacklist: ['bad.example'], whitelist: [], blockedTlds: [], failurePolicy: 'open' };

function base(): UrlGuard & { checked: string[] } {
  const checked: string[] = [];
  return { checked, checkUrl: (u) => (checked.push(u), Promise.resolve()), checkAddress: () => undefined };
}

describe('the team guard', () => {
  it('refuses a blocked URL with 403 URL_BLOCKED before the base guard looks it up', async () => {
    const b = base();
    const g = new TeamGuard(b, rules, undefined);
    const err = await g.checkUrl('https://sub.bad.example/p').catch((e: unknown) => e);
    expect(isApiError(err) && [err.status, err.code]).toEqual([403, 'URL_BLOCKED']);
    expect((err as Error).message).toMatch(/threat protection.*blacklist/);
    expect(b.checked).toEqual([]);
  });

  it('asks the classifier once per URL and counts each scan once', async () => {
    let asked = 0;
    const c: UrlClassifier = { name: 'c', classify: () => (asked++, Promise.resolve({ riskScore: 10 })) };
    const b = base();
    const g = new TeamGuard(b, rules, c);
    await g.checkUrl('https://fine.example/a');
    await g.checkUrl('https://fine.example/a#part');
    await g.checkUrl('https://fine.example/b');
    expect(asked).toBe(2);
    expect(g.takeScans()).toBe(2);
    expect(g.takeScans()).toBe(0);
    expect(b.checked).toHaveLength(3);
  });

  it('checks a browser sub-resource against the lists only, with no scan', async () => {
    let asked = 0;
    const c: UrlClassifier = { name: 'c', classify: () => (asked++, Promise.resolve({ riskScore: 99 })) };
    const g = new TeamGuard(base(), rules, c);
    await g.checkSubresource('https://cdn.example/img.png');
    await expect(g.checkSubresource('https://x.bad.example/t.js')).rejects.toThrow(/blacklist/);
    expect(asked).toBe(0);
    expect(g.takeScans()).toBe(0);
  });

  it('keeps the failurePolicy-open warning once', async () => {
    const c: UrlClassifier = { name: 'c', classify: () => Promise.reject(new ClassifierUnavailable('down')) };
    const g = new TeamGuard(base(), rules, c);
    await g.checkUrl('https://a.example/');
    await g.checkUrl('https://a.example/again');
    expect(g.warnings).toHaveLength(1);
    expect(g.takeScans()).toBe(0);
  });
});
