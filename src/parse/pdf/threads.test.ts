/**
 * Page threads change how fast a long PDF is read, never what comes out of it: the same pages,
 * blocks and markdown as reading every page on the request's thread.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeDocumentBrowser, htmlToPdf } from '../../../test/helpers/documents.js';
import { findChromium } from '../../scrape/engines/browser/chromium.js';
import { Ocr } from '../ocr.js';
import { DEFAULT_PDF } from '../parsers.js';
import { parsePdf } from './index.js';
import { PdfThreads } from './threads.js';

const ocr = new Ocr();
const threads = new PdfThreads(2);
const settings = { ...DEFAULT_PDF, mode: 'auto' as const };

const para = (n: number) => `<p>Paragraph ${n} of the storage report describes the barns, the granary and the mill in plain words.</p>`;
const code = (n: number) => `<pre>${Array.from({ length: 12 }, (_, i) => `store_sample(parcel_${n}, depth=${i})`).join('\n')}</pre>`;
const page = (n: number, body: string) => `<div style="break-before:page"><h1>Chapter ${n}</h1>${body}</div>`;
const rows = Array.from({ length: 70 }, (_, i) => `<tr><td>Barn ${i}</td><td>${100 + i}</td><td>Checked in spring</td></tr>`).join('');

/**
 * Eight pages: a heading set bold at body size on a page of prose, another on a page of code in a
 * later run of pages, and a ruled table over a page break.
 */
const html = `<style>body{font-family:"Liberation Serif",serif;font-size:14px} h3{font-size:14px;font-weight:bold}
  pre{font-family:"Liberation Mono",monospace;font-size:11px} table{border-collapse:collapse} td{border:1px solid #444;padding:2px 6px}</style>
  ${page(1, para(1) + code(1))}
  ${page(2, `<h3>Counting the stock</h3>${para(2)}${para(3)}${para(4)}`)}
  ${page(3, `${para(3)}<table>${rows}</table>`)}
  ${page(4, `<h3>Sampling</h3>${code(4)}${para(4)}${code(5)}`)}
  ${page(5, para(5))}
  ${page(6, `${para(6)}<h3>Drainage</h3>${code(6)}${code(7)}`)}
  ${page(7, para(7))}`;

describe.skipIf(!findChromium(process.env.CHROMIUM_PATH))('PDF page threads', () => {
  afterAll(async () => {
    await closeDocumentBrowser();
    await Promise.all([ocr.close(), threads.close()]);
  });

  it('read a long document into the same pages and blocks as one thread does', async () => {
    const pdf = await htmlToPdf(html);
    const alone = await parsePdf(pdf, settings, ocr, Date.now() + 60_000);
    const shared = await parsePdf(pdf, settings, ocr, Date.now() + 60_000, threads);
    expect(alone.numPages).toBeGreaterThanOrEqual(2 * 3);
    expect(shared).toEqual(alone);
    const headers = shared.pages.flatMap((p) => p.blocks.filter((b) => b.type === 'section_header').map((b) => b.block));
    expect(JSON.stringify(headers)).toContain('Drainage');
  });

  it('read on the request thread the pages of a thread that fails', async () => {
    const pdf = await htmlToPdf(html);
    const failing = { size: 2, read: () => Promise.reject(new Error('thread lost')) } as unknown as PdfThreads;
    const alone = await parsePdf(pdf, settings, ocr, Date.now() + 60_000);
    expect(await parsePdf(pdf, settings, ocr, Date.now() + 60_000, failing)).toEqual(alone);
  });
});
