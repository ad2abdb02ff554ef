/**
 * `lockdown` and `minAge` everywhere a scrape happens: a monitor check with them reads the cache
 * as a scrape does and never fetches; a lockdown crawl reads its pages from the cache and asks
 * the site for nothing, robots.txt and sitemaps included; an explicit `maxAge` beside lockdown
 * is honoured. The fixture site counts every request it gets, which is the proof.
 */
import { randomBytes } from 'node:crypto';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWatchedPage, watchedRequests } from '../fixture-site/monitor-pages.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

const distributed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const modes = [{ name: 'embedded', embedded: true }, ...(distributed ? [{ name: 'distributed', embedded: false }] : [])];

const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(modes)('lockdown and minAge ($name)', ({ embedded }) => {
  let site: FixtureSite;
  let gleaner: TestGleaner;
  let fc: Firecrawl;

  beforeAll(async () => {
    // A site of its own per mode, so its request counts are this mode's alone.
    site = await startFixtureSite();
    gleaner = await startGleaner({ embedded, env: { RATE_LIMIT_PER_MINUTE: '100000', MONITOR_TICK_MS: '200' } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
    await site?.close();
  });

  const totalHits = () => [...site.hits.values()].reduce((a, b) => a + b, 0);

  async function runAndWait(monitorId: string) {
    const started = await fc.runMonitor(monitorId);
    for (;;) {
      const detail = await fc.getMonitorCheck(monitorId, started.id);
      if (!['queued', 'running'].includes(detail.status)) return detail;
      await sleep(100);
    }
  }

  describe('monitor checks', () => {
    it('with lockdown read the cache only and never fetch', async () => {
      const name = unique('locked');
      setWatchedPage(name, '<p>Version one of the locked page.</p>');
      const url = `${site.url}/watch/${name}`;
      const m = await fc.createMonitor({ name: 'lockdown', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: [url], scrapeOptions: { lockdown: true } as never }] });

      const miss = await runAndWait(m.id);
      expect(miss.pages[0]).toMatchObject({ status: 'error' });
      expect(miss.pages[0]!.error).toContain('SCRAPE_LOCKDOWN_CACHE_MISS');
      expect(watchedRequests(name).total).toBe(0);

      // An ordinary scrape puts the page in the cache: the one request the site ever sees.
      await fc.scrape(url);
      expect(watchedRequests(name).total).toBe(1);
      const hit = await runAndWait(m.id);
      expect(hit.pages[0]).toMatchObject({ status: 'new', error: null });
      setWatchedPage(name, '<p>Version two, which a live check would see.</p>');
      const again = await runAndWait(m.id);
      expect(again.pages[0]!.status).toBe('same');
      expect(watchedRequests(name).total).toBe(1);
    });

    it('with minAge read the cache only, as a scrape with minAge does', async () => {
      const name = unique('aged');
      setWatchedPage(name, '<p>A page read from the cache.</p>');
      const url = `${site.url}/watch/${name}`;
      const m = await fc.createMonitor({ name: 'minAge', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: [url], scrapeOptions: { minAge: 1 } as never }] });
      const miss = await runAndWait(m.id);
      expect(miss.pages[0]!.error).toContain('SCRAPE_NO_CACHED_DATA');
      expect(watchedRequests(name).total).toBe(0);
      await fc.scrape(url);
      await sleep(5);
      const hit = await runAndWait(m.id);
      expect(hit.pages[0]).toMatchObject({ status: 'new', error: null });
      expect(watchedRequests(name).total).toBe(1);
    });
  });

  describe('lockdown', () => {
    it('honours an explicit maxAge', async () => {
      const url = `${site.url}/article?lockdown=max-age`;
      await fc.scrape(url);
      await sleep(5);
      const before = totalHits();
      expect((await fc.scrape(url, { lockdown: true } as never)).metadata?.cacheState).toBe('hit');
      const tooOld = await sdkError(fc.scrape(url, { lockdown: true, maxAge: 1 } as never));
      expect(tooOld.code).toBe('SCRAPE_LOCKDOWN_CACHE_MISS');
      expect(totalHits()).toBe(before);
    });

    it('in a crawl fetches neither robots.txt nor sitemaps nor pages', async () => {
      // The start page is in the cache in the shape a crawl asks for (markdown and links).
      await fc.scrape(`${site.url}/crawl`, { formats: ['markdown', 'links'] });
      const before = totalHits();
      const job = await fc.crawl(`${site.url}/crawl`, { limit: 20, scrapeOptions: { lockdown: true } as never, pollInterval: 1 });
      expect(job.status).toBe('completed');
      expect(job.data.map((d) => new URL(d.metadata!.sourceURL!).pathname)).toEqual(['/crawl']);
      expect(job.data[0]!.metadata?.cacheState).toBe('hit');
      expect(totalHits()).toBe(before);
      for (const path of ['/robots.txt', '/sitemap.xml', '/sitemaps/crawl.xml']) expect(site.hits.get(path) ?? 0, path).toBe(0);
      // The linked pages were looked up in the cache, missed, and were not fetched either.
      const { errors } = await fc.getCrawlErrors(job.id!);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((e) => /lockdown/i.test(e.error))).toBe(true);
    });

    it('in a batch fetches nothing', async () => {
      const before = totalHits();
      const job = await fc.batchScrape([`${site.url}/article?lockdown=batch`], { options: { lockdown: true } as never, pollInterval: 1 });
      // Its only page missed the cache: nothing came back, and nothing was asked of the site.
      expect(job.status).toBe('failed');
      expect(job.data).toEqual([]);
      expect(totalHits()).toBe(before);
    });
  });
});
