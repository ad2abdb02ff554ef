import { describe, expect, it } from 'vitest';
import { boundedMemo, memoByObject, memoBySmallNumber } from './memo.js';

describe('boundedMemo', () => {
  it('asks once per key, undefined answers included', () => {
    const asked: string[] = [];
    const f = boundedMemo((k) => {
      asked.push(k);
      return k.startsWith('nav') ? 'nav' : undefined;
    });
    expect([f('nav-main'), f('content'), f('nav-main'), f('content')]).toEqual(['nav', undefined, 'nav', undefined]);
    expect(asked).toEqual(['nav-main', 'content']);
  });

  it('forgets everything past its bound and asks again', () => {
    const asked: string[] = [];
    const f = boundedMemo((k) => (asked.push(k), k.length), 2);
    for (const k of ['a', 'bb', 'ccc', 'a']) f(k);
    expect(asked).toEqual(['a', 'bb', 'ccc', 'a']);
  });
});

describe('memoByObject and memoBySmallNumber', () => {
  it('work out each key once and hand back the same answer', () => {
    let calls = 0;
    const byObject = memoByObject((o: { n: number }) => ({ twice: (calls++, o.n * 2) }));
    const a = { n: 1 };
    expect(byObject(a)).toBe(byObject(a));
    expect(byObject({ n: 1 })).not.toBe(byObject(a));
    const bySize = memoBySmallNumber((n) => (calls++, [n]));
    expect(bySize(3)).toBe(bySize(3));
    expect(calls).toBe(3);
  });
});
