/**
 * A long PDF is read on the thread that answers requests: between its pages the event loop gets
 * a turn, so a request that arrives meanwhile is not kept waiting for the whole document.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeDocumentBrowser, htmlToPdf } from '../../../test/helpers/documents.js';
import { findChromium } from '../../scrape/engines/browser/chromium.js';
import { Ocr } from '../ocr.js';
import { DEFAULT_PDF } from '../parsers.js';
import { parsePdf } from './index.js';

const ocr = new Ocr();
const PAGES = 12;

describe.skipIf(!findChromium(process.env.CHROMIUM_PATH))('reading a long PDF', () => {
  afterAll(async () => {
    await closeDocumentBrowser();
    await ocr.close();
  });

  it('gives the event loop a turn for every page read and every page laid out', async () => {
    const html = Array.from({ length: PAGES }, (_, i) => `<section style="break-after: page"><h2>Part ${i + 1}</h2><p>Kettles whistle when the water boils, part ${i + 1}.</p></section>`).join('');
    const pdf = await htmlToPdf(html);
    // Counts the event loop's turns while the document is read, as a waiting request would see them.
    let turns = 0;
    let reading = true;
    const count = () => {
      turns++;
      if (reading) setImmediate(count);
    };
    setImmediate(count);
    const result = await parsePdf(pdf, { ...DEFAULT_PDF, mode: 'auto' }, ocr, Date.now() + 60_000);
    reading = false;
    expect(result.pages).toHaveLength(PAGES);
    expect(turns).toBeGreaterThanOrEqual(2 * PAGES);
  });
});
