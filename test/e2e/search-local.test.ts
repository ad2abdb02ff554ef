/**
 * The local index through the official SDK: pages a team scrapes, crawls and batch-scrapes are
 * found by its searches (and no other team's), ranked with title and URL boosts, filtered by
 * domain and date, with snippets from the best passage; pages leave the index when they expire
 * or disappear. Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeWatchedPage, setWatchedPage } from '../fixture-site/monitor-pages.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

type Hit = { url: string; title?: string; description?: string; position?: number };

let site: FixtureSite;
let g: TestGleaner;
let fc: Firecrawl;
const lib = (slug: string) => `${site.url}/library/${slug}`;
const urlsOf = (web: unknown[] | undefined) => (web as Hit[]).map((h) => h.url);

beforeAll(async () => {
  site = await startFixtureSite();
  g = await startGleaner({ env: { TRANSFORM_THREADS: '0' } });
  fc = new Firecrawl({ apiKey: g.key, apiUrl: g.url });
  for (const slug of ['oolong-tea-storage', 'matcha-history', 'kettle-thermometer', 'water-notes', 'chai-brewing']) {
    await fc.scrape(lib(slug), { formats: ['markdown'] });
  }
}, 60_000);
afterAll(async () => {
  await g?.close();
  await site?.close();
});

describe('with no web provider configured', () => {
  it('finds the pages the team scraped, says where the results come from, and snippets the best passage', async () => {
    const res = await fc.search('oolong storage');
    expect(urlsOf(res.web)[0]).toBe(lib('oolong-tea-storage'));
    expect(res.warning).toMatch(/No web search provider is configured.*local index/);
    const top = res.web![0] as Hit;
    expect(top.title).toBe('Oolong tea storage');
    expect(top.description).toMatch(/storage oolong tea/i);
    expect(top.position).toBe(1);
  });

  it('ranks a page with the word in its title above one that repeats it in its text', async () => {
    const res = await fc.search('thermometer', { limit: 5 });
    expect(urlsOf(res.web).slice(0, 2)).toEqual([lib('kettle-thermometer'), lib('water-notes')]);
    const kettle = await fc.search('kettle', { limit: 5 });
    expect(urlsOf(kettle.web)[0]).toBe(lib('kettle-thermometer'));
  });

  it('finds a page by the words of its address', async () => {
    const res = await fc.search('chai-brewing', { limit: 1 });
    expect(urlsOf(res.web)).toEqual([lib('chai-brewing')]);
  });

  it('falls back to any of the words when no page has them all', async () => {
    const res = await fc.search('matcha zeppelin', { limit: 3 });
    expect(urlsOf(res.web)).toContain(lib('matcha-history'));
  });

  it('filters by domain and by date', async () => {
    expect(urlsOf((await fc.search('matcha', { includeDomains: ['127.0.0.1'] })).web)).toContain(lib('matcha-history'));
    expect((await fc.search('matcha', { excludeDomains: ['127.0.0.1'] })).web).toEqual([]);
    expect(urlsOf((await fc.search('matcha', { tbs: 'qdr:h' })).web)).toContain(lib('matcha-history'));
    expect((await fc.search('matcha', { tbs: 'cdr:1,cd_min:1/1/2001,cd_max:12/31/2001' })).web).toEqual([]);
  });

  it('shows a team only its own pages', async () => {
    const teamId = await g.rt.keys.ensureTeam('another-team');
    const { key } = await g.rt.keys.create({ teamId, name: 'other' });
    const other = new Firecrawl({ apiKey: key, apiUrl: g.url });
    expect((await other.search('oolong storage')).web).toEqual([]);
    await other.scrape(lib('white-tea-history'), { formats: ['markdown'] });
    expect(urlsOf((await other.search('white tea history')).web)).toEqual([lib('white-tea-history')]);
    expect(urlsOf((await fc.search('white tea history')).web)).not.toContain(lib('white-tea-history'));
  });

  it('leaves out pages scraped with storeInCache false or zero data retention', async () => {
    await fc.scrape(lib('rooibos-storage'), { formats: ['markdown'], storeInCache: false });
    // The SDK's scrape has no zeroDataRetention field; the HTTP body does.
    const zdr = await fetch(`${g.url}/v2/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${g.key}` },
      body: JSON.stringify({ url: lib('rooibos-history'), formats: ['markdown'], zeroDataRetention: true }),
    });
    expect(zdr.status).toBe(200);
    expect((await fc.search('rooibos')).web).toEqual([]);
  });

  it('indexes the pages of crawls and batch scrapes', async () => {
    await fc.crawl(`${site.url}/crawl`, { limit: 5, pollInterval: 1, timeout: 60 });
    expect(urlsOf((await fc.search('crawl root')).web)).toContain(`${site.url}/crawl`);
    await fc.batchScrape([lib('black-tea-history'), lib('herbal-tea-history')], { options: { formats: ['markdown'] }, pollInterval: 1, timeout: 60 });
    const res = await fc.search('history', { includeDomains: ['127.0.0.1'], limit: 10 });
    expect(urlsOf(res.web)).toEqual(expect.arrayContaining([lib('black-tea-history'), lib('herbal-tea-history')]));
  });

  it('drops a page that is gone when it is fetched again', async () => {
    setWatchedPage('vanishing', '<p>A quince jelly recipe that will vanish.</p>');
    await fc.scrape(`${site.url}/watch-plain/vanishing`, { formats: ['markdown'] });
    expect(urlsOf((await fc.search('quince jelly')).web)).toEqual([`${site.url}/watch-plain/vanishing`]);
    removeWatchedPage('vanishing');
    await fc.scrape(`${site.url}/watch-plain/vanishing`, { formats: ['markdown'], maxAge: 0 });
    expect((await fc.search('quince jelly')).web).toEqual([]);
  });

  it('forgets pages when they expire', async () => {
    await fc.scrape(lib('green-tea-storage'), { formats: ['markdown'] });
    expect(urlsOf((await fc.search('green tea storage')).web)).toContain(lib('green-tea-storage'));
    // What housekeeping does once a page is older than the cache keeps pages.
    await g.rt.search.index.purge(Date.now() + 1);
    expect((await fc.search('green tea storage')).web).toEqual([]);
  });
});

describe('map', () => {
  it("lists the site's pages the team fetched before, beside the links it discovers, with sitemap 'skip'", async () => {
    // Only the sitemap lists this page; no page links to it.
    await fc.scrape(`${site.url}/crawl/orphan-1`, { formats: ['markdown'] });
    const { links } = await fc.map(`${site.url}/crawl`, { sitemap: 'skip' });
    const paths = links.map((l) => l.url.replace(site.url, ''));
    expect(paths).toEqual(expect.arrayContaining(['/crawl', '/crawl/a', '/crawl/b', '/crawl/orphan-1']));
    expect(paths.some((p) => p.startsWith('/library/'))).toBe(false);
  });
});

describe('with a web provider configured', () => {
  it('still answers from the local index when a source asks for provider "local"', async () => {
    // An instance that is not there: a local request must never need it.
    const other = await startGleaner({ env: { TRANSFORM_THREADS: '0', SEARXNG_URL: 'http://127.0.0.1:9' }, workers: false });
    try {
      const ofc = new Firecrawl({ apiKey: other.key, apiUrl: other.url });
      await ofc.scrape(lib('black-tea-storage'), { formats: ['markdown'] });
      const res = await fetch(`${other.url}/v2/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${other.key}` },
        body: JSON.stringify({ query: 'black tea storage', sources: [{ type: 'web', provider: 'local' }] }),
      });
      const body = (await res.json()) as { success: boolean; data: { web: Hit[] }; warning?: string };
      expect(res.status).toBe(200);
      expect(body.data.web.map((h) => h.url)).toEqual([lib('black-tea-storage')]);
      expect(body.warning).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
