/**
 * MapService against the real fixture site, the real HTTP engine and the real scrape pipeline.
 * Map's page reads neither cache nor record anything, so the pipeline runs without a store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../../test/fixture-site/server.js';
import { ApiError } from '../errors.js';
import { HttpEngine } from '../scrape/engines/http.js';
import { Scraper } from '../scrape/pipeline.js';
import { AddressPolicy, SsrfGuard } from '../security/ssrf.js';
import { MapService, rank, type MapRequest } from './map.js';

let site: FixtureSite;
const guard = new SsrfGuard(new AddressPolicy(['127.0.0.0/8']));
const http = new HttpEngine({ guard, maxResponseBytes: 10 * 1024 * 1024 });
const scraper = new Scraper({ http, browser: undefined, guard, documents: {} as never, blobs: {} as never, proxies: { countries: {} } });
const service = new MapService({ scraper, http, guard });
const ctx = { teamId: 'team', absoluteUrl: (p: string) => p };

const defaults: Omit<MapRequest, 'url'> = { sitemap: 'include', includeSubdomains: true, ignoreQueryParameters: true, filterByPath: true, limit: 5000 };
const map = async (path: string, opts: Partial<MapRequest> = {}) => (await service.map({ ...defaults, url: `${site.url}${path}`, ...opts }, ctx)).links;
const paths = (links: Array<{ url: string }>) => links.map((l) => l.url.replace(site.url, ''));

beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await http.close();
  await site.close();
});

describe('MapService', () => {
  it('lists sitemap URLs, start-page links and what a shallow walk finds, once each', async () => {
    const links = await map('/crawl');
    expect(paths(links).sort()).toEqual(
      ['/crawl', '/crawl/a', '/crawl/a/1', '/crawl/a/1/deep', '/crawl/b', '/crawl/orphan-1', '/crawl/orphan-2', '/crawl/private/hidden', '/crawl/private/secret'].sort(),
    );
    expect(paths(links)[0]).toBe('/crawl');
    expect(links.find((l) => l.url === `${site.url}/crawl`)?.title).toBe('Crawl root');
    expect(links.find((l) => l.url === `${site.url}/crawl/a`)?.title).toBe('Crawl A');
    // Listed, never fetched: robots.txt disallows it.
    expect(site.hits.get('/crawl/private/secret')).toBeUndefined();
    expect(links.find((l) => l.url.endsWith('/crawl/private/secret'))?.title).toBeUndefined();
  });

  it('keeps query variants apart when asked', async () => {
    expect(paths(await map('/crawl', { ignoreQueryParameters: false }))).toEqual(expect.arrayContaining(['/crawl/b', '/crawl/b?ref=1', '/crawl/b?ref=2']));
  });

  it('uses only the sitemaps with sitemap: only, and no sitemaps with skip', async () => {
    expect(paths(await map('/crawl', { sitemap: 'only' }))).toEqual(['/crawl', '/crawl/a', '/crawl/orphan-1', '/crawl/orphan-2', '/crawl/private/hidden']);
    const skipped = paths(await map('/crawl', { sitemap: 'skip' }));
    expect(skipped).not.toContain('/crawl/orphan-1');
    expect(skipped).toEqual(expect.arrayContaining(['/crawl', '/crawl/a', '/crawl/b', '/crawl/a/1']));
  });

  it('leaves other hosts out and the start path filter off on request', async () => {
    const all = paths(await map('/crawl', { filterByPath: false, sitemap: 'skip' }));
    expect(all).toContain('/article');
    expect(all.some((p) => p.includes('localhost'))).toBe(false);
  });

  it('ranks search hits first and keeps the rest', async () => {
    const links = paths(await map('/crawl', { search: 'orphan' }));
    expect(links.slice(0, 2).sort()).toEqual(['/crawl/orphan-1', '/crawl/orphan-2']);
    expect(links.length).toBeGreaterThan(2);
  });

  it('honours limit', async () => {
    expect(await map('/crawl/big', { limit: 7 })).toHaveLength(7);
    expect(await map('/crawl/big', { limit: 1 })).toHaveLength(1);
  });

  it('fails with MAP_TIMEOUT when the required work overruns timeout', async () => {
    const err = await map('/crawl/slow/1', { timeout: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('MAP_TIMEOUT');
    expect((err as ApiError).status).toBe(408);
  });

  it('never times out because of the optional walk', async () => {
    const links = paths(await map('/crawl/slow', { timeout: 500, sitemap: 'skip' }));
    expect(links).toEqual(expect.arrayContaining(['/crawl/slow', '/crawl/slow/1', '/crawl/slow/5']));
  });

  it('refuses a blocked host up front', async () => {
    const err = await service.map({ ...defaults, url: 'http://169.254.169.254/' }, ctx).catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(403);
  });

  it('reports why when the start page was all there was and it failed', async () => {
    const dead = await startFixtureSite();
    await dead.close();
    const err = await service.map({ ...defaults, url: `${dead.url}/` }, ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(500);
  });
});

describe('rank', () => {
  const e = (url: string, title?: string) => (title ? { url, title } : { url });
  it('puts URL hits before title hits before the rest, stable within a score', () => {
    const ranked = rank([e('https://x.com/a'), e('https://x.com/b', 'Pricing plans'), e('https://x.com/pricing'), e('https://x.com/c'), e('https://x.com/pricing-faq')], 'pricing');
    expect(ranked.map((r) => r.url)).toEqual(['https://x.com/pricing', 'https://x.com/pricing-faq', 'https://x.com/b', 'https://x.com/a', 'https://x.com/c']);
  });

  it('scores several terms and the whole phrase, and leaves order alone without terms', () => {
    const list = [e('https://x.com/blog'), e('https://x.com/api-docs'), e('https://x.com/docs')];
    expect(rank(list, 'API docs').map((r) => r.url)[0]).toBe('https://x.com/api-docs');
    expect(rank(list, '  ')).toEqual(list);
    expect(rank(list, undefined)).toEqual(list);
    expect(rank([e('https://x.com/caf%C3%A9')], 'café')[0]!.url).toBe('https://x.com/caf%C3%A9');
  });

  it('puts the page named exactly by the search first', () => {
    const list = [e('https://x.com/docs/sql-selectinto.html'), e('https://x.com/docs/sql-select-list.html'), e('https://x.com/docs/sql-select.html'), e('https://x.com/docs/queries.html', 'SELECT')];
    expect(rank(list, 'sql-select')[0]!.url).toBe('https://x.com/docs/sql-select.html');
  });
});
