/**
 * A monitor's goal judging: one model call per changed page, over its diff cut to a budget,
 * answering whether the change matters for the goal, in the SDK's MonitorPageJudgment shape.
 * The diff is page text, so it enters the prompt as delimited data; the goal is the caller's.
 */
import { prompts, taskMessages } from './prompts.js';
import { ModelUnavailableError, type ModelSession } from './types.js';
import type { JsonSchema } from './offline/fill.js';

export interface ChangeJudgment {
  meaningful: boolean;
  confidence: 'high' | 'medium' | 'low';
  reason: string;
  meaningfulChanges: { type: 'added' | 'removed' | 'changed'; before: string | null; after: string | null; reason: string }[];
}

const nullableText = { type: ['string', 'null'] };

export const JUDGMENT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    meaningful: { type: 'boolean' },
    confidence: { type: 'string', enum: ['high', 'medium', 'low'] },
    reason: { type: 'string' },
    meaningfulChanges: {
      type: 'array',
      items: {
        type: 'object',
        properties: { type: { type: 'string', enum: ['added', 'removed', 'changed'] }, before: nullableText, after: nullableText, reason: { type: 'string' } },
        required: ['type', 'reason'],
      },
    },
  },
  required: ['meaningful', 'reason'],
} as JsonSchema;

/** Most diff characters one judgment reads, whatever the model's context. */
export const DIFF_BUDGET_CHARS = 12_000;

/** The diff as the model sees it: cut to the budget, saying so. */
export function diffForJudge(diff: string, contextTokens: number): string {
  const budget = Math.min(DIFF_BUDGET_CHARS, contextTokens * 4);
  if (diff.length <= budget) return diff;
  return `${diff.slice(0, budget)}\n... (diff cut at ${budget} of ${diff.length} characters)`;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export async function judgeChange(m: ModelSession, goal: string, url: string, diff: string): Promise<ChangeJudgment> {
  const out = await m.json({ messages: taskMessages(prompts.judgeChange(goal, url), diffForJudge(diff, m.contextTokens)), schema: JUDGMENT_SCHEMA, name: 'change_judgment' });
  const v = out.value as Record<string, unknown> | undefined;
  // A verdict is the one thing a judgment cannot do without; the rest is filled in plainly.
  if (typeof v?.meaningful !== 'boolean') throw new ModelUnavailableError(`The model's judgment has no verdict: ${out.errors.slice(0, 3).join('; ')}`, 'bad-output');
  const confidence = v.confidence === 'high' || v.confidence === 'medium' || v.confidence === 'low' ? v.confidence : 'low';
  const changes = Array.isArray(v.meaningfulChanges) ? (v.meaningfulChanges as Record<string, unknown>[]) : [];
  return {
    meaningful: v.meaningful,
    confidence,
    reason: text(v.reason) ?? '',
    meaningfulChanges: changes
      .filter((c) => typeof c === 'object' && c !== null && ['added', 'removed', 'changed'].includes(c.type as string))
      .map((c) => ({ type: c.type as 'added' | 'removed' | 'changed', before: text(c.before), after: text(c.after), reason: text(c.reason) ?? '' })),
  };
}
