import { describe, expect, it } from 'vitest';
import { boundedMemo } from './memo.js';

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
