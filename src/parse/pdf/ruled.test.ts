/**
 * Tables drawn with ruling lines, one kind per rule: each PDF is printed by Chromium from small
 * HTML made here and read back through the parser in `auto` mode.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeDocumentBrowser, htmlToPdf } from '../../../test/helpers/documents.js';
import { findChromium } from '../../scrape/engines/browser/chromium.js';
import { Ocr } from '../ocr.js';
import { DEFAULT_PDF } from '../parsers.js';
import { parsePdf } from './index.js';

const ocr = new Ocr();

async function tables(html: string) {
  const result = await parsePdf(await htmlToPdf(html), { ...DEFAULT_PDF, mode: 'auto' }, ocr, Date.now() + 60_000);
  const blocks = result.pages.flatMap((p) => p.blocks);
  return { blocks, rows: blocks.flatMap((b) => (b.block.kind === 'table' ? [b.block.rows] : [])) };
}

const intro = '<p>The storage report lists every barn and granary along the river, with its stock and its repairs.</p>';
const outro = '<p>Each figure was counted twice, once in spring and once after the harvest was brought in.</p>';
const boxed = '<style>table{border-collapse:separate;border:1px solid #444} td,th{border:1px solid #444;padding:2px 6px;vertical-align:top}</style>';

describe.skipIf(!findChromium(process.env.CHROMIUM_PATH))('PDF tables drawn with rules', () => {
  afterAll(async () => {
    await closeDocumentBrowser();
    await ocr.close();
  });

  it('keeps a one-column boxed table with several lines per cell as one row per cell', async () => {
    const html = `${boxed}${intro}<table style="width:60%"><tr><th>Operator<br>Description<br>Example</th></tr>
<tr><td>numeric + numeric<br>Addition of two numbers<br>2 + 3 gives 5</td></tr>
<tr><td>numeric - numeric<br>Subtraction<br>2 - 3 gives -1</td></tr></table>${outro}`;
    const { rows, blocks } = await tables(html);
    expect(rows).toEqual([[['Operator Description Example'], ['numeric + numeric Addition of two numbers 2 + 3 gives 5'], ['numeric - numeric Subtraction 2 - 3 gives -1']]]);
    expect(blocks.map((b) => b.type)).toEqual(['text', 'table', 'text']);
  });

  it('reads spanning header cells as the source table has them, one cell each', async () => {
    const html = `${boxed}${intro}<table><tr><th rowspan="2">Command</th><th>Select policy</th><th colspan="2">Update policy</th></tr>
<tr><th>Using</th><th>Using</th><th>Check</th></tr>
<tr><td>SELECT</td><td>Filter row</td><td>none</td><td>none</td></tr>
<tr><td>UPDATE</td><td>Filter row</td><td>Filter row</td><td>Check new row</td></tr></table>${outro}`;
    const { rows } = await tables(html);
    expect(rows).toEqual([
      [
        ['Command', 'Select policy', 'Update policy'],
        ['Using', 'Using', 'Check'],
        ['SELECT', 'Filter row', 'none', 'none'],
        ['UPDATE', 'Filter row', 'Filter row', 'Check new row'],
      ],
    ]);
  });

  it('takes the header row above the first rule of a table ruled under each row, columns by alignment', async () => {
    const html = `<style>td,th{border-bottom:1px solid #999;padding:3px 10px;text-align:left;vertical-align:top}</style>${intro}
<table style="width:100%"><tr><th>Setting</th><th>Default</th><th style="width:55%">Meaning</th></tr>
<tr><td>max_rows</td><td>2047</td><td>The largest number of rows one export may write before it stops and reports the rest as skipped</td></tr>
<tr><td>stop_words</td><td>english</td><td>Words left out of the index</td></tr></table>${outro}`;
    const { rows } = await tables(html);
    expect(rows).toEqual([
      [
        ['Setting', 'Default', 'Meaning'],
        ['max_rows', '2047', 'The largest number of rows one export may write before it stops and reports the rest as skipped'],
        ['stop_words', 'english', 'Words left out of the index'],
      ],
    ]);
  });

  it('keeps the text on either side of a drawn border in separate cells, however close', async () => {
    const html = `<style>table{border-collapse:collapse} td,th{border:1px solid #444;padding:0 1px}</style>${intro}
<table><tr><th>Name</th><th>Storage Size</th><th>Description</th></tr><tr><td>boolean</td><td>1 byte</td><td>state of true or false</td></tr></table>${outro}`;
    const { rows } = await tables(html);
    expect(rows).toEqual([
      [
        ['Name', 'Storage Size', 'Description'],
        ['boolean', '1 byte', 'state of true or false'],
      ],
    ]);
  });

  it('does not make a table of two separate rules around a paragraph', async () => {
    const { rows, blocks } = await tables(`${intro}<hr>${outro}<hr>${intro}`);
    expect(rows).toEqual([]);
    expect(blocks.every((b) => b.type === 'text')).toBe(true);
  });
});
