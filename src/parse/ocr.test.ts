import { afterAll, describe, expect, it } from 'vitest';
import { closeDocumentBrowser, htmlToPng } from '../../test/helpers/documents.js';
import { findChromium } from '../scrape/engines/browser/chromium.js';
import { fromTsv, nativeTesseract, Ocr } from './ocr.js';

const header = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';

describe('tesseract TSV', () => {
  it('gives one run per word on its line, sized from the line box, with confidences', () => {
    const tsv = [header, '1\t1\t0\t0\t0\t0\t0\t0\t800\t600\t-1\t', '4\t1\t1\t1\t1\t0\t40\t100\t300\t40\t-1\t', '5\t1\t1\t1\t1\t1\t40\t104\t120\t30\t96.5\ttest_index', '5\t1\t1\t1\t1\t2\t170\t104\t60\t30\t91\tON', ''].join('\n');
    const r = fromTsv(tsv);
    expect(r.runs).toEqual([
      { text: 'test_index', x: 40, w: 120, baseline: 132, size: 30, conf: 0.965 },
      { text: 'ON', x: 170, w: 60, baseline: 132, size: 30, conf: 0.91 },
    ]);
    expect(r.text).toBe('test_index ON');
    expect(r.confidence).toBeCloseTo(0.9375);
  });
});

const native = await nativeTesseract();

describe.skipIf(!native || !findChromium(process.env.CHROMIUM_PATH))('OCR with the tesseract command line', () => {
  const ocr = new Ocr();
  afterAll(async () => {
    await ocr.close();
    await closeDocumentBrowser();
  });

  it('keeps underscores and punctuation of code in a scan', async () => {
    const png = await htmlToPng('<pre style="font-size:20px;padding:20px">CREATE INDEX test_index ON films (title_id);\nSELECT max_rows FROM pg_stats;</pre>', 900);
    const r = await ocr.recognize(png, Date.now() + 60_000);
    expect(r.text).toContain('test_index');
    expect(r.text).toContain('(title_id);');
    expect(r.text).toContain('max_rows');
  });
});
