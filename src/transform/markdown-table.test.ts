/**
 * Tables whose cells hold blocks: a reference manual's function table (a signature paragraph and
 * a description paragraph in every cell), a two-column table of names and explanations. A GFM
 * cell is one line; its blocks are parted by `<br>`, which a GFM reader shows as a line break.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { toMarkdown } from './extract.js';

const BASE = 'https://example.com/manual/functions.html';
const md = (html: string) => toMarkdown(html, BASE);
const gfm = new MarkdownIt({ html: true });

const FUNCTION_TABLE =
  '<table><thead><tr><th><p>Function</p><p>Description</p></th></tr></thead><tbody>' +
  '<tr><td><p><code>text</code> <code>||</code> <code>text</code> → <code>text</code></p><p>Joins two strings.</p></td></tr>' +
  '<tr><td><p><code>upper</code> ( <code>text</code> ) → <code>text</code></p><p>Converts to upper case.</p></td></tr>' +
  '</tbody></table>';

describe('table cells holding blocks', () => {
  it('keeps every paragraph of a cell, parted by <br>', () => {
    expect(md(FUNCTION_TABLE)).toBe(
      '| Function<br>Description |\n| --- |\n' +
        '| `text` `\\|\\|` `text` → `text`<br>Joins two strings. |\n' +
        '| `upper` ( `text` ) → `text`<br>Converts to upper case. |',
    );
  });

  it('reads back as one table whose cells break where the paragraphs did', () => {
    const html = gfm.render(md(FUNCTION_TABLE));
    expect(html).toContain('<th>Function<br>Description</th>');
    expect(html).toContain('<td><code>text</code> <code>||</code> <code>text</code> → <code>text</code><br>Joins two strings.</td>');
    expect(html.match(/<tr>/g)).toHaveLength(3);
  });

  it('keeps the second column of a two-column table, every paragraph of it', () => {
    const html =
      '<table><tr><th>Name</th><th>Meaning</th></tr>' +
      '<tr><td><code>ALL</code></td><td><p>Every row.</p><p>Duplicates are kept.</p></td></tr>' +
      '<tr><td><code>DISTINCT</code></td><td><div><p>One row per value.</p></div></td></tr></table>';
    expect(md(html)).toBe(
      '| Name | Meaning |\n| --- | --- |\n| `ALL` | Every row.<br>Duplicates are kept. |\n| `DISTINCT` | One row per value. |',
    );
  });

  it('parts list items, headings, line breaks and nested rows of a cell the same way', () => {
    const html =
      '<table><tr><th>Option</th><th>Values</th></tr><tr><td><h4>mode</h4>set once</td>' +
      '<td><ul><li>fast</li><li>safe</li></ul>or<br>none</td></tr>' +
      '<tr><td>pairs</td><td><table><tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr></table></td></tr></table>';
    expect(md(html)).toBe(
      '| Option | Values |\n| --- | --- |\n| mode<br>set once | fast<br>safe<br>or<br>none |\n| pairs | a 1<br>b 2 |',
    );
  });

  it('breaks before a paragraph that opens with code, as before any other', () => {
    const html = '<table><tr><td><p>Joins two strings.</p>\n <p><code>\'a\' || \'b\'</code> → <code>ab</code></p></td></tr></table>';
    expect(md(html)).toBe("| Joins two strings.<br>`'a' \\|\\| 'b'` → `ab` |\n| --- |");
  });

  it('writes a block inside code in a cell as a space: a code span is one line', () => {
    expect(md('<table><tr><td><code><p>a</p><p>b</p></code></td></tr></table>')).toBe('| `a b` |\n| --- |');
  });

  it('adds no break before a cell\'s first block nor after its last', () => {
    expect(md('<table><tr><td><p>one</p></td><td><div><p>two</p></div> </td></tr></table>')).toBe('| one | two |\n| --- | --- |');
  });
});
