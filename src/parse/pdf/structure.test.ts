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
