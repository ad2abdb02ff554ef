import { describe, expect, it } from 'vitest';
import { blocksMarkdown } from '../blocks.js';
import { blocksOf, linesOf, readingOrder, typeScale, type TextRun } from './layout.js';

/** One run per line of text, 10pt body, 14pt line pitch unless given. */
const run = (text: string, x: number, baseline: number, size = 10): TextRun => ({ text, x, w: text.length * size * 0.5, baseline, size });

const markdownOf = (runs: TextRun[]) => {
  const lines = linesOf(runs);
  const scale = typeScale(lines);
  return blocksMarkdown(blocksOf(readingOrder(lines, scale), scale, true).map((b) => b.block));
};

describe('page layout', () => {
  it('makes the largest type the title and smaller large type section headers', () => {
    const md = markdownOf([run('Annual Report', 50, 40, 24), run('Some body text that is long enough to set the body size.', 50, 70), run('Results', 50, 100, 16), run('More body text follows here, again long enough.', 50, 125)]);
    expect(md).toBe('# Annual Report\n\nSome body text that is long enough to set the body size.\n\n## Results\n\nMore body text follows here, again long enough.');
  });

  it('joins wrapped lines into one paragraph, mending words hyphenated at the line end', () => {
    const md = markdownOf([run('The quick brown fox jumps over the lazy exam-', 50, 40), run('ple dog and keeps running.', 50, 53)]);
    expect(md).toBe('The quick brown fox jumps over the lazy example dog and keeps running.');
  });

  it('reads rows cut into aligned segments as a table', () => {
    const rows = [['Name', 'Qty'], ['Apples', '12'], ['Pears', '7']];
    const md = markdownOf(rows.flatMap(([a, b], i) => [run(a!, 50, 40 + i * 14), run(b!, 200, 40 + i * 14)]));
    expect(md).toBe('| Name | Qty |\n| --- | --- |\n| Apples | 12 |\n| Pears | 7 |');
  });

  it('keeps a bullet set apart from its text as a list item, not a table cell', () => {
    const md = markdownOf([run('•', 50, 40), run('First thing', 70, 40), run('•', 50, 54), run('Second thing', 70, 54)]);
    expect(md).toBe('- First thing\n\n- Second thing');
  });

  it('reads a two-column page column by column', () => {
    const left = ['Left column line one is long enough', 'left column line two is also long', 'left column line three ends it here'];
    const right = ['Right column line one is long enough', 'right column line two is also long', 'right column line three ends it'];
    const runs = left.flatMap((t, i) => [run(t, 50, 40 + i * 14), run(right[i]!, 300, 40 + i * 14)]);
    runs.push(...['a', 'b', 'c'].map((t, i) => run(`${t} more left text to make the column tall enough`, 50, 82 + i * 14)));
    const md = markdownOf(runs);
    expect(md.indexOf('left column line three')).toBeLessThan(md.indexOf('Right column line one'));
    expect(md.indexOf('c more left text')).toBeLessThan(md.indexOf('Right column line one'));
  });
});
