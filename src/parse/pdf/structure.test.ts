/**
 * Structure kept from generated PDFs, one kind of document per rule: each PDF is printed by
 * Chromium from small HTML made here, and read back through the parser in `auto` mode.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeDocumentBrowser, htmlToPdf } from '../../../test/helpers/documents.js';
import { findChromium } from '../../scrape/engines/browser/chromium.js';
import { blocksMarkdown } from '../blocks.js';
import { Ocr } from '../ocr.js';
import { DEFAULT_PDF } from '../parsers.js';
import { parsePdf } from './index.js';

const ocr = new Ocr();

async function parse(html: string) {
  const result = await parsePdf(await htmlToPdf(html), { ...DEFAULT_PDF, mode: 'auto' }, ocr, Date.now() + 60_000);
  const blocks = result.pages.flatMap((p) => p.blocks);
  return { blocks, markdown: blocksMarkdown(blocks.map((b) => b.block)) };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

describe.skipIf(!findChromium(process.env.CHROMIUM_PATH))('PDF structure', () => {
  afterAll(async () => {
    await closeDocumentBrowser();
    await ocr.close();
  });

  describe('code', () => {
    const program = ['def count_rows(table_state, max_rows):', '    n_rows = 0', '    for row in table_state:', '        n_rows += 1', '    return n_rows'];

    it('fences lines set in a monospaced font, keeping indentation and underscores', async () => {
      const { blocks, markdown } = await parse(`<p>The helper counts rows before the export starts.</p><pre>${esc(program.join('\n'))}</pre><p>It stops at the limit.</p>`);
      expect(markdown).toContain('```\n' + program.join('\n') + '\n```');
      expect(blocks.map((b) => b.type)).toEqual(['text', 'code', 'text']);
    });

    it('keeps aligned monospaced output as code, not as a table', async () => {
      const output = [' id |   alias   |   description', '----+-----------+------------------', '  1 | asciiword | Word, all ASCII', '  2 | word      | Word, all letters'];
      const { blocks, markdown } = await parse(`<p>The parser reports these token types.</p><pre>${esc(output.join('\n'))}</pre>`);
      expect(blocks.map((b) => b.type)).toEqual(['text', 'code']);
      expect(markdown).toContain(output.map((l) => l.trimEnd()).join('\n'));
    });

    it('leaves inline code inside a sentence in its paragraph', async () => {
      const { blocks, markdown } = await parse('<p>Set <code>max_rows</code> to limit the export, or leave it unset for all rows.</p>');
      expect(blocks.map((b) => b.type)).toEqual(['text']);
      expect(markdown).toContain('Set max_rows to limit the export');
    });
  });
});

describe.skipIf(!findChromium(process.env.CHROMIUM_PATH))('PDF structure: headings and tables', () => {
  afterAll(async () => {
    await closeDocumentBrowser();
    await ocr.close();
  });

  const body = (n: number) => `<p>${'The storage report lists every barn and granary along the river, with its stock and its repairs. '.repeat(n)}</p>`;

  it('reads a bold line at body size standing apart as a section header, a bold phrase inside a paragraph not', async () => {
    const html = `<style>h3{font-size:1em}</style><h1>Storage Review</h1>${body(3)}<h3>2.1 Counting the stock</h3>${body(2)}<p>${'Word '.repeat(30)}<b>a bold phrase long enough to fill most of one printed line</b> and more words after it.</p>`;
    const { blocks, markdown } = await parse(html);
    expect(markdown).toContain('\n### 2.1 Counting the stock\n');
    expect(blocks.filter((b) => b.type === 'section_header' || b.type === 'title').map((b) => (b.block as { text: string }).text)).toEqual(['Storage Review', '2.1 Counting the stock']);
  });

  it('does not read bold labels stacked in a header cell, or a centred bold header, as headings', async () => {
    const html = `<h1>Functions</h1>${body(2)}<table style="width:100%"><tr><th>Operator<br><br>Description<br><br>Example</th></tr><tr><td>numeric + numeric</td></tr><tr><td>Addition of two numbers</td></tr></table>
<table style="width:100%"><tr><th style="text-align:center">Command</th></tr><tr><td>SELECT reads rows from the table that the policy covers</td></tr></table>${body(1)}`;
    const { blocks } = await parse(html);
    expect(blocks.filter((b) => b.type === 'section_header').map((b) => (b.block as { text: string }).text)).toEqual([]);
  });

  it('keeps a paragraph set in large type as text, not as a run of headings', async () => {
    const { blocks } = await parse(`<h1>Review</h1>${body(2)}<p style="font-size:1.5em">${'A lead paragraph set large runs over several lines of the page before the body starts. '.repeat(4)}</p>${body(2)}`);
    expect(blocks.filter((b) => b.type === 'section_header').length).toBe(0);
  });

  it('reads a table whose header cells wrap as one header row, rows and columns aligned', async () => {
    const html = `<style>td,th{border:1px solid #444;padding:3px 8px;vertical-align:top} table{border-collapse:collapse}</style>${body(1)}
<table><tr><th style="width:90px">Storage location name</th><th style="width:80px">Capacity in tonnes</th><th>Remarks</th></tr>
<tr><td>North barn</td><td>1200</td><td>Roof repaired in March</td></tr>
<tr><td>River granary</td><td>860</td><td>Damp in the east bay</td></tr></table>${body(1)}`;
    const { blocks } = await parse(html);
    const table = blocks.find((b) => b.type === 'table')!;
    expect(table.block).toEqual({
      kind: 'table',
      rows: [
        ['Storage location name', 'Capacity in tonnes', 'Remarks'],
        ['North barn', '1200', 'Roof repaired in March'],
        ['River granary', '860', 'Damp in the east bay'],
      ],
    });
  });

  it('reads cells that wrap inside a row, centred vertically, as one cell of that row', async () => {
    const html = `<style>td{border:1px solid #444;padding:2px 6px;vertical-align:middle} table{border-collapse:collapse}</style>${body(1)}
<table><tr><td>smallint</td><td style="width:90px">typical choice for integer values</td><td>2 bytes</td></tr>
<tr><td>bigint</td><td>large range</td><td>8 bytes</td></tr></table>`;
    const { blocks } = await parse(html);
    expect(blocks.find((b) => b.type === 'table')?.block).toEqual({
      kind: 'table',
      rows: [
        ['smallint', 'typical choice for integer values', '2 bytes'],
        ['bigint', 'large range', '8 bytes'],
      ],
    });
  });
});
