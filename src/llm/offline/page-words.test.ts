import { describe, expect, it } from 'vitest';
import { MAX_WORDS, PageWords } from './page-words.js';

const words = new PageWords((w) => (w === 'the' ? undefined : w));

describe('the table of words', () => {
  it('keeps the words of earlier pages, and numbers the terms of each page from 0', () => {
    words.begin();
    words.idOfWord('the');
    words.idOfWord('kettle');
    const kept = words.size;
    const page = words.begin();
    expect([words.idOfWord('tea'), words.idOfWord('kettle'), words.idOfWord('the'), words.idOfWord('tea')]).toEqual([0, 1, -1, 0]);
    expect(page).toEqual(['tea', 'kettle']);
    // Only "tea" was new.
    expect(words.size).toBe(kept + 1);
  });

  it('starts afresh at the start of a page once it holds MAX_WORDS words', () => {
    const page = words.begin();
    for (let i = 0; i <= MAX_WORDS; i++) words.idOfWord(`w${i}`);
    // Mid-page it keeps going: the page's ids must stay as they were given.
    expect(words.size).toBeGreaterThan(MAX_WORDS);
    expect(page).toHaveLength(MAX_WORDS + 1);
    const next = words.begin();
    expect(words.size).toBe(0);
    expect(words.idOfWord('w7')).toBe(0);
    expect(next).toEqual(['w7']);
  });
});
