import { describe, expect, it } from 'vitest';
import { analyse, idsOf, sentences, terms, type PageText } from './text.js';

const pageIds = (page: PageText) => page.sentences.map((_, i) => idsOf(page, i));

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

  it('reads an escaped mark as the character itself', () => {
    expect(texts('It holds \\*stars\\* and 2\\*3, \\[brackets\\] and a back\\\\slash.')).toEqual(['It holds *stars* and 2*3, [brackets] and a back\\slash.']);
    expect(texts('\\# not a heading, \\- nor an item.')).toEqual(['# not a heading, - nor an item.']);
  });

  it('reads a table row as its cells, without the pipes at its edges', () => {
    expect(texts('| Name | Value |\n| --- | --- |\n| pg\\_class | a \\| b |')).toEqual(['Name | Value', 'pg_class | a | b']);
  });

  it('cuts at any run of spaces, non-breaking ones included, and before non-Latin capitals', () => {
    expect(texts('First one.\u00a0\u00a0Second one. Élan follows.')).toEqual(['First one.', 'Second one.', 'Élan follows.']);
  });
});

describe('analyse', () => {
  it('gives each sentence the ids of its terms, the same word the same id whatever its case', () => {
    const page = analyse('Ovens bake BREAD. The oven bakes bread daily.');
    const words = page.vocab;
    const named = pageIds(page).map((ids) => Array.from(ids, (id) => words[id]));
    expect(named).toEqual([terms('Ovens bake BREAD.'), terms('The oven bakes bread daily.')]);
    expect(named).toEqual([['oven', 'bake', 'bread'], ['oven', 'bake', 'bread', 'daily']]);
  });

  it('reads words with accents as words, and gives headings no terms', () => {
    const page = analyse('# Café notes\n\nThe café serves crème brûlée.');
    const words = page.vocab;
    expect(idsOf(page, 0)).toHaveLength(0);
    expect(Array.from(idsOf(page, 1), (id) => words[id])).toEqual(terms('The café serves crème brûlée.'));
  });

  it('reads words as terms() does, with and without punctuation beyond ASCII', () => {
    const lines = [
      'Run vacuumdb --analyze-only and \'quoted\' names_here, then x-y ab--cd.',
      'Run vacuumdb --analyze-only \u2192 \u201cquoted\u201d names_here \u2014 then x-y ab--cd.',
      'The ovens\u200b bake; Na\u00efve caf\u00e9 --baking\u2019s BREAD.',
    ];
    const page = analyse(lines.join('\n\n'));
    const words = page.vocab;
    expect(pageIds(page).map((ids) => Array.from(ids, (id) => words[id]))).toEqual(lines.map((l) => terms(l)));
    // In ASCII text a run that starts with - or ' is no word; beside a curly quote it is.
    expect(terms(lines[0]!)).not.toContain('analyze-only');
    expect(terms(lines[1]!)).toContain('analyze-only');
  });

  it('numbers the terms of each page from 0 in its own order, whatever earlier pages held', () => {
    analyse('Kettles boil water. Teapots steep leaves.');
    const page = analyse('Leaves steep slowly. Kettles whistle.');
    expect(page.vocab).toEqual(terms('Leaves steep slowly. Kettles whistle.'));
    expect(pageIds(page).map((ids) => [...ids])).toEqual([[0, 1, 2], [3, 4]]);
  });

  it('reads pages right after it has met more words than it keeps', () => {
    // Seventy thousand different words, a thousand a page: past the table's bound, it starts again.
    for (let p = 0; p < 70; p++) analyse(Array.from({ length: 1000 }, (_, i) => `Word${p}x${i}`).join(' ') + '.');
    const page = analyse('Kettles boil water. Word3x7 kettles again.');
    expect(pageIds(page).map((ids) => Array.from(ids, (id) => page.vocab[id]))).toEqual([terms('Kettles boil water.'), terms('Word3x7 kettles again.')]);
  });
});
