/**
 * A monitor check whose crawl target is still crawling holds no check worker: it comes back
 * through the queue until the crawl has ended. With one check worker, another monitor's check
 * runs and ends while the first one's crawl waits on a page the test holds open. Runs embedded,
 * and on PostgreSQL and BullMQ when DATABASE_URL and REDIS_URL are set.
 */
import { randomBytes } from 'node:crypto';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

const distributed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const modes = [{ name: 'embedded', embedded: true }, ...(distributed ? [{ name: 'distributed', embedded: false }] : [])];

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe.each(modes)('a monitor waiting for its crawl ($name)', ({ name, embedded }) => {
  let site: FixtureSite;
  let gleaner: TestGleaner;
  let fc: Firecrawl;

  beforeAll(async () => {
    site = await startFixtureSite();
    gleaner = await startGleaner({ embedded, env: { RATE_LIMIT_PER_MINUTE: '100000', MONITOR_CONCURRENCY: '1' } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
    await site?.close();
  });

  const ended = (monitorId: string, checkId: string) =>
    until(`check ${checkId}`, async () => {
      const c = await fc.getMonitorCheck(monitorId, checkId);
      return ['queued', 'running'].includes(c.status) ? undefined : c;
    });

  it("lets another monitor's check run to its end while its crawl is still going", async () => {
    const held = `monitor-${name}-${randomBytes(4).toString('hex')}`;
    const crawling = await fc.createMonitor({
      name: 'crawl that waits',
      schedule: { cron: '0 * * * *' },
      targets: [{ type: 'crawl', url: `${site.url}/hold/${held}`, crawlOptions: { limit: 1, sitemap: 'skip' }, scrapeOptions: { timeout: 120_000 } }],
    });
    const scraping = await fc.createMonitor({ name: 'quick scrape', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: [`${site.url}/article`] }] });

    const waiting = await fc.runMonitor(crawling.id);
    await until('the crawl to ask for the held page', () => (site.hits.get(`/hold/${held}`) === 1 ? true : undefined));
    const quick = await fc.runMonitor(scraping.id);
    expect((await ended(scraping.id, quick.id)).status).toBe('completed');
    expect((await fc.getMonitorCheck(crawling.id, waiting.id)).status).toBe('running');

    await fetch(`${site.url}/hold/${held}/release`);
    const done = await ended(crawling.id, waiting.id);
    expect(done.status).toBe('completed');
    expect(done.summary).toMatchObject({ totalPages: 1, new: 1 });
    expect(done.targetResults).toEqual([expect.objectContaining({ targetId: crawling.targets[0]!.id, type: 'crawl', crawlId: expect.any(String) })]);
  });
});
