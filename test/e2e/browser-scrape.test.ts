/**
 * Scrapes that need a real browser: JavaScript-only pages (detected automatically), waitFor,
 * mobile emulation, location, and screenshots served back through signed file URLs.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/scrape/engines/chromium.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

const chromium = findChromium(process.env.CHROMIUM_PATH);
if (!chromium) console.warn('browser scrape tests skipped: no Chromium (apt-get install chromium)');

let site: FixtureSite;
let gleaner: TestGleaner;
let fc: Firecrawl;

const pngSize = (buf: Buffer) => ({ width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) });

describe.skipIf(!chromium)('browser-backed scrapes', () => {
  beforeAll(async () => {
    site = await startFixtureSite();
    gleaner = await startGleaner({ embedded: true });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
    await site?.close();
  });

  it('renders a JavaScript-only page in the browser without being asked', async () => {
    const doc = await fc.scrape(`${site.url}/js-only`, { maxAge: 0 });
    expect(doc.markdown).toContain('Rendered by JavaScript');
    expect(doc.markdown).toContain('only exists after the script ran');
  });

  it('keeps plain pages on the fast HTTP engine', async () => {
    const doc = await fc.scrape(`${site.url}/article`, { maxAge: 0 });
    expect(doc.markdown).toContain('Sourdough rewards patience');
    expect(gleaner.rt.browser && 'stats' in gleaner.rt.browser).toBeTruthy();
  });

  it('waits waitFor milliseconds before capturing', async () => {
    const doc = await fc.scrape(`${site.url}/delayed`, { waitFor: 1500, maxAge: 0 });
    expect(doc.markdown).toContain('Arrived after a second.');
  });

  it('emulates a phone with mobile: true', async () => {
    const doc = await fc.scrape(`${site.url}/mobile-check`, { mobile: true, maxAge: 0 });
    expect(doc.markdown).toMatch(/UA: .*Mobile/);
    const width = Number(/Width: (\d+)/.exec(doc.markdown ?? '')?.[1]);
    expect(width).toBeLessThan(600);
  });

  it('applies location languages and the country time zone in the browser', async () => {
    const doc = await fc.scrape(`${site.url}/mobile-check`, { waitFor: 100, location: { country: 'JP', languages: ['ja-JP'] }, maxAge: 0 });
    expect(doc.markdown).toContain('Language: ja-JP');
    expect(doc.markdown).toContain('Zone: Asia/Tokyo');
  });

  it('takes a screenshot and serves it from an expiring signed URL', async () => {
    const doc = await fc.scrape(`${site.url}/tall`, { formats: ['screenshot', 'markdown'], maxAge: 0 });
    expect(doc.markdown).toContain('Tall page');
    expect(doc.screenshot).toMatch(new RegExp(`^${gleaner.url}/v2/files/[0-9a-f-]{36}\\.png\\?expires=\\d+&sig=[0-9a-f]{64}$`));
    const res = await fetch(doc.screenshot!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(pngSize(png).height).toBeLessThan(1500);

    const forged = doc.screenshot!.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`);
    expect((await fetch(forged)).status).toBe(404);
    const extended = doc.screenshot!.replace(/expires=(\d+)/, (_m, n: string) => `expires=${Number(n) + 1000}`);
    expect((await fetch(extended)).status).toBe(404);
  });

  it('honours fullPage, quality and viewport', async () => {
    const full = await fc.scrape(`${site.url}/tall`, { formats: [{ type: 'screenshot', fullPage: true }], maxAge: 0 });
    const fullPng = Buffer.from(await (await fetch(full.screenshot!)).arrayBuffer());
    expect(pngSize(fullPng).height).toBeGreaterThan(3000);

    const jpeg = await fc.scrape(`${site.url}/tall`, {
      formats: [{ type: 'screenshot', quality: 40, viewport: { width: 800, height: 600 } }],
      maxAge: 0,
    });
    expect(jpeg.screenshot).toMatch(/\.jpg\?/);
    const jpg = Buffer.from(await (await fetch(jpeg.screenshot!)).arrayBuffer());
    expect(jpg[0]).toBe(0xff);
    expect(jpg[1]).toBe(0xd8);
  });

  it('answers 408 when the browser cannot finish within timeout', async () => {
    try {
      await fc.scrape(`${site.url}/slow?ms=10000`, { formats: ['screenshot'], timeout: 2000, maxAge: 0 });
      throw new Error('expected a timeout');
    } catch (e) {
      expect((e as { status: number }).status).toBe(408);
      expect((e as { code: string }).code).toBe('SCRAPE_TIMEOUT');
    }
  });
});
