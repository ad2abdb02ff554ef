/**
 * Parsing files into markdown through the official SDK: uploads to POST /v2/parse, and scrapes of
 * fixture-site URLs that serve documents. Runs on the embedded store, and again on PostgreSQL and
 * Redis when DATABASE_URL and REDIS_URL are set.
 */
import { randomBytes } from 'node:crypto';
import Firecrawl, { type Document, type ScrapeOptions } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDocumentAt } from '../fixture-site/documents.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { closeDocumentBrowser, htmlToPdf, makeDocumentSet, PPTX_SLIDES, SCAN, type DocumentSet } from '../helpers/documents.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

const distributed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const modes = [{ name: 'embedded', embedded: true }, ...(distributed ? [{ name: 'distributed', embedded: false }] : [])];

const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

let docs: DocumentSet;
let site: FixtureSite;

beforeAll(async () => {
  docs = await makeDocumentSet();
  await closeDocumentBrowser();
  site = await startFixtureSite();
  serveDocumentAt('/docs/report.pdf', docs.reportPdf, PDF);
  // Served with a generic type on purpose: the kind must come from the bytes.
  serveDocumentAt('/docs/handbook', docs.docx, 'application/octet-stream');
  serveDocumentAt('/docs/inventory.xlsx', docs.xlsx, XLSX);
  serveDocumentAt('/docs/deck.pptx', docs.pptx, PPTX);
  serveDocumentAt('/docs/scan.png', docs.scanPng, 'image/png');
  serveDocumentAt('/docs/prices.csv', Buffer.from('fruit,price\napple,"1,20"\npear,0.80\n'), 'text/csv');
}, 120_000);
afterAll(async () => {
  await site?.close();
});

type PdfDoc = Document & { blocks?: NonNullable<Document['blocks']> };

/** The words OCR must find, compared case-insensitively (OCR may miss punctuation). */
const words = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];

describe.each(modes)('parse ($name)', ({ embedded }) => {
  let gleaner: TestGleaner;
  let fc: Firecrawl;

  beforeAll(async () => {
    gleaner = await startGleaner({ embedded, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
  });

  const upload = (data: Buffer | string, filename: string, options?: Parameters<Firecrawl['parse']>[1], contentType?: string) =>
    fc.parse({ data, filename, ...(contentType ? { contentType } : {}) }, options) as Promise<PdfDoc>;

  describe('PDF uploads', () => {
    it('turns the text layer into markdown with headings, lists and tables, billed per page', async () => {
      const doc = await upload(docs.reportPdf, 'report.pdf');
      expect(doc.markdown).toMatch(/^# Harvest Report\n/);
      expect(doc.markdown).toContain('## Highlights');
      expect(doc.markdown).toContain('- Wheat yields rose by a fifth\n- Barley held steady');
      expect(doc.markdown).toMatch(/\| Crop \| Tonnes \| Fields \|\n\| --- \| --- \| --- \|\n\| Wheat \| 120 \| Seven \|/);
      expect(doc.markdown).toContain('Next season the orchard gets new apple trees along the river.');
      expect(doc.metadata?.numPages).toBe(3);
      expect(doc.metadata?.creditsUsed).toBe(3);
      expect(doc.metadata?.title).toBe('Harvest Report');
      expect(doc.metadata?.contentType).toBe(PDF);
      expect(doc.pages).toBeUndefined();
      expect(doc.blocks).toBeUndefined();
    });

    it('reads two-column pages column by column', async () => {
      const md = (await upload(docs.twoColumnPdf, 'columns.pdf')).markdown!;
      const at = (w: string) => md.indexOf(w);
      expect(at('# Field Notes')).toBe(0);
      for (const w of ['LEFTSTART', 'LEFTEND', 'RIGHTSTART', 'RIGHTEND']) expect(at(w), w).toBeGreaterThan(0);
      expect(at('LEFTSTART')).toBeLessThan(at('LEFTEND'));
      expect(at('LEFTEND')).toBeLessThan(at('RIGHTSTART'));
      expect(at('RIGHTSTART')).toBeLessThan(at('RIGHTEND'));
    });

    it('stops after maxPages and bills only the pages parsed', async () => {
      const doc = await upload(docs.reportPdf, 'report.pdf', { parsers: [{ type: 'pdf', maxPages: 1 }] });
      expect(doc.markdown).toContain('Harvest Report');
      expect(doc.markdown).not.toContain('Outlook');
      expect(doc.metadata?.numPages).toBe(3);
      expect(doc.metadata?.creditsUsed).toBe(1);
    });

    it('returns per-page markdown with pages: true', async () => {
      const doc = await upload(docs.reportPdf, 'report.pdf', { parsers: [{ type: 'pdf', pages: true }] });
      expect(doc.pages?.map((p) => p.pageNumber)).toEqual([1, 2, 3]);
      expect(doc.pages?.[0]?.markdown).toMatch(/^# Harvest Report/);
      expect(doc.pages?.[1]?.markdown).toBe('## Outlook\n\nNext season the orchard gets new apple trees along the river.');
      expect(doc.pages?.[2]?.markdown).toContain('Storage inspections');
    });

    it('accepts pageMarkdown, the older name of pages', async () => {
      const doc = await upload(docs.reportPdf, 'report.pdf', { parsers: [{ type: 'pdf', pageMarkdown: true }] });
      expect(doc.pages).toHaveLength(3);
    });

    it('separates pages with page markers between pages only', async () => {
      const doc = await upload(docs.reportPdf, 'report.pdf', { parsers: [{ type: 'pdf', pageMarkers: true }] });
      expect(doc.markdown).toContain('\n\n---\n\n<!-- page 2 -->\n\n## Outlook');
      expect(doc.markdown).toContain('\n\n---\n\n<!-- page 3 -->\n\n## Appendix');
      expect(doc.markdown).not.toContain('<!-- page 1 -->');
      expect(doc.markdown).toMatch(/^# Harvest Report/);
    });

    it('keeps code as a fenced block typed code, with its bounding box', async () => {
      const code = ['CREATE INDEX test_index ON films (title_id);', 'SELECT count(*) FROM films;'];
      const pdf = await htmlToPdf(`<h2>Indexes</h2><p>An index speeds up lookups by title.</p><pre>${code.join('\n')}</pre>`);
      await closeDocumentBrowser();
      const doc = await upload(pdf, 'code.pdf', { parsers: [{ type: 'pdf', blocks: true }] });
      expect(doc.markdown).toContain('```\n' + code.join('\n') + '\n```');
      const items = doc.blocks![0]!.items;
      expect(items.map((i) => i.type)).toEqual(['title', 'text', 'code']);
      expect(items[2]!.bbox).toHaveLength(4);
    });

    it('describes the layout as typed blocks whose spans point into the markdown', async () => {
      const doc = await upload(docs.reportPdf, 'report.pdf', { parsers: [{ type: 'pdf', blocks: true, pageMarkers: true }] });
      expect(doc.blocks?.map((b) => b.pageNumber)).toEqual([1, 2, 3]);
      const first = doc.blocks![0]!;
      expect(first.status).toBe('ok');
      expect(first.width).toBeCloseTo(595.92, 0);
      expect(first.height).toBeCloseTo(842.88, 0);
      expect(first.items.map((i) => i.type)).toEqual(['title', 'text', 'section_header', 'list_item', 'list_item', 'list_item', 'section_header', 'table']);
      first.items.forEach((item, n) => {
        expect(item.readingOrder).toBe(n);
        expect(item.source).toBe('text_layer');
        expect(item.confidence).toEqual({ layout: null, ocr: null });
        const [x0, y0, x1, y1] = item.bbox!;
        expect(0 <= x0 && x0 < x1 && x1 <= 1 && 0 <= y0 && y0 < y1 && y1 <= 1, JSON.stringify(item.bbox)).toBe(true);
        const [start, end] = item.markdownSpan!;
        expect(doc.markdown!.slice(start, end)).toBe(item.content);
      });
      // Top to bottom: each block starts below the one before.
      const tops = first.items.map((i) => i.bbox![1]);
      expect([...tops].sort((a, b) => a - b)).toEqual(tops);
      expect(first.items[0]!.content).toBe('# Harvest Report');
      expect(first.items[2]!.label).toBe('h2');
      const outlook = doc.blocks![1]!.items[0]!;
      expect(doc.markdown!.slice(...outlook.markdownSpan!)).toBe('## Outlook');
    });

    it('finds no text in a scan in fast mode, OCRs it in auto mode', async () => {
      const fast = await upload(docs.scannedPdf, 'scan.pdf', { parsers: [{ type: 'pdf', mode: 'fast', blocks: true }] });
      expect(fast.markdown).toBe('');
      expect(fast.blocks?.map((b) => b.status)).toEqual(['empty', 'empty']);
      expect(fast.metadata?.creditsUsed).toBe(2);

      const auto = await upload(docs.scannedPdf, 'scan.pdf', { parsers: [{ type: 'pdf', blocks: true }] });
      expect(words(auto.markdown!)).toEqual(expect.arrayContaining([...words(SCAN.lines[0]!), ...words(SCAN.lines[1]!), 'pumpkins']));
      expect(auto.markdown).toMatch(/^# Invoice Number 4711/);
      const items = auto.blocks!.flatMap((b) => b.items);
      expect(items.every((i) => i.source === 'ocr')).toBe(true);
      expect(items.every((i) => typeof i.confidence.ocr === 'number' && i.confidence.ocr > 0.5)).toBe(true);
    });

    it('OCRs every page in ocr mode, even ones with a text layer', async () => {
      const doc = await upload(docs.reportPdf, 'report.pdf', { parsers: [{ type: 'pdf', mode: 'ocr', maxPages: 2, blocks: true }] });
      expect(doc.markdown).toMatch(/^# Harvest Report/);
      expect(words(doc.markdown!)).toEqual(expect.arrayContaining(['plentiful', 'barns', 'orchard', 'river']));
      expect(doc.blocks!.flatMap((b) => b.items).every((i) => i.source === 'ocr')).toBe(true);
      expect(doc.metadata?.creditsUsed).toBe(2);
    });

    it('returns the PDF base64-encoded for a flat credit when parsers is empty', async () => {
      const doc = await upload(docs.reportPdf, 'report.pdf', { parsers: [] });
      expect(doc.markdown).toBe(docs.reportPdf.toString('base64'));
      expect(doc.metadata?.creditsUsed).toBe(1);
    });
  });

  describe('other formats', () => {
    it('parses DOCX headings, lists and tables', async () => {
      const doc = await upload(docs.docx, 'handbook.docx', { formats: ['markdown', 'html'] });
      expect(doc.markdown).toContain('# Mill Handbook');
      expect(doc.markdown).toContain('## Safety');
      expect(doc.markdown).toMatch(/- Keep hands clear of the hopper\n- Stop the wheel before cleaning/);
      expect(doc.markdown).toMatch(/\|\s*Grain\s*\|\s*Sacks\s*\|/);
      expect(doc.html).toContain('<h1>Mill Handbook</h1>');
      expect(doc.metadata?.creditsUsed).toBe(1);
      expect(doc.metadata?.contentType).toBe(DOCX);
    });

    it('turns each XLSX sheet into a table under its name', async () => {
      const doc = await upload(docs.xlsx, 'inventory.xlsx');
      expect(doc.markdown).toBe(
        '## Inventory\n\n| Item | Count | Price |\n| --- | --- | --- |\n| Apples | 12 | 0.5 |\n| Pears | 7 | 0.75 |\n\n' +
          '## Staff\n\n| Name | Role |\n| --- | --- |\n| Ada | Farmer |\n| Grace | Miller |',
      );
    });

    it('reads PPTX slides in presentation order with their notes', async () => {
      const doc = await upload(docs.pptx, 'deck.pptx');
      const md = doc.markdown!;
      expect(md.indexOf(`## ${PPTX_SLIDES[0]!.title}`)).toBe(0);
      expect(md.indexOf(`## ${PPTX_SLIDES[1]!.title}`)).toBeGreaterThan(md.indexOf('Check the drill'));
      expect(md).toContain('- Order seed by March\n- Check the drill');
      expect(md).toContain('### Notes\n\nRemind everyone about the seed order');
      expect(doc.metadata?.numPages).toBe(2);
    });

    it('converts an HTML upload with the page transform, for one credit', async () => {
      const html = '<html><head><title>Uploaded page</title></head><body><nav>Menu</nav><main><h1>Uploaded</h1><p>Some uploaded content here.</p></main></body></html>';
      const doc = await upload(html, 'page.html');
      expect(doc.markdown).toContain('# Uploaded');
      expect(doc.markdown).toContain('Some uploaded content here.');
      expect(doc.metadata?.title).toBe('Uploaded page');
      expect(doc.metadata?.creditsUsed).toBe(1);
    });

    it('recognises HTML by its content even when labelled plain text', async () => {
      const doc = await upload('<!doctype html><html><body><h2>Sniffed</h2><p>Body text.</p></body></html>', 'upload.bin');
      expect(doc.markdown).toContain('## Sniffed');
    });

    it('passes plain text and markdown through', async () => {
      const text = await upload('First line.\r\nSecond line.', 'notes.txt');
      expect(text.markdown).toBe('First line.\nSecond line.');
      const md = await upload('# Title\n\n- a\n- b\n', 'readme.md', undefined, 'text/markdown');
      expect(md.markdown).toBe('# Title\n\n- a\n- b');
      expect(md.metadata?.contentType).toBe('text/markdown');
    });

    it('turns CSV into a table, quotes and all', async () => {
      const doc = await upload('name,note\n"Smith, J","said ""hi"""\nLee,ok\n', 'people.csv');
      expect(doc.markdown).toBe('| name | note |\n| --- | --- |\n| Smith, J | said "hi" |\n| Lee | ok |');
    });

    it('OCRs images as one-page documents', async () => {
      const doc = await upload(docs.scanPng, 'scan.png', undefined, 'image/png');
      expect(doc.markdown).toMatch(/^# Invoice Number 4711/);
      expect(words(doc.markdown!)).toEqual(expect.arrayContaining(words(SCAN.lines[1]!)));
      expect(doc.metadata?.numPages).toBe(1);
      expect(doc.metadata?.creditsUsed).toBe(1);
    });

    it('refuses images when the image parser is left out', async () => {
      const err = await sdkError(upload(docs.scanPng, 'scan.png', { parsers: ['pdf'] }));
      expect(err.status).toBe(422);
      expect(err.code).toBe('SCRAPE_UNSUPPORTED_FILE_ERROR');
    });
  });

  describe('bad uploads', () => {
    it('refuses files over 50 MB with 413', async () => {
      const err = await sdkError(upload(Buffer.alloc(50 * 1024 * 1024 + 1, 0x20), 'big.txt'));
      expect(err.status).toBe(413);
    });

    it('answers 422 for corrupt and unsupported files, never 500', async () => {
      const cases: [string, Buffer][] = [
        ['truncated.pdf', docs.reportPdf.subarray(0, 600)],
        ['garbage.png', Buffer.concat([docs.scanPng.subarray(0, 40), randomBytes(200)])],
        ['broken.docx', docs.docx.subarray(0, docs.docx.length / 2)],
        ['random.bin', randomBytes(4096)],
        ['archive.zip', await zipOf('hello.txt', 'hi')],
        ['legacy.doc', Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), randomBytes(512)])],
      ];
      for (const [name, data] of cases) {
        const err = await sdkError(upload(data, name));
        expect(err.status, name).toBe(422);
        expect(err.code, name).toBe('SCRAPE_UNSUPPORTED_FILE_ERROR');
        expect(err.message.length, name).toBeGreaterThan(0);
      }
    });

    it('rejects malformed options with 400 and names the field', async () => {
      const err = await sdkError(upload(docs.reportPdf, 'report.pdf', { parsers: [{ type: 'pdf', mode: 'magic' }] } as never));
      expect(err.status).toBe(400);
      expect(JSON.stringify(err.details)).toContain('parsers');
      const raw = await fetch(`${gleaner.url}/v2/parse`, { method: 'POST', headers: { authorization: `Bearer ${gleaner.key}` }, body: form('{not json', 'a.txt', 'x') });
      expect(raw.status).toBe(400);
      expect(((await raw.json()) as { code: string }).code).toBe('BAD_REQUEST_INVALID_JSON');
      const nofile = await fetch(`${gleaner.url}/v2/parse`, { method: 'POST', headers: { authorization: `Bearer ${gleaner.key}` }, body: form('{}') });
      expect(nofile.status).toBe(400);
      const json = await fetch(`${gleaner.url}/v2/parse`, { method: 'POST', headers: { authorization: `Bearer ${gleaner.key}`, 'content-type': 'application/json' }, body: '{}' });
      expect(json.status).toBe(415);
    });
  });

  describe('scraping URLs that serve documents', () => {
    const scrape = (path: string, opts: ScrapeOptions = {}) => fc.scrape(`${site.url}${path}`, { maxAge: 0, ...opts }) as Promise<PdfDoc>;

    it('parses a PDF URL like an upload', async () => {
      const doc = await scrape('/docs/report.pdf', { parsers: [{ type: 'pdf', pages: true }] });
      expect(doc.markdown).toMatch(/^# Harvest Report/);
      expect(doc.pages).toHaveLength(3);
      expect(doc.metadata?.numPages).toBe(3);
      expect(doc.metadata?.creditsUsed).toBe(3);
      expect(doc.metadata?.statusCode).toBe(200);
      expect(doc.metadata?.contentType).toBe(PDF);
      const one = await scrape('/docs/report.pdf', { parsers: [{ type: 'pdf', maxPages: 1 }] });
      expect(one.metadata?.creditsUsed).toBe(1);
    });

    it('returns a PDF URL base64-encoded when parsers is empty', async () => {
      const doc = await scrape('/docs/report.pdf', { parsers: [] });
      expect(doc.markdown).toBe(docs.reportPdf.toString('base64'));
      expect(doc.metadata?.creditsUsed).toBe(1);
    });

    it('parses DOCX, XLSX, PPTX and CSV URLs', async () => {
      expect((await scrape('/docs/handbook')).markdown).toContain('# Mill Handbook');
      expect((await scrape('/docs/inventory.xlsx')).markdown).toContain('| Apples | 12 | 0.5 |');
      expect((await scrape('/docs/deck.pptx')).markdown).toContain('### Notes');
      expect((await scrape('/docs/prices.csv')).markdown).toBe('| fruit | price |\n| --- | --- |\n| apple | 1,20 |\n| pear | 0.80 |');
    });

    it('OCRs an image URL, unless the image parser is left out', async () => {
      const doc = await scrape('/docs/scan.png');
      expect(doc.markdown).toMatch(/^# Invoice Number 4711/);
      const err = await sdkError(scrape('/docs/scan.png', { parsers: ['pdf'] }));
      expect(err.status).toBe(422);
      expect(err.code).toBe('SCRAPE_UNSUPPORTED_FILE_ERROR');
    });

    it('keeps refusing binary content that is no document', async () => {
      const err = await sdkError(scrape('/binary'));
      expect(err.status).toBe(422);
      expect(err.code).toBe('SCRAPE_UNSUPPORTED_FILE_ERROR');
    });

    it('validates the parsers option of a scrape', async () => {
      const err = await sdkError(scrape('/docs/report.pdf', { parsers: ['word'] }));
      expect(err.status).toBe(400);
    });
  });
});

function form(options: string, filename?: string, content?: string): FormData {
  const f = new FormData();
  f.append('options', options);
  if (filename) f.append('file', new Blob([content ?? '']), filename);
  return f;
}

async function zipOf(name: string, text: string): Promise<Buffer> {
  const { default: JSZip } = await import('jszip');
  const zip = new JSZip();
  zip.file(name, text);
  return zip.generateAsync({ type: 'nodebuffer' });
}
