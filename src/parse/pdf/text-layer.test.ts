/**
 * When a page's operator list is built: only where its font weights or ruling lines can change
 * the result. Each PDF is printed by Chromium from small HTML made here.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { closeDocumentBrowser, htmlToPdf } from '../../../test/helpers/documents.js';
import { findChromium } from '../../scrape/engines/browser/chromium.js';
import { getDocument } from './pdfjs.js';
import { readTextLayer, type FontWeights } from './text-layer.js';

/** Reads every page in order, as the parser does; says which pages built an operator list and how many rules each has. */
async function drawn(html: string) {
  const doc = await getDocument({ data: new Uint8Array(await htmlToPdf(html)), verbosity: 0, isEvalSupported: false }).promise;
  try {
    const weights: FontWeights = new Map();
    const out: { listed: boolean; rules: number; bold: string[] }[] = [];
    let after = false;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const spy = vi.spyOn(page, 'getOperatorList');
      const layer = await readTextLayer(page, weights, after);
      after = layer.ruledToEnd;
      out.push({ listed: spy.mock.calls.length > 0, rules: layer.rules.length, bold: layer.runs.filter((r) => r.bold).map((r) => r.text) });
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

const prose = (n: number) => `<p>${'The storage report lists every barn and granary along the river, with its stock and its repairs. '.repeat(n)}</p>`;

describe.skipIf(!findChromium(process.env.CHROMIUM_PATH))('PDF text layer: operator lists', () => {
  afterAll(closeDocumentBrowser);

  it('builds none for pages of prose and large headings', async () => {
    const pages = await drawn(`<h1>Storage Review</h1>${prose(4)}<h2 style="break-before:page">Holdings</h2>${prose(4)}`);
    expect(pages.map((p) => p.listed)).toEqual([false, false]);
  });

  it('builds one where a line may be bold at body size, once per font', async () => {
    const pages = await drawn(`<h1>Storage Review</h1>${prose(2)}<h4>Counting the stock</h4>${prose(2)}<h4 style="break-before:page">Repairs</h4>${prose(2)}`);
    expect(pages.map((p) => p.listed)).toEqual([true, false]);
    expect(pages.map((p) => p.bold)).toEqual([['Storage Review', 'Counting the stock'], ['Repairs']]);
  });

  it('builds one where a table is captioned, and on the next page when its rules ran to the end', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => `<tr><td>Row ${i + 1} of the stock list, one line of text</td></tr>`).join('');
    const pages = await drawn(`${prose(1)}<p>Table 1. Stock</p><table border="1" style="width:80%">${rows}</table>${prose(1)}`);
    expect(pages.map((p) => p.listed)).toEqual([true, true]);
    expect(pages.every((p) => p.rules > 0)).toBe(true);
  });
});
