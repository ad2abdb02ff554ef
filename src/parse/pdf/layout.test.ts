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

  describe('scanned pages (OCR words, no fonts)', () => {
    /** OCR words of one line: each word a run with a confidence, gaps of a space. */
    const words = (line: string, x: number, baseline: number, size = 10): TextRun[] => {
      const out: TextRun[] = [];
      for (const m of line.matchAll(/\S+/g)) out.push({ text: m[0], x: x + m.index * size * 0.6, w: m[0].length * size * 0.6, baseline, size, conf: 0.9 });
      return out;
    };
    const page = (ls: [string, number][]) => ls.flatMap(([t, x], k) => words(t, x, 40 + k * 14));

    it('fences lines that read as code, and the lines between them that are not prose', () => {
      const md = markdownOf(
        page([
          ['The query below joins the two tables on the name of the city.', 50],
          ['SELECT city, temp_lo, temp_hi, prcp', 50],
          ['    FROM weather JOIN cities ON city = name;', 50],
          ['OUT alias text,', 50],
          ['Each row of the result holds the weather of one city on one day.', 50],
        ]),
      );
      expect(md).toContain('```\nSELECT city, temp_lo, temp_hi, prcp\n');
      expect(md).toContain('FROM weather JOIN cities ON city = name;\nOUT alias text,\n```');
      expect(md).toMatch(/```\n\nEach row of the result/);
    });

    it('does not read a ruling line or a box as a heading', () => {
      const runs = [...words('Check new row', 50, 40), ...words('[@ |= — — — —', 50, 70, 30), ...words('A policy grants the permission to select rows that match.', 50, 110)];
      expect(markdownOf(runs)).not.toMatch(/^#/m);
    });
  });
});
