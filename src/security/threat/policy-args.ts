/**
 * The operator's edit of a threat policy on the command line: `key=value` pairs over the current
 * policy (lists comma-separated, `key=` empties a list), or one JSON object that replaces it.
 * The result is validated by the policy schema, so a bad value is refused with its field named.
 */
import { threatPolicySchema, type ThreatPolicy } from './policy.js';

const LISTS = new Set(['blacklist', 'whitelist', 'blockedTlds']);
const FLAGS = new Set(['enabled', 'enforced', 'overridesAllowed']);
const KEYS = new Set([...LISTS, ...FLAGS, 'mode', 'riskScoreThreshold', 'failurePolicy']);

export function editPolicy(current: ThreatPolicy, args: string[]): ThreatPolicy {
  if (args.length === 1 && args[0]!.trim().startsWith('{')) return check(JSON.parse(args[0]!) as unknown);
  const next: Record<string, unknown> = { ...current };
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new Error(`expected key=value, found "${arg}"`);
    const key = arg.slice(0, eq);
    const value = arg.slice(eq + 1);
    if (!KEYS.has(key)) throw new Error(`unknown policy field ${key}; known: ${[...KEYS].join(', ')}`);
    if (LISTS.has(key)) next[key] = value.split(',').map((s) => s.trim()).filter(Boolean);
    else if (FLAGS.has(key)) next[key] = parseFlag(key, value);
    else if (key === 'riskScoreThreshold') next[key] = Number(value);
    else next[key] = value;
  }
  return check(next);
}

function parseFlag(key: string, v: string): boolean {
  if (['true', 'on', 'yes', '1'].includes(v)) return true;
  if (['false', 'off', 'no', '0'].includes(v)) return false;
  throw new Error(`${key} takes true or false, found "${v}"`);
}

function check(v: unknown): ThreatPolicy {
  const parsed = threatPolicySchema.safeParse(v);
  if (parsed.success) return parsed.data;
  throw new Error(parsed.error.issues.map((i) => `${i.path.join('.') || 'policy'}: ${i.message}`).join('; '));
}
