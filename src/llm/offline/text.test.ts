import { describe, expect, it } from 'vitest';
import { analyse, idsOf, sentences, termId, terms, type PageText } from './text.js';

const pageIds = (page: PageText) => page.sentences.map((_, i) => [...idsOf(page, i)]);
/** The ids the page should give these lines' terms. */
const idsFor = (page: PageText, lines: string[]) => lines.map((l) => terms(l).map((t) => termId(page, t)));

const texts = (markdown: string) => sentences(markdown).map((s) => s.text);

describe('sentences', () => {
  it('cuts a line where an end mark and spaces meet a capital or a digit', () => {
    expect(texts('The oven heats. It bakes bread! Does it? 42 loaves rise.')).toEqual(['The oven heats.', 'It bakes bread!', 'Does it?', '42 loaves rise.']);
  });

  it('keeps a closing quote or bracket with its sentence, and an opening one with the next', () => {
    expect(texts('He said "stop." Then (later) he left. "Why?" she asked.')).toEqual(['He said "stop."', 'Then (later) he left.', '"Why?" she asked.']);
    expect(texts('See the note (page 4.) [Another] one.')).toEqual(['See the note (page 4.)', '[Another] one.']);
  });

  it('does not cut before a lower-case word, a symbol, or where no space follows the mark', () => {
    expect(texts('Use e.g. this one. Version 1.2 works.')).toEqual(['Use e.g. this one.', 'Version 1.2 works.']);
    expect(texts('It ends... and goes on. A list: -x.')).toEqual(['It ends... and goes on.', 'A list: -x.']);
  });

  it('drops code and bold marks with or without a link on the line, and keeps a link\'s text', () => {
    expect(texts('Run `VACUUM` on **every** table.')).toEqual(['Run VACUUM on every table.']);
    expect(texts('A __bold__ ``pair`` and *** three.')).toEqual(['A bold pair and * three.']);
    expect(texts('See [the manual page](https://example.com/a_b) for **more** `x`.')).toEqual(['See the manual page for more x.']);
    expect(texts('Not a [link] here, `x` [nor](this.')).toEqual(['Not a [link] here, x [nor](this.']);
  });

  it('drops the marks inside a link\'s text too, and keeps what looks like a tag there', () => {
    expect(texts('See [`pg_class`](a.html) and [**bold**](b.html).')).toEqual(['See pg_class and bold.']);
    expect(texts('Call [`Handler.<protocol>_open()`](c.html) <b>now</b>.')).toEqual(['Call Handler.<protocol>_open() now .']);
  });

  it('takes out only what is a tag: angle brackets around no tag, in code or escaped are text', () => {
    expect(texts('Use <, <= and <-> here; a < b > c.')).toEqual(['Use <, <= and <-> here; a < b > c.']);
    expect(texts('It returns `Option<T>`, a [`Vec<u8>`](v.html) or \\<none>.')).toEqual(['It returns Option<T>, a Vec<u8> or <none>.']);
    expect(texts('Write to <[a@example.com](mailto:a@example.com)> soon.')).toEqual(['Write to <a@example.com> soon.']);
    expect(texts('A <em>real</em> tag<br/>goes.')).toEqual(['A real tag goes.']);
  });

  it('reads an escaped mark as the character itself', () => {
    expect(texts('It holds \\*stars\\* and 2\\*3, \\[brackets\\] and a back\\\\slash.')).toEqual(['It holds *stars* and 2*3, [brackets] and a back\\slash.']);
    expect(texts('\\# not a heading, \\- nor an item.')).toEqual(['# not a heading, - nor an item.']);
  });

  it('reads a table row as its cells, without the pipes at its edges', () => {
    expect(texts('| Name | Value |\n| --- | --- |\n| pg\\_class | a \\| b |')).toEqual(['Name | Value', 'pg_class | a | b']);
    expect(texts('| One cell |\n\n| ends in a pipe \\|')).toEqual(['One cell', 'ends in a pipe |']);
  });

  it('cuts Chinese and Japanese at their own end marks, which no space follows', () => {
    expect(texts('東京は晴れです。明日は「雨」です！本当？ 京都は曇り。')).toEqual(['東京は晴れです。', '明日は「雨」です！', '本当？', '京都は曇り。']);
    expect(texts('他说：「好。」然后走了。')).toEqual(['他说：「好。」', '然后走了。']);
  });

  it('cuts at any run of spaces, non-breaking ones included, and before non-Latin capitals', () => {
    expect(texts('First one.\u00a0\u00a0Second one. Élan follows.')).toEqual(['First one.', 'Second one.', 'Élan follows.']);
  });
});

describe('analyse', () => {
  it('gives each sentence the ids of its terms, the same word the same id whatever its case', () => {
    const page = analyse('Ovens bake BREAD. The oven bakes bread daily.');
    expect(pageIds(page)).toEqual(idsFor(page, ['Ovens bake BREAD.', 'The oven bakes bread daily.']));
    expect(terms('Ovens bake BREAD. The oven bakes bread daily.')).toEqual(['oven', 'bake', 'bread', 'oven', 'bake', 'bread', 'daily']);
    expect(pageIds(page)).toEqual([[0, 1, 2], [0, 1, 2, 3]]);
  });

  it('reads Chinese and Japanese words by dictionary, leaving out particles and copulas', () => {
    expect(terms('東京の天気は晴れです')).toEqual(['東京', '天気', '晴れ']);
    expect(terms('北京今天天气很好')).toEqual(['北京', '今天', '天气', '很好']);
    const page = analyse('東京は今日晴れです。大阪は雨です。');
    expect(termId(page, '東京')).toBeGreaterThanOrEqual(0);
    expect(termId(page, 'です')).toBe(-1);
  });

  it('reads words with accents as words, and gives headings no terms', () => {
    const page = analyse('# Café notes\n\nThe café serves crème brûlée.');
    expect(idsOf(page, 0)).toHaveLength(0);
    expect(pageIds(page)[1]).toEqual(idsFor(page, ['The café serves crème brûlée.'])[0]);
    expect(termId(page, 'notes')).toBe(-1);
  });

  it('reads words as terms() does, with and without punctuation beyond ASCII', () => {
    const lines = [
      'Run vacuumdb --analyze-only and \'quoted\' names_here, then x-y ab--cd.',
      'Run vacuumdb --analyze-only \u2192 \u201cquoted\u201d names_here \u2014 then x-y ab--cd.',
      'The ovens\u200b bake; Na\u00efve caf\u00e9 --baking\u2019s BREAD.',
    ];
    const page = analyse(lines.join('\n\n'));
    expect(pageIds(page)).toEqual(idsFor(page, lines));
    expect(idsFor(page, lines).flat()).not.toContain(-1);
    // In ASCII text a run that starts with - or ' is no word; beside a curly quote it is.
    expect(terms(lines[0]!)).not.toContain('analyze-only');
    expect(terms(lines[1]!)).toContain('analyze-only');
  });

  it('stems words as terms() does, whatever their case', () => {
    const line = 'BAKING Parties TIES tried Boss bosses Cats ing ties sing singing Made EDGED Ed The AND Between Yours.';
    const page = analyse(line);
    expect(pageIds(page)).toEqual(idsFor(page, [line]));
    expect(idsFor(page, [line])[0]).not.toContain(-1);
    // Parties and party: one term.
    expect(terms('Parties party')).toEqual(['party', 'party']);
    expect(termId(page, 'party')).toBeGreaterThanOrEqual(0);
  });

  it('numbers the terms of each page from 0 in its own order, whatever earlier pages held', () => {
    analyse('Kettles boil water. Teapots steep leaves.');
    const page = analyse('Leaves steep slowly. Kettles whistle.');
    expect(pageIds(page)).toEqual([[0, 1, 2], [3, 4]]);
    expect(pageIds(page)).toEqual(idsFor(page, ['Leaves steep slowly.', 'Kettles whistle.']));
    expect(page.termCount).toBe(5);
    expect(termId(page, 'water')).toBe(-1);
  });

  it('reads a page of thousands of different words, each its own term, the same word the same term', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `Word${i}x`);
    const page = analyse(`${words.join(' ')}. ${words.slice(0, 50).join(' ')}.`);
    const [first, again] = pageIds(page);
    expect(first).toEqual(words.map((_, i) => i));
    expect(again).toEqual(first!.slice(0, 50));
    expect(termId(page, 'word4999x')).toBe(4999);
  });
});
