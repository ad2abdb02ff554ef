/**
 * POST /v2/search through the official SDK against a running Gleaner backed by a real searx
 * (Debian's package, started here) whose engines read the fixture site: one that answers, one
 * that fails, one that is slow, plus news and image engines.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { searxAvailable, startSearx, type Searx } from '../helpers/searx.js';
import { sdkError } from '../helpers/sdk-error.js';

if (!searxAvailable()) {
  console.warn('Skipping the SearXNG search tests: searx is not installed (Debian: apt-get install -y searx)');
}

let site: FixtureSite;
const gleaners: TestGleaner[] = [];

async function gleanerWith(env: Record<string, string>): Promise<{ g: TestGleaner; fc: Firecrawl }> {
  const g = await startGleaner({ embedded: true, workers: false, env: { TRANSFORM_THREADS: '0', ...env } });
  gleaners.push(g);
  return { g, fc: new Firecrawl({ apiKey: g.key, apiUrl: g.url }) };
}

const post = (g: TestGleaner, body: unknown) =>
  fetch(`${g.url}/v2/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${g.key}` },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  for (const g of gleaners) await g.close();
  await site?.close();
});

describe('request validation', () => {
  let g: TestGleaner;
  beforeAll(async () => {
    ({ g } = await gleanerWith({}));
  });

  it.each([
    ['an empty query', { query: '   ' }, 'query'],
    ['a missing query', {}, 'query'],
    ['limit 0', { query: 'tea', limit: 0 }, 'limit'],
    ['limit 101', { query: 'tea', limit: 101 }, 'limit'],
    ['both domain lists', { query: 'tea', includeDomains: ['a.com'], excludeDomains: ['b.com'] }, 'excludeDomains'],
    ['an unknown source', { query: 'tea', sources: ['video'] }, 'sources'],
    ['an unknown source object', { query: 'tea', sources: [{ type: 'alexandria' }] }, 'sources'],
    ['an unknown category', { query: 'tea', categories: ['recipes'] }, 'categories'],
    ['a malformed tbs', { query: 'tea', tbs: 'qdr:q' }, 'tbs'],
    ['a custom range backwards', { query: 'tea', tbs: 'cdr:1,cd_min:12/31/2024,cd_max:1/1/2024' }, 'tbs'],
    ['a bad country', { query: 'tea', country: 'USA' }, 'country'],
    ['an unknown scrape format', { query: 'tea', scrapeOptions: { formats: ['poem'] } }, 'scrapeOptions'],
  ])('refuses %s with 400 and details', async (_, body, field) => {
    const res = await post(g, body);
    expect(res.status).toBe(400);
    const json = (await res.json()) as { success: boolean; code: string; details: Array<{ path: unknown[]; message: string }> };
    expect(json.success).toBe(false);
    expect(json.code).toBe('BAD_REQUEST');
    expect(json.details.some((d) => d.path[0] === field)).toBe(true);
  });

  it('accepts custom date ranges and every documented field', async () => {
    const res = await post(g, {
      query: 'tea',
      sources: [{ type: 'web', tbs: 'cdr:1,cd_min:1/1/2020,cd_max:12/31/2030' }],
      categories: [{ type: 'github' }],
      limit: 100,
      tbs: 'qdr:w',
      location: 'Berlin, Germany',
      country: 'de',
      lang: 'de',
      timeout: 5000,
      ignoreInvalidURLs: true,
      origin: 'js-sdk@test',
    });
    expect(res.status).toBe(200);
  });
});

describe.skipIf(!searxAvailable())('with a real searx', () => {
  let searx: Searx;

  beforeAll(async () => {
    searx = await startSearx(site.url, [
      // searx waits as long as the longest engine timeout in play (3 s here), then reports the
      // engines still running; the slow one answers long after that, the others well before.
      { name: 'fixtureweb', path: '/search-engine/web.json?q={query}&page={pageno}', category: 'general', timeoutSeconds: 3, timeRange: true },
      { name: 'fixturebroken', path: '/search-engine/fail.json?q={query}', category: 'general', timeoutSeconds: 3, paging: false },
      { name: 'fixtureslow', path: '/search-engine/slow.json?q={query}&ms=8000', category: 'general', timeoutSeconds: 1, paging: false },
      { name: 'fixturenews', path: '/search-engine/news.json?q={query}&page={pageno}', category: 'news' },
      { name: 'fixtureimages', path: '/search-engine/images.json?q={query}&page={pageno}', category: 'images' },
      { name: 'fixtureslowweb', path: '/search-engine/slow.json?q={query}&ms=4000', category: 'general', timeoutSeconds: 8, disabled: true },
    ]);
  }, 60_000);
  afterAll(async () => {
    await searx?.close();
  });

  describe('engines named by the operator (SEARXNG_ENDPOINT, SEARXNG_ENGINES)', () => {
    let g: TestGleaner;
    let fc: Firecrawl;
    beforeAll(async () => {
      ({ g, fc } = await gleanerWith({ SEARXNG_ENDPOINT: searx.url, SEARXNG_ENGINES: 'fixtureweb' }));
    });

    it('answers web results in the documented shape, and only the web key', async () => {
      const res = await fc.search('green tea brewing', { limit: 3 });
      expect(res.web).toHaveLength(3);
      expect(res.news).toBeUndefined();
      expect(res.images).toBeUndefined();
      expect(res.warning).toBeUndefined();
      res.web!.forEach((r, i) => {
        const item = r as { url: string; title?: string; description?: string; position?: number };
        expect(item.url).toMatch(/^https?:\/\//);
        expect(item.title?.toLowerCase()).toContain('green tea');
        expect(item.description).toBeTruthy();
        expect(item.position).toBe(i + 1);
      });
    });

    it('walks result pages to reach the limit, each page once', async () => {
      const res = await fc.search('tea', { limit: 15 });
      const urls = res.web!.map((r) => (r as { url: string }).url);
      expect(urls).toHaveLength(15);
      expect(new Set(urls).size).toBe(15);
    });

    it('counts a credit per result', async () => {
      const res = await post(g, { query: 'matcha', limit: 2 });
      const body = (await res.json()) as { success: boolean; creditsUsed: number; data: Record<string, unknown[]> };
      expect(body.success).toBe(true);
      expect(body.data.web).toHaveLength(2);
      expect(body.creditsUsed).toBe(2);
    });

    it('fills news and image lists from the instance categories, each in its shape', async () => {
      const res = await fc.search('oolong', { sources: ['web', 'news', 'images'], limit: 2 });
      expect(res.web).toHaveLength(2);
      const news = res.news as Array<Record<string, unknown>>;
      expect(news).toHaveLength(2);
      expect(String(news[0]!.title)).toMatch(/^News: /);
      expect(news[0]!.snippet).toBeTruthy();
      expect(news[0]!.position).toBe(1);
      const images = res.images as Array<Record<string, unknown>>;
      expect(images).toHaveLength(2);
      expect(String(images[0]!.imageUrl)).toContain('/image.png');
      expect(images[0]!.title).toMatch(/^Picture of /);
    });

    it('keeps to the included domains and leaves out the excluded ones', async () => {
      const only = await fc.search('green tea brewing', { includeDomains: ['github.com'], limit: 10 });
      expect(only.web!.map((r) => (r as { url: string }).url)).toEqual(['https://github.com/example/tea-timer']);
      const without = await fc.search('green tea brewing', { excludeDomains: ['127.0.0.1', 'github.com'], limit: 10 });
      const urls = without.web!.map((r) => (r as { url: string }).url);
      expect(urls).toEqual(expect.arrayContaining(['https://arxiv.org/abs/2401.00001']));
      expect(urls.some((u) => u.includes('127.0.0.1') || u.includes('github.com'))).toBe(false);
    });

    it('narrows to categories and tags each result with its category', async () => {
      const res = await fc.search('green tea brewing', { categories: ['research', 'pdf'], limit: 10 });
      const got = (res.web as Array<{ url: string; category?: string }>).map((r) => [r.url, r.category]);
      expect(got).toEqual(
        expect.arrayContaining([
          ['https://arxiv.org/abs/2401.00001', 'research'],
          ['https://papers.example.org/green-tea-brewing.pdf', 'pdf'],
        ]),
      );
      expect(got).toHaveLength(2);
    });

    it('passes a time range to engines that filter by date', async () => {
      const res = await fc.search('chai', { tbs: 'qdr:d', limit: 3 });
      expect(res.web).toHaveLength(3);
      expect(res.warning).toBeUndefined();
    });

    it('scrapes every result through the pipeline when formats are asked for', async () => {
      const res = await fc.search('rooibos history', { limit: 1, scrapeOptions: { formats: ['markdown', 'links', 'html'] } });
      const doc = res.web![0] as { url: string; title: string; markdown?: string; html?: string; links?: string[]; metadata?: { statusCode: number; sourceURL: string } };
      expect(doc.url).toBe(`${site.url}/library/rooibos-history`);
      expect(doc.title).toBe('Rooibos history');
      expect(doc.markdown).toContain('# Rooibos history');
      expect(doc.html).toContain('Rooibos history');
      expect(Array.isArray(doc.links)).toBe(true);
      expect(doc.metadata?.statusCode).toBe(200);
    });

    it('drops results that cannot be scraped as addresses with ignoreInvalidURLs, and keeps them bare without it', async () => {
      const kept = await fc.search('intranet rota', { scrapeOptions: { formats: ['markdown'] } });
      expect(kept.web).toEqual([{ url: 'http://10.1.2.3/intranet/tea-rota', title: 'Intranet tea rota', description: expect.any(String), position: 1 }]);
      expect(kept.warning).toMatch(/could not be scraped/);
      const dropped = await fc.search('intranet rota', { ignoreInvalidURLs: true, scrapeOptions: { formats: ['markdown'] } });
      expect(dropped.web).toEqual([]);
    });

    it('scrapes several results at once and credits each scrape', async () => {
      const res = await post(g, { query: 'tea brewing', limit: 6, scrapeOptions: { formats: ['markdown'] } });
      const body = (await res.json()) as { creditsUsed: number; data: { web: Array<{ url: string; markdown?: string }> } };
      const scraped = body.data.web.filter((r) => r.url.startsWith(site.url));
      expect(scraped.length).toBeGreaterThan(1);
      for (const r of scraped) expect(r.markdown).toContain('brewing');
      expect(body.creditsUsed).toBe(body.data.web.length);
    });
  });

  describe("the instance's default engines (SEARXNG_URL)", () => {
    let fc: Firecrawl;
    beforeAll(async () => {
      ({ fc } = await gleanerWith({ SEARXNG_URL: searx.url }));
    });

    it('returns what the working engine found and names the failing and slow ones in the warning', async () => {
      const res = await fc.search('white tea storage', { limit: 5 });
      const urls = res.web!.map((r) => (r as { url: string }).url);
      expect(urls).toContain(`${site.url}/library/white-tea-storage`);
      expect(new Set(urls).size).toBe(urls.length);
      expect(res.warning).toMatch(/fixturebroken/);
      expect(res.warning).toMatch(/fixtureslow/);
    });

    it('says when no engine in use can filter by date, instead of answering nothing', async () => {
      const res = await fc.search('herbal tea', { tbs: 'qdr:m', limit: 2 });
      expect(res.warning).toMatch(/left out: fixturebroken, fixtureslow|cannot filter by date/);
      expect(res.web!.length).toBeGreaterThan(0);
    });
  });

  describe('a slow provider', () => {
    let g: TestGleaner;
    let fc: Firecrawl;
    beforeAll(async () => {
      ({ g, fc } = await gleanerWith({ SEARXNG_URL: searx.url, SEARXNG_ENGINES: 'fixtureslowweb' }));
    });

    it('answers 408 SCRAPE_TIMEOUT when nothing came back within the timeout', async () => {
      const err = await sdkError(fc.search('green tea', { timeout: 1000 }));
      expect(err.status).toBe(408);
      expect(err.code).toBe('SCRAPE_TIMEOUT');
    });

    it('returns what answered in time, with a warning for the rest', async () => {
      const res = await post(g, { query: 'green tea', sources: ['web', 'news'], limit: 2, timeout: 2000 });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { web: unknown[]; news: unknown[] }; warning: string };
      expect(body.data.web).toEqual([]);
      expect(body.data.news).toHaveLength(2);
      expect(body.warning).toMatch(/web results are missing/);
    });
  });

  describe('misconfigured instances get messages that say what to fix', () => {
    it('names the engines the instance lacks and lists the ones it has', async () => {
      const { fc } = await gleanerWith({ SEARXNG_URL: searx.url, SEARXNG_ENGINES: 'bing,nosuchengine' });
      const err = await sdkError(fc.search('tea'));
      expect(err.status).toBe(503);
      expect(err.message).toMatch(/none of the engines SEARXNG_ENGINES names \(bing, nosuchengine\)/);
      expect(err.message).toMatch(/fixtureweb/);
    });

    it('explains JSON output switched off (403)', async () => {
      const { fc } = await gleanerWith({ SEARXNG_URL: `${site.url}/refusing/403` });
      const err = await sdkError(fc.search('tea'));
      expect(err.status).toBe(503);
      expect(err.message).toMatch(/refused JSON output.*search\.formats/);
    });

    it('explains bot filtering (429)', async () => {
      const { fc } = await gleanerWith({ SEARXNG_URL: `${site.url}/refusing/429` });
      const err = await sdkError(fc.search('tea'));
      expect(err.status).toBe(503);
      expect(err.message).toMatch(/as a bot.*limiter/);
    });

    it('explains an instance that cannot be reached', async () => {
      const { fc } = await gleanerWith({ SEARXNG_URL: 'http://127.0.0.1:9' });
      const err = await sdkError(fc.search('tea'));
      expect(err.status).toBe(503);
      expect(err.message).toMatch(/Could not reach SearXNG at http:\/\/127\.0\.0\.1:9/);
    });
  });
});
