/**
 * POST /v2/map through the official SDK against a running Gleaner and the fixture site's crawl
 * area (robots.txt, a sitemap index with a gzip sitemap, a small link tree).
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITEMAP_PATHS } from '../fixture-site/crawl-tree.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

let site: FixtureSite;
let gleaner: TestGleaner;
let fc: Firecrawl;

beforeAll(async () => {
  site = await startFixtureSite();
  gleaner = await startGleaner({ embedded: true, workers: false });
  fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
});
afterAll(async () => {
  await gleaner?.close();
  await site?.close();
});

const paths = (links: Array<{ url: string }>) => links.map((l) => l.url.replace(site.url, ''));

const post = (body: unknown, key: string | undefined = gleaner.key) =>
  fetch(`${gleaner.url}/v2/map`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });

describe('mapping the crawl area', () => {
  it('lists sitemap URLs and discovered links, each once, and nothing off-site or outside the path', async () => {
    const { links } = await fc.map(`${site.url}/crawl`);
    const found = paths(links);
    expect(found).toEqual(expect.arrayContaining([...SITEMAP_PATHS, '/crawl/b', '/crawl/private/secret', '/crawl/a/1', '/crawl/a/1/deep']));
    expect(new Set(found).size).toBe(found.length);
    expect(found.some((p) => p.includes('?') || p.includes('#'))).toBe(false);
    expect(found).not.toContain('/article');
    expect(links.some((l) => l.url.includes('localhost'))).toBe(false);
    expect(links.find((l) => l.url === `${site.url}/crawl`)?.title).toBe('Crawl root');
    // robots.txt does not filter a map, but the map never fetches what it disallows.
    expect(site.hits.get('/crawl/private/secret')).toBeUndefined();
  });

  it('answers with the SDK-facing shape', async () => {
    const res = await post({ url: `${site.url}/crawl`, limit: 3 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; links: Array<Record<string, unknown>> };
    expect(body.success).toBe(true);
    expect(body.links).toHaveLength(3);
    for (const l of body.links) {
      expect(typeof l.url).toBe('string');
      expect(Object.keys(l).every((k) => ['url', 'title', 'description'].includes(k))).toBe(true);
    }
  });

  it("uses only the sitemaps with sitemap 'only'", async () => {
    const { links } = await fc.map(`${site.url}/crawl`, { sitemap: 'only' });
    expect(paths(links).sort()).toEqual([...SITEMAP_PATHS].sort());
  });

  it("reads no sitemap with sitemap 'skip'", async () => {
    const before = site.hits.get('/sitemap.xml') ?? 0;
    const { links } = await fc.map(`${site.url}/crawl`, { sitemap: 'skip' });
    const found = paths(links);
    expect(found).toEqual(expect.arrayContaining(['/crawl', '/crawl/a', '/crawl/b']));
    expect(found).not.toContain('/crawl/orphan-1');
    expect(found).not.toContain('/crawl/orphan-2');
    expect(site.hits.get('/sitemap.xml') ?? 0).toBe(before);
  });

  it('ranks search matches first', async () => {
    const { links } = await fc.map(`${site.url}/crawl`, { search: 'orphan' });
    expect(paths(links.slice(0, 2)).sort()).toEqual(['/crawl/orphan-1', '/crawl/orphan-2']);
    expect(links.length).toBeGreaterThan(2);
  });

  it('honours limit', async () => {
    const { links } = await fc.map(`${site.url}/crawl/big`, { limit: 10 });
    expect(links).toHaveLength(10);
    const all = await fc.map(`${site.url}/crawl/big`);
    expect(all.links).toHaveLength(61);
  });

  it('keeps query variants only when ignoreQueryParameters is false', async () => {
    const kept = paths((await fc.map(`${site.url}/crawl`, { ignoreQueryParameters: false })).links);
    expect(kept).toEqual(expect.arrayContaining(['/crawl/b', '/crawl/b?ref=1', '/crawl/b?ref=2']));
    const merged = paths((await fc.map(`${site.url}/crawl`, { ignoreQueryParameters: true })).links);
    expect(merged).toContain('/crawl/b');
    expect(merged.filter((p) => p.startsWith('/crawl/b'))).toHaveLength(1);
  });
});

describe('map errors', () => {
  it('answers 408 MAP_TIMEOUT when the timeout passes first', async () => {
    const err = await sdkError(fc.map(`${site.url}/crawl/slow/1`, { timeout: 100 }));
    expect(err.status).toBe(408);
    expect(err.code).toBe('MAP_TIMEOUT');
    expect(err.message).toBe('Map timed out');
  });

  it('refuses addresses the SSRF guard blocks with 403', async () => {
    const err = await sdkError(fc.map('http://169.254.169.254/'));
    expect(err.status).toBe(403);
    expect(err.code).toBe('URL_BLOCKED');
  });

  it('refuses loopback when the operator has not allowed it', async () => {
    const strict = await startGleaner({ embedded: true, workers: false, env: { ALLOW_PRIVATE_ADDRESSES: '' } });
    try {
      const before = site.hits.get('/crawl') ?? 0;
      const err = await sdkError(new Firecrawl({ apiKey: strict.key, apiUrl: strict.url }).map(`${site.url}/crawl`));
      expect(err.status).toBe(403);
      expect(site.hits.get('/crawl') ?? 0).toBe(before);
    } finally {
      await strict.close();
    }
  });

  it('answers 400 with field details for bad input', async () => {
    for (const body of [
      { url: `${site.url}/crawl`, limit: 0 },
      { url: `${site.url}/crawl`, limit: 100_001 },
      { url: `${site.url}/crawl`, sitemap: 'sometimes' },
      { url: `${site.url}/crawl`, includeSubdomains: 'yes' },
      { url: `${site.url}/crawl`, timeout: -5 },
      { limit: 5 },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const json = (await res.json()) as { success: boolean; code: string; details: Array<{ path: string[] }> };
      expect(json.success).toBe(false);
      expect(json.code).toBe('BAD_REQUEST');
      expect(json.details.length).toBeGreaterThan(0);
    }
    const err = await sdkError(fc.map(`${site.url}/crawl`, { sitemap: 'sometimes' as 'only' }));
    expect(err.status).toBe(400);
    expect(JSON.stringify(err.details)).toContain('sitemap');
    expect((await sdkError(fc.map('not a url at all'))).status).toBe(400);
    expect((await sdkError(fc.map('ftp://example.com/'))).status).toBe(400);
  });

  it('accepts the keys the SDK adds and ones it does not know', async () => {
    const res = await post({ url: `${site.url}/crawl/big`, limit: 2, origin: 'js-sdk@test', integration: 'anything', location: { country: 'us' }, somethingNew: true });
    expect(res.status).toBe(200);
  });

  it('answers 401 without a key and 403 for a key without the map scope', async () => {
    const keyless = await sdkError(new Firecrawl({ apiKey: '', apiUrl: gleaner.url }).map(`${site.url}/crawl`));
    expect(keyless.status).toBe(401);
    expect((await post({ url: `${site.url}/crawl` }, '')).status).toBe(401);
    const { key } = await gleaner.rt.keys.create({ teamId: gleaner.teamId, name: 'scrape-only', scopes: ['scrape'] });
    const forbidden = await sdkError(new Firecrawl({ apiKey: key, apiUrl: gleaner.url }).map(`${site.url}/crawl`));
    expect(forbidden.status).toBe(403);
  });
});
