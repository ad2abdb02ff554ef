import { afterAll, describe, expect, it } from 'vitest';
import { closeDocumentBrowser, htmlToPdf } from '../../../test/helpers/documents.js';
import { findChromium } from '../../scrape/engines/browser/chromium.js';

// Taken before anything loads pdf.js: core-js dresses its replacements up as native code, so
// only identity tells them apart.
const natives = () => [JSON.parse, JSON.stringify, Array.prototype.push, Function.prototype.toString];
const before = natives();

describe.skipIf(!findChromium(process.env.CHROMIUM_PATH))('pdf.js in this process', () => {
  afterAll(closeDocumentBrowser);

  it('leaves JSON, Array.prototype.push and Function.prototype.toString native, also after a PDF is read', async () => {
    const { parsePdf } = await import('./index.js');
    const { blocksMarkdown } = await import('../blocks.js');
    const { Ocr } = await import('../ocr.js');
    expect(natives()).toEqual(before);
    const pdf = await htmlToPdf('<h1>Native</h1><p>Built-ins stay as Node made them.</p>');
    const ocr = new Ocr();
    try {
      const r = await parsePdf(pdf, { mode: 'fast', maxPages: undefined, pages: false, blocks: false, pageMarkers: false }, ocr, Date.now() + 30_000);
      expect(blocksMarkdown(r.pages[0]!.blocks.map((b) => b.block))).toContain('Built-ins stay as Node made them.');
    } finally {
      await ocr.close();
    }
    expect(natives()).toEqual(before);
  });
});
