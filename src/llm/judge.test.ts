import { describe, expect, it } from 'vitest';
import { DIFF_BUDGET_CHARS, diffForJudge, judgeChange } from './judge.js';
import type { JsonRequest, ModelSession } from './types.js';

const answering = (value: unknown, seen: JsonRequest[] = []): ModelSession => ({
  contextTokens: 100_000,
  json: async (req) => {
    seen.push(req);
    return { value, valid: true, errors: [] };
  },
  text: async () => '',
});

describe('judgeChange', () => {
  it('asks with the goal and the diff fenced as data, and answers in the SDK shape', async () => {
    const seen: JsonRequest[] = [];
    const j = await judgeChange(answering({ meaningful: true, confidence: 'high', reason: 'cheaper', meaningfulChanges: [{ type: 'changed', before: '10', after: '8', reason: 'price' }] }, seen), 'price drops', 'https://shop.test/', '@@ -1 +1 @@\n-10\n+8');
    expect(j).toEqual({ meaningful: true, confidence: 'high', reason: 'cheaper', meaningfulChanges: [{ type: 'changed', before: '10', after: '8', reason: 'price' }] });
    expect(seen[0]!.name).toBe('change_judgment');
    expect(seen[0]!.messages[1]!.content).toContain('price drops');
    expect(seen[0]!.messages[1]!.content).toMatch(/<<<PAGE-[0-9a-f]+\n@@ -1 \+1 @@/);
  });

  it('fills what a loose answer leaves out, but never invents a verdict', async () => {
    expect(await judgeChange(answering({ meaningful: false, reason: 'wording', meaningfulChanges: [{ type: 'moved' }] }), 'g', 'u', 'd')).toEqual({ meaningful: false, confidence: 'low', reason: 'wording', meaningfulChanges: [] });
    await expect(judgeChange(answering({ reason: 'unsure' }), 'g', 'u', 'd')).rejects.toThrow(/no verdict/);
  });
});

describe('diffForJudge', () => {
  it('keeps a diff within the budget and says where it was cut', () => {
    expect(diffForJudge('short', 1000)).toBe('short');
    const long = 'x'.repeat(DIFF_BUDGET_CHARS + 10);
    expect(diffForJudge(long, 100_000)).toMatch(new RegExp(`cut at ${DIFF_BUDGET_CHARS} of ${DIFF_BUDGET_CHARS + 10} characters`));
    // A small model's context is the tighter bound.
    expect(diffForJudge(long, 100).startsWith('x'.repeat(400) + '\n')).toBe(true);
  });
});
