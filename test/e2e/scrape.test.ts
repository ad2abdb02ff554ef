/**
 * POST /v2/scrape through the official SDK against a running Gleaner and the fixture site:
 * what a user gets back for each kind of page.
 */
import Firecrawl, { type Document } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_BYTES, startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

let site: FixtureSite;
let gleaner: TestGleaner;
let fc: Firecrawl;

beforeAll(async () => {
  site = await startFixtureSite();
  gleaner = await startGleaner({ embedded: true });
  fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
});
afterAll(async () => {
  await gleaner?.close();
  await site?.close();
});

describe('scraping an article page', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = await fc.scrape(`${site.url}/article`, { formats: ['markdown', 'html', 'rawHtml', 'links', 'images'], maxAge: 0 });
  });

  it('returns the article as markdown without the page chrome', () => {
    expect(doc.markdown).toContain('# The Quiet Art of Bread Baking');
    expect(doc.markdown).toContain('Sourdough rewards patience');
    expect(doc.markdown).toMatch(/\|\s*Flour\s*\|\s*Water\s*\|/);
    expect(doc.markdown).toContain('```python');
    expect(doc.markdown).not.toContain('Accept all cookies');
    expect(doc.markdown).not.toContain('All rights reserved');
    expect(doc.markdown).not.toContain('Ten cakes you must try');
  });

  it('makes link and image URLs in the markdown absolute', () => {
    expect(doc.markdown).toContain(`(${site.url}/guides/starter)`);
    expect(doc.markdown).toContain(`${site.url}/images/crumb.jpg`);
  });

  it('drops base64 images from markdown by default, keeping their alt text', () => {
    expect(doc.markdown).not.toContain('data:image/png;base64');
  });

  it('returns cleaned html, the raw html, links and images when asked', () => {
    expect(doc.html).toContain('Sourdough rewards patience');
    expect(doc.html).not.toContain('cookie-banner');
    expect(doc.rawHtml).toContain('cookie-banner');
    expect(doc.links).toEqual(expect.arrayContaining([`${site.url}/guides/starter`, 'https://example.org/flour', 'http://cdn.example.net/pdf/bread.pdf']));
    expect(doc.images).toEqual(expect.arrayContaining([`${site.url}/images/crumb.jpg`]));
  });

  it('fills metadata from the page and the fetch', () => {
    const m = doc.metadata!;
    expect(m.title).toBe('The Quiet Art of Bread Baking');
    expect(m.description).toBe('A long read about sourdough, patience and ovens.');
    expect(m.language).toBe('en');
    expect(m.ogTitle).toBe('Bread Baking, Quietly');
    expect(m.ogLocaleAlternate).toEqual(['fr_FR', 'de_DE']);
    expect(m['twitter:card']).toBe('summary_large_image');
    expect(m.sourceURL).toBe(`${site.url}/article`);
    expect(m.url).toBe(`${site.url}/article`);
    expect(m.statusCode).toBe(200);
    expect(m.contentType).toContain('text/html');
    expect(m.scrapeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(m.proxyUsed).toBe('basic');
    expect(m.creditsUsed).toBe(1);
  });

  it('omits formats that were not asked for', async () => {
    const only = await fc.scrape(`${site.url}/article`, { formats: ['links'], maxAge: 0 });
    expect(only.links?.length).toBeGreaterThan(0);
    expect(only.markdown).toBeUndefined();
    expect(only.rawHtml).toBeUndefined();
  });
});

describe('content options', () => {
  it('keeps the whole page with onlyMainContent: false', async () => {
    const doc = await fc.scrape(`${site.url}/article`, { onlyMainContent: false, maxAge: 0 });
    expect(doc.markdown).toContain('All rights reserved');
    expect(doc.markdown).toContain('Sourdough rewards patience');
  });

  it('keeps only includeTags and drops excludeTags', async () => {
    const inc = await fc.scrape(`${site.url}/article`, { includeTags: ['table'], onlyMainContent: false, maxAge: 0 });
    expect(inc.markdown).toContain('Hydration');
    expect(inc.markdown).not.toContain('Sourdough rewards patience');
    const exc = await fc.scrape(`${site.url}/article`, { excludeTags: ['table', 'pre'], maxAge: 0 });
    expect(exc.markdown).toContain('Sourdough rewards patience');
    expect(exc.markdown).not.toContain('350 g');
    expect(exc.markdown).not.toContain('def hydration');
  });

  it('keeps base64 images when removeBase64Images is false', async () => {
    const doc = await fc.scrape(`${site.url}/base64-images`, { removeBase64Images: false, maxAge: 0 });
    expect(doc.markdown).toContain('data:image/png;base64');
  });

  it('sends the caller headers and location languages', async () => {
    const doc = await fc.scrape(`${site.url}/headers`, {
      headers: { 'X-Custom-Thing': 'hello-gleaner' },
      location: { country: 'DE', languages: ['de-DE', 'en'] },
      maxAge: 0,
    });
    expect(doc.markdown).toContain('hello-gleaner');
    expect(doc.markdown).toMatch(/accept-language`?: de-DE, en;q=0\.9/);
  });
});

describe('pages that are not plain 200 HTML', () => {
  it('follows a redirect chain and reports the final URL', async () => {
    const doc = await fc.scrape(`${site.url}/redirect/1`, { maxAge: 0 });
    expect(doc.metadata?.sourceURL).toBe(`${site.url}/redirect/1`);
    expect(doc.metadata?.url).toBe(`${site.url}/article`);
    expect(doc.markdown).toContain('Sourdough rewards patience');
  });

  it('fails a redirect loop with SCRAPE_SITE_ERROR', async () => {
    const err = await sdkError(fc.scrape(`${site.url}/redirect-loop/a`, { maxAge: 0 }));
    expect(err.status).toBe(500);
    expect(err.code).toBe('SCRAPE_SITE_ERROR');
    expect(err.message).toMatch(/redirect loop/i);
  });

  it('returns 404 and 500 pages as documents with their status code', async () => {
    const notFound = await fc.scrape(`${site.url}/status/404`, { maxAge: 0 });
    expect(notFound.metadata?.statusCode).toBe(404);
    expect(notFound.markdown).toContain('Page not found');
    const broken = await fc.scrape(`${site.url}/status/500`, { maxAge: 0 });
    expect(broken.metadata?.statusCode).toBe(500);
  });

  it('answers 408 SCRAPE_TIMEOUT when the page is slower than timeout', async () => {
    const err = await sdkError(fc.scrape(`${site.url}/slow?ms=8000`, { timeout: 1500, maxAge: 0 }));
    expect(err.status).toBe(408);
    expect(err.code).toBe('SCRAPE_TIMEOUT');
  });

  it('decodes windows-1252 pages, labelled by header or by meta', async () => {
    const a = await fc.scrape(`${site.url}/windows-1252`, { maxAge: 0 });
    expect(a.markdown).toContain('Café crème — naïve façade');
    expect(a.markdown).toContain('5 € for a crème brûlée');
    const b = await fc.scrape(`${site.url}/latin1-meta`, { maxAge: 0 });
    expect(b.markdown).toContain('Señor Müller’s menu');
  });

  it('handles gzip-encoded responses', async () => {
    const doc = await fc.scrape(`${site.url}/gzip`, { maxAge: 0 });
    expect(doc.markdown).toContain('This body travelled gzip-encoded.');
  });

  it('converts a large page completely', async () => {
    const doc = await fc.scrape(`${site.url}/large`, { maxAge: 0 });
    expect(doc.markdown).toContain('THE-END-MARKER');
    expect(doc.markdown).toContain('Paragraph 5999');
  });

  it('returns JSON and plain text bodies as content', async () => {
    const json = await fc.scrape(`${site.url}/data.json`, { maxAge: 0 });
    expect(json.markdown).toContain('```json');
    expect(json.markdown).toContain('"gleaner"');
    const text = await fc.scrape(`${site.url}/plain.txt`, { maxAge: 0 });
    expect(text.markdown).toContain('Just some plain text.');
  });

  it('refuses binary content as markdown but returns it as rawBase64', async () => {
    const err = await sdkError(fc.scrape(`${site.url}/binary`, { maxAge: 0 }));
    expect(err.status).toBe(422);
    expect(err.code).toBe('SCRAPE_UNSUPPORTED_FILE_ERROR');
    const raw = (await fc.scrape(`${site.url}/binary`, { formats: ['rawBase64' as 'markdown'], maxAge: 0 })) as Document & { rawBase64?: string };
    expect(Buffer.from(raw.rawBase64 ?? '', 'base64').equals(BINARY_BYTES)).toBe(true);
  });
});

describe('the scrape cache', () => {
  it('serves a second identical scrape from the cache', async () => {
    const url = `${site.url}/article?cache=1`;
    const first = await fc.scrape(url, {});
    expect(first.metadata?.cacheState).toBe('miss');
    const hitsAfterFirst = site.hits.get('/article');
    const second = await fc.scrape(url, {});
    expect(second.metadata?.cacheState).toBe('hit');
    expect(second.metadata?.cachedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(second.metadata?.scrapeId).not.toBe(first.metadata?.scrapeId);
    expect(second.markdown).toBe(first.markdown);
    expect(site.hits.get('/article')).toBe(hitsAfterFirst);
  });

  it('goes to the site again with maxAge: 0', async () => {
    const url = `${site.url}/article?cache=2`;
    await fc.scrape(url, {});
    const before = site.hits.get('/article')!;
    const doc = await fc.scrape(url, { maxAge: 0 });
    expect(site.hits.get('/article')).toBe(before + 1);
    expect(doc.metadata?.cacheState).toBeUndefined();
  });

  it('answers minAge with cached data only, 404 SCRAPE_NO_CACHED_DATA otherwise', async () => {
    const err = await sdkError(fc.scrape(`${site.url}/article?cache=3`, { minAge: 1 } as never));
    expect(err.status).toBe(404);
    expect(err.code).toBe('SCRAPE_NO_CACHED_DATA');
    await fc.scrape(`${site.url}/article?cache=3`, {});
    await new Promise((r) => setTimeout(r, 5));
    const doc = await fc.scrape(`${site.url}/article?cache=3`, { minAge: 1 } as never);
    expect(doc.metadata?.cacheState).toBe('hit');
  });

  it('never contacts the site under lockdown', async () => {
    const path = '/article';
    const before = site.hits.get(path) ?? 0;
    const err = await sdkError(fc.scrape(`${site.url}${path}?cache=4`, { lockdown: true } as never));
    expect(err.status).toBe(404);
    expect(err.code).toBe('SCRAPE_LOCKDOWN_CACHE_MISS');
    expect(err.message).not.toContain('cache=4');
    expect(site.hits.get(path) ?? 0).toBe(before);
  });

  it('does not store scrapes that send custom headers', async () => {
    const url = `${site.url}/article?cache=5`;
    await fc.scrape(url, { headers: { 'X-Private': 'secret' } });
    const err = await sdkError(fc.scrape(url, { lockdown: true } as never));
    expect(err.code).toBe('SCRAPE_LOCKDOWN_CACHE_MISS');
  });
});

describe('scrape results by id', () => {
  it('returns a finished scrape from GET /v2/scrape/{id}, only to its own team', async () => {
    const doc = await fc.scrape(`${site.url}/article`, { maxAge: 0 });
    const id = doc.metadata!.scrapeId!;
    const res = await fetch(`${gleaner.url}/v2/scrape/${id}`, { headers: { authorization: `Bearer ${gleaner.key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: Document };
    expect(body.success).toBe(true);
    expect(body.data.markdown).toBe(doc.markdown);

    const teamId = await gleaner.rt.keys.ensureTeam('other-team');
    const { key } = await gleaner.rt.keys.create({ teamId, name: 'other' });
    const other = await fetch(`${gleaner.url}/v2/scrape/${id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(other.status).toBe(404);
  });
});
