import { describe, expect, it } from 'vitest';
import type { ModelAccess, ModelCallScope } from '../llm/types.js';
import { judgePages, judges } from './judge.js';

const diff = (t: string) => ({ text: `@@ -1 +1 @@\n-old\n+${t}` });

function model(answer: (diff: string) => unknown): ModelAccess & { scopes: ModelCallScope[] } {
  const scopes: ModelCallScope[] = [];
  return {
    scopes,
    session: (scope) => {
      scopes.push(scope);
      return {
        contextTokens: 10_000,
        json: async (req) => ({ value: answer(req.messages[1]!.content), valid: true, errors: [] }),
        text: async () => '',
      };
    },
  };
}

const scope = { teamId: 't1', checkId: 'c1', goal: 'price drops' };

describe('judgePages', () => {
  it('judges changed pages only, one call each, counted to the check', async () => {
    const m = model((d) => ({ meaningful: d.includes('cheaper'), reason: 'r' }));
    const pages = [
      { url: 'a', status: 'changed', diff: diff('cheaper') },
      { url: 'b', status: 'same', diff: null },
      { url: 'c', status: 'new', diff: null },
      { url: 'd', status: 'changed', diff: diff('reworded') },
    ];
    const out = await judgePages(m, scope, pages, new AbortController().signal);
    expect(out.map((j) => j?.judgment?.meaningful)).toEqual([true, undefined, undefined, false]);
    expect(m.scopes).toHaveLength(2);
    expect(m.scopes[0]).toMatchObject({ teamId: 't1', requestId: 'monitor-check:c1' });
  });

  it('leaves a page the model failed on unjudged with a warning, and the others judged', async () => {
    const m = model((d) => {
      if (d.includes('broken')) throw new Error('The model server kept failing (503)');
      return { meaningful: true, reason: 'r' };
    });
    const out = await judgePages(m, scope, [{ url: 'a', status: 'changed', diff: diff('broken') }, { url: 'b', status: 'changed', diff: diff('fine') }], new AbortController().signal);
    expect(out[0]).toEqual({ judgment: null, warning: 'The model could not judge this change: The model server kept failing (503)' });
    expect(out[1]!.judgment?.meaningful).toBe(true);
  });

  it('judges at most maxPages per check', async () => {
    const m = model(() => ({ meaningful: true, reason: 'r' }));
    const pages = Array.from({ length: 3 }, (_, i) => ({ url: String(i), status: 'changed', diff: diff(String(i)) }));
    const out = await judgePages(m, scope, pages, new AbortController().signal, { timeoutMs: 1000, maxPages: 2, concurrency: 2, totalMs: 60_000 });
    expect(out.map((j) => j?.judgment !== null)).toEqual([true, true, false]);
    expect(out[2]!.warning).toContain('at most 2 changed pages');
  });

  it("stops judging when the check's judging time has run out", async () => {
    const m = model(() => ({ meaningful: true, reason: 'r' }));
    const out = await judgePages(m, scope, [{ url: 'a', status: 'changed', diff: diff('a') }], new AbortController().signal, { timeoutMs: 1000, maxPages: 10, concurrency: 1, totalMs: 0 });
    expect(out[0]).toEqual({ judgment: null, warning: "Not judged: the check's judging time (0 s) ran out" });
    expect(m.scopes).toHaveLength(0);
  });
});

describe('judges', () => {
  it('needs judging on and a goal that says something', () => {
    expect(judges({ goal: 'price drops', judgeEnabled: true })).toBe(true);
    expect(judges({ goal: '  ', judgeEnabled: true })).toBe(false);
    expect(judges({ goal: 'price drops', judgeEnabled: false })).toBe(false);
  });
});
