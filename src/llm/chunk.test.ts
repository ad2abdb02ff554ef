import { describe, expect, it } from 'vitest';
import { mergeAnswers, splitByTokens } from './chunk.js';

describe('splitting a page by a token budget', () => {
  it('keeps a page that fits whole, and cuts a longer one at paragraphs into parts that fit', () => {
    expect(splitByTokens('short page', 100)).toEqual(['short page']);
    const paras = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${'word '.repeat(40)}`);
    const parts = splitByTokens(paras.join('\n\n'), 200);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(800);
    expect(parts.join('\n\n').replace(/\s+/g, ' ')).toBe(paras.join('\n\n').replace(/\s+/g, ' ').trim());
  });

  it('cuts a single paragraph longer than a part at words', () => {
    const parts = splitByTokens('word '.repeat(2000), 100);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(400);
  });
});

describe('merging the answers of parts', () => {
  it('joins arrays without duplicates, merges objects by field, and takes the best-supported scalar', () => {
    expect(
      mergeAnswers([
        { title: 'A', tags: ['x', 'y'], author: { name: 'Ann' } },
        { title: 'B', tags: ['y', 'z'] },
        { title: 'B', tags: [{ k: 1 }], author: { name: 'Ann', born: 1900 } },
        { tags: [{ k: 1 }] },
      ]),
    ).toEqual({ title: 'B', tags: ['x', 'y', 'z', { k: 1 }], author: { name: 'Ann', born: 1900 } });
  });

  it('breaks a tie with the earliest part and ignores empty answers', () => {
    expect(mergeAnswers([{ price: null }, { price: 10 }, { price: 12 }])).toEqual({ price: 10 });
  });
});
