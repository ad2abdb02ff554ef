/**
 * `removeBase64Images` (on by default) keeps an inlined image where it was, with its alt text,
 * and puts a placeholder where the bytes were; `false` keeps the bytes.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

let site: FixtureSite;
let gleaner: TestGleaner;
let fc: Firecrawl;

beforeAll(async () => {
  site = await startFixtureSite();
  gleaner = await startGleaner({ embedded: true, env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
});
afterAll(async () => {
  await gleaner?.close();
  await site?.close();
});

describe('removeBase64Images', () => {
  it('keeps the alt text and replaces the data URI with a placeholder by default', async () => {
    const doc = await fc.scrape(`${site.url}/base64-images`, { maxAge: 0 });
    expect(doc.markdown).toContain('![inline red dot](<Base64-Image-Removed>)');
    expect(doc.markdown).not.toContain('data:image');
    // In its place in the text.
    expect(doc.markdown!.indexOf('A dot follows.')).toBeLessThan(doc.markdown!.indexOf('Base64-Image-Removed'));
    expect(doc.markdown!.indexOf('Base64-Image-Removed')).toBeLessThan(doc.markdown!.indexOf('After the dot.'));
  });

  it('keeps the bytes when false', async () => {
    const doc = await fc.scrape(`${site.url}/base64-images`, { removeBase64Images: false, maxAge: 0 });
    expect(doc.markdown).toMatch(/!\[inline red dot\]\(<?data:image\/png;base64,/);
  });
});
