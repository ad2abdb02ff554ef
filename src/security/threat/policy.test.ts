/**
 * The override rules, case by case: what a request's `threatProtection` may do under each kind
 * of team policy, and the request shape's validation.
 */
import { describe, expect, it } from 'vitest';
import { isApiError } from '../../errors.js';
import { DEFAULT_POLICY, effectiveRules, threatOverrideSchema, threatPolicySchema, type ThreatOverride, type ThreatPolicy } from './policy.js';

const policy = (p: Partial<ThreatPolicy>): ThreatPolicy => threatPolicySchema.parse({ enabled: true, ...p });

function status(p: ThreatPolicy, o: ThreatOverride | null | undefined): number | 'ok' {
  try {
    effectiveRules(p, o);
    return 'ok';
  } catch (e) {
    if (isApiError(e)) return e.status;
    throw e;
  }
}

describe('rules without an override', () => {
  it('a team whose policy is not enabled checks nothing', () => {
    expect(effectiveRules(DEFAULT_POLICY, undefined)).toBeUndefined();
    expect(effectiveRules(DEFAULT_POLICY, null)).toBeUndefined();
  });

  it('an enabled policy applies as the operator set it', () => {
    const p = policy({ mode: 'manual-only', blacklist: ['bad.example'], riskScoreThreshold: 50 });
    expect(effectiveRules(p, undefined)).toEqual({ mode: 'manual-only', riskScoreThreshold: 50, blacklist: ['bad.example'], whitelist: [], blockedTlds: [], failurePolicy: 'open' });
  });

  it('an enabled policy in mode off checks nothing', () => {
    expect(effectiveRules(policy({ mode: 'off' }), undefined)).toBeUndefined();
  });
});

describe('an override when the team has no threat protection', () => {
  it('asking for protection is 403: the operator turns the feature on', () => {
    expect(status(DEFAULT_POLICY, { mode: 'normal' })).toBe(403);
    expect(status(DEFAULT_POLICY, { blacklist: ['x.example'] })).toBe(403);
  });

  it('saying only mode off changes nothing and is allowed', () => {
    expect(effectiveRules(DEFAULT_POLICY, { mode: 'off' })).toBeUndefined();
  });
});

describe('an override when the policy does not allow overrides', () => {
  it('is 403 whatever it asks, tighter or looser', () => {
    const p = policy({ overridesAllowed: false });
    expect(status(p, { riskScoreThreshold: 10 })).toBe(403);
    expect(status(p, { mode: 'off' })).toBe(403);
    expect(status(p, {})).toBe('ok');
  });
});

describe('an override of a policy that is not enforced', () => {
  const p = policy({ blacklist: ['a.example'], whitelist: ['ok.example'], riskScoreThreshold: 60 });

  it('replaces each field it gives', () => {
    const r = effectiveRules(p, { blacklist: ['b.example'], riskScoreThreshold: 90, whitelist: ['other.example'], failurePolicy: 'closed' });
    expect(r).toMatchObject({ blacklist: ['b.example'], whitelist: ['other.example'], riskScoreThreshold: 90, failurePolicy: 'closed', mode: 'normal' });
  });

  it('may turn protection off for the request', () => {
    expect(effectiveRules(p, { mode: 'off' })).toBeUndefined();
  });
});

describe('an override of an enforced policy', () => {
  const p = policy({ enforced: true, mode: 'normal', riskScoreThreshold: 60, blacklist: ['a.example'], whitelist: ['ok.example'], blockedTlds: ['zip'], failurePolicy: 'closed' });

  it('cannot turn it off or drop the classifier', () => {
    expect(status(p, { mode: 'off' })).toBe(403);
    expect(status(p, { mode: 'manual-only' })).toBe(403);
  });

  it('cannot raise the threshold, but may lower it', () => {
    expect(status(p, { riskScoreThreshold: 61 })).toBe(403);
    expect(effectiveRules(p, { riskScoreThreshold: 30 })?.riskScoreThreshold).toBe(30);
  });

  it('cannot add to the whitelist, but may narrow it', () => {
    expect(status(p, { whitelist: ['ok.example', 'new.example'] })).toBe(403);
    expect(effectiveRules(p, { whitelist: [] })?.whitelist).toEqual([]);
  });

  it('cannot open a closed failure policy', () => {
    expect(status(p, { failurePolicy: 'open' })).toBe(403);
  });

  it('adds blacklist and blocked TLD entries to the policy’s', () => {
    const r = effectiveRules(p, { blacklist: ['b.example'], blockedTlds: ['xyz'] });
    expect(r?.blacklist).toEqual(['a.example', 'b.example']);
    expect(r?.blockedTlds).toEqual(['zip', 'xyz']);
  });

  it('a manual-only enforced policy may be tightened to normal', () => {
    expect(effectiveRules(policy({ enforced: true, mode: 'manual-only' }), { mode: 'normal' })?.mode).toBe('normal');
  });

  it('the 403 names threatProtection in its details', () => {
    try {
      effectiveRules(p, { mode: 'off' });
      expect.unreachable();
    } catch (e) {
      expect(isApiError(e) && e.key).toBe('FORBIDDEN');
      expect(JSON.stringify((e as { details: unknown }).details)).toContain('threatProtection');
    }
  });
});

describe('the override shape', () => {
  const issues = (v: unknown) => {
    const r = threatOverrideSchema.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('accepts every field of the interface and normalises domains', () => {
    const r = threatOverrideSchema.parse({ mode: 'manual-only', riskScoreThreshold: 0, blacklist: ['HTTPS://Bad.Example/x', '*.evil.example'], whitelist: [], blockedTlds: ['.ZIP'], failurePolicy: 'open' });
    expect(r.blacklist).toEqual(['bad.example', 'evil.example']);
    expect(r.blockedTlds).toEqual(['zip']);
  });

  it('refuses zscaler by name as unsupported', () => {
    expect(issues({ mode: 'zscaler' }).join()).toMatch(/mode: .*zscaler.*not supported/);
  });

  it('refuses unknown modes, keys, thresholds out of 0..100 and lists over 1000 entries', () => {
    expect(issues({ mode: 'paranoid' })).toHaveLength(1);
    expect(issues({ extra: true })).toHaveLength(1);
    expect(issues({ riskScoreThreshold: 101 })).toHaveLength(1);
    expect(issues({ riskScoreThreshold: -1 })).toHaveLength(1);
    expect(issues({ blacklist: Array.from({ length: 1001 }, (_, i) => `d${i}.example`) })).toHaveLength(1);
    expect(issues({ blacklist: Array.from({ length: 1000 }, (_, i) => `d${i}.example`) })).toHaveLength(0);
    expect(issues({ whitelist: ['not a domain'] })).toHaveLength(1);
    expect(issues({ failurePolicy: 'maybe' })).toHaveLength(1);
  });
});
