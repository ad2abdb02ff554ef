/**
 * Threat protection policy: what the operator sets for a team, what a request may send as an
 * override, and the rules a request ends up with. The override rules (README, "Threat
 * protection"):
 *
 * - no override: the team's policy applies as it is (nothing, when it is not enabled);
 * - the team's policy is not enabled: an override asking for protection is 403 (it is a feature
 *   the operator turns on), one that only says `mode: "off"` changes nothing;
 * - overrides not allowed for the team: any other override is 403;
 * - an enforced policy cannot be turned off or loosened: `mode: "off"`, `normal` -> `manual-only`,
 *   a higher `riskScoreThreshold`, whitelist entries the policy lacks, or `failurePolicy: "open"`
 *   over a closed one are 403; blacklist and blockedTlds entries add to the policy's;
 * - a policy that is not enforced: each field the override gives replaces the policy's.
 */
import { z } from 'zod';
import { ApiError } from '../../errors.js';

export const THREAT_MODES = ['off', 'normal', 'manual-only'] as const;
export type ThreatMode = (typeof THREAT_MODES)[number];
/** Modes the interface names that this server does not implement. */
const UNSUPPORTED_MODES = ['zscaler'];
export const MAX_LIST_ENTRIES = 1000;

/** A domain as written in a list: lower case, no scheme, no trailing dot; `*.` and a leading dot are dropped. */
export function normaliseDomain(d: string): string {
  return d
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/:?#].*$/, '')
    .replace(/^\*?\./, '')
    .replace(/\.$/, '');
}

const domainPattern = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/;
const domainList = z
  .array(
    z
      .string()
      .max(253)
      .transform(normaliseDomain)
      .refine((d) => domainPattern.test(d), 'Expected a domain name such as example.com'),
  )
  .max(MAX_LIST_ENTRIES);
const tldList = z
  .array(
    z
      .string()
      .max(63)
      .transform((t) => normaliseDomain(t))
      .refine((t) => /^[a-z0-9-]{1,63}$/.test(t), 'Expected a top-level domain such as zip'),
  )
  .max(MAX_LIST_ENTRIES);

const modeSchema = z.string().superRefine((m, ctx) => {
  if (UNSUPPORTED_MODES.includes(m)) ctx.addIssue({ code: 'custom', message: `Threat protection mode '${m}' is not supported by this server; use off, normal or manual-only` });
  else if (!(THREAT_MODES as readonly string[]).includes(m)) ctx.addIssue({ code: 'custom', message: `Expected one of ${THREAT_MODES.join(', ')}` });
}) as unknown as z.ZodType<ThreatMode, string>;

const ruleFields = {
  mode: modeSchema,
  riskScoreThreshold: z.number().int().min(0).max(100),
  blacklist: domainList,
  whitelist: domainList,
  blockedTlds: tldList,
  failurePolicy: z.enum(['open', 'closed']),
};

/** The per-request `threatProtection` object; every field optional, no others. */
export const threatOverrideSchema = z.strictObject({
  mode: ruleFields.mode.optional(),
  riskScoreThreshold: ruleFields.riskScoreThreshold.optional(),
  blacklist: ruleFields.blacklist.optional(),
  whitelist: ruleFields.whitelist.optional(),
  blockedTlds: ruleFields.blockedTlds.optional(),
  failurePolicy: ruleFields.failurePolicy.optional(),
});
export type ThreatOverride = z.output<typeof threatOverrideSchema>;

/** The field as request schemas declare it: absent, null or an override. */
export const threatProtectionField = threatOverrideSchema.nullable().optional();

/** What a request is checked against. */
export interface ThreatRules {
  mode: ThreatMode;
  riskScoreThreshold: number;
  blacklist: string[];
  whitelist: string[];
  blockedTlds: string[];
  failurePolicy: 'open' | 'closed';
}

/** A team's policy as the operator sets it. */
export const threatPolicySchema = z.strictObject({
  enabled: z.boolean().default(false),
  enforced: z.boolean().default(false),
  overridesAllowed: z.boolean().default(true),
  mode: ruleFields.mode.default('normal'),
  riskScoreThreshold: ruleFields.riskScoreThreshold.default(70),
  blacklist: ruleFields.blacklist.default([]),
  whitelist: ruleFields.whitelist.default([]),
  blockedTlds: ruleFields.blockedTlds.default([]),
  failurePolicy: ruleFields.failurePolicy.default('open'),
});
export type ThreatPolicy = z.output<typeof threatPolicySchema>;

export const DEFAULT_POLICY: ThreatPolicy = threatPolicySchema.parse({});

const forbidden = (message: string) => new ApiError('FORBIDDEN', { message: `Forbidden: ${message}`, details: [{ path: 'threatProtection', message }] });

/** The mode that checks more: normal (lists and a classifier) > manual-only (lists) > off. */
const strength: Record<ThreatMode, number> = { off: 0, 'manual-only': 1, normal: 2 };

/**
 * The rules a request runs under, or undefined when no URL is to be checked. Throws 403 FORBIDDEN
 * for an override the policy does not allow (see the module comment).
 */
export function effectiveRules(policy: ThreatPolicy, override: ThreatOverride | null | undefined): ThreatRules | undefined {
  const given = override ? (Object.keys(override) as (keyof ThreatOverride)[]).filter((k) => override[k] !== undefined) : [];
  const base: ThreatRules = {
    mode: policy.mode,
    riskScoreThreshold: policy.riskScoreThreshold,
    blacklist: policy.blacklist,
    whitelist: policy.whitelist,
    blockedTlds: policy.blockedTlds,
    failurePolicy: policy.failurePolicy,
  };
  if (!override || given.length === 0) return policy.enabled && policy.mode !== 'off' ? base : undefined;
  const onlyOff = given.length === 1 && override.mode === 'off';
  if (!policy.enabled) {
    if (onlyOff) return undefined;
    throw forbidden('threat protection is not enabled for this team; the operator turns it on');
  }
  if (!policy.overridesAllowed) throw forbidden("this team's threat protection policy does not allow per-request overrides");
  if (!policy.enforced) {
    const rules: ThreatRules = { ...base, ...Object.fromEntries(given.map((k) => [k, override[k]])) };
    return rules.mode === 'off' ? undefined : rules;
  }
  // Enforced: the request may only tighten.
  if (override.mode !== undefined && strength[override.mode] < strength[policy.mode]) {
    throw forbidden(`this team's threat protection policy is enforced: mode '${override.mode}' would loosen mode '${policy.mode}'`);
  }
  if (override.riskScoreThreshold !== undefined && override.riskScoreThreshold > policy.riskScoreThreshold) {
    throw forbidden(`this team's threat protection policy is enforced: riskScoreThreshold may not exceed ${policy.riskScoreThreshold}`);
  }
  const added = (override.whitelist ?? []).filter((d) => !policy.whitelist.includes(d));
  if (added.length > 0) throw forbidden(`this team's threat protection policy is enforced: the whitelist cannot be extended (${added.slice(0, 5).join(', ')})`);
  if (override.failurePolicy === 'open' && policy.failurePolicy === 'closed') {
    throw forbidden("this team's threat protection policy is enforced: failurePolicy 'closed' cannot be opened");
  }
  const rules: ThreatRules = {
    mode: override.mode ?? policy.mode,
    riskScoreThreshold: override.riskScoreThreshold ?? policy.riskScoreThreshold,
    blacklist: union(policy.blacklist, override.blacklist),
    whitelist: override.whitelist ?? policy.whitelist,
    blockedTlds: union(policy.blockedTlds, override.blockedTlds),
    failurePolicy: override.failurePolicy ?? policy.failurePolicy,
  };
  return rules.mode === 'off' ? undefined : rules;
}

const union = (a: string[], b: string[] | undefined): string[] => (b ? [...new Set([...a, ...b])] : a);
