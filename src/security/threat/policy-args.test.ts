/** The operator's command-line edit of a team's threat policy. */
import { describe, expect, it } from 'vitest';
import { editPolicy } from './policy-args.js';
import { DEFAULT_POLICY } from './policy.js';

describe('editing a threat policy', () => {
  it('key=value pairs change those fields and keep the rest', () => {
    const p = editPolicy(DEFAULT_POLICY, ['enabled=true', 'mode=manual-only', 'blacklist=a.example, b.example', 'riskScoreThreshold=40']);
    expect(p).toMatchObject({ enabled: true, mode: 'manual-only', blacklist: ['a.example', 'b.example'], riskScoreThreshold: 40, failurePolicy: 'open' });
    expect(editPolicy(p, ['blacklist=']).blacklist).toEqual([]);
  });

  it('one JSON object replaces the policy', () => {
    expect(editPolicy(DEFAULT_POLICY, ['{"enabled":true,"enforced":true}'])).toMatchObject({ enabled: true, enforced: true, overridesAllowed: true });
  });

  it('refuses unknown fields, bad flags, zscaler and out-of-range thresholds', () => {
    expect(() => editPolicy(DEFAULT_POLICY, ['colour=blue'])).toThrow(/unknown policy field colour/);
    expect(() => editPolicy(DEFAULT_POLICY, ['enabled=maybe'])).toThrow(/true or false/);
    expect(() => editPolicy(DEFAULT_POLICY, ['mode=zscaler'])).toThrow(/zscaler.*not supported/);
    expect(() => editPolicy(DEFAULT_POLICY, ['riskScoreThreshold=101'])).toThrow(/riskScoreThreshold/);
  });
});
