/**
 * Crawl and batch pages are retried as the job catalog and the error catalog say: a page that
 * fails with an error another attempt may mend (a 5xx answer, a scrape timeout) is tried again
 * after a backoff and ends up in the results; a page whose failure is final (a 404, a refused
 * address) is asked for exactly once. The fixture site counts the requests. Runs on the embedded
 * store and queue, and again on PostgreSQL and BullMQ when DATABASE_URL and REDIS_URL are set.
 */
import Firecrawl, { type Document } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
const tasks = { crawlPage: { attempts: 3 }, batchPage: { attempts: 3 } };
import { RETRY_FAILURES } from '../fixture-site/flaky.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

const distributed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const modes = [{ name: 'embedded', embedded: true }, ...(distributed ? [{ name: 'distributed', embedded: false }] : [])];

const byPath = (docs: Document[], origin: string) => new Map(docs.map((d) => [(d.metadata?.sourceURL ?? '').replace(origin, ''), d]));

describe.each(modes)('page retries ($name)', ({ name, embedded }) => {
  let site: FixtureSite;
  let gleaner: TestGleaner;
  let fc: Firecrawl;

  beforeAll(async () => {
    site = await startFixtureSite();
    gleaner = await startGleaner({ embedded, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
    await site?.close();
  });

  it('the catalog gives page tasks room for the failures the fixture pages make', () => {
    for (const spec of [tasks.crawlPage, tasks.batchPage]) expect(spec.attempts).toBeGreaterThan(Math.max(...Object.values(RETRY_FAILURES)));
  });

  it('a crawl retries a 5xx and a timed-out page until they answer, and asks for final failures once', async () => {
    const area = `/retry/crawl-${name}`;
    const job = await fc.crawl(`${site.url}${area}`, { sitemap: 'skip', scrapeOptions: { timeout: 2000 }, pollInterval: 1, timeout: 120 });
    expect(job.status).toBe('completed');
    const docs = byPath(job.data, site.url);
    expect([...docs.keys()].sort()).toEqual([area, `${area}/hang`, `${area}/missing`, `${area}/unstable`].sort());
    expect(docs.get(`${area}/unstable`)?.metadata?.statusCode).toBe(200);
    expect(docs.get(`${area}/unstable`)?.markdown).toContain('Unstable page');
    expect(docs.get(`${area}/hang`)?.markdown).toContain('Hanging page');
    expect(docs.get(`${area}/missing`)?.metadata?.statusCode).toBe(404);

    expect(site.hits.get(`${area}/unstable`)).toBe(RETRY_FAILURES.unstable + 1);
    expect(site.hits.get(`${area}/hang`)).toBe(RETRY_FAILURES.hang + 1);
    expect(site.hits.get(`${area}/missing`)).toBe(1);
    expect(site.hits.get(`${area}/private`)).toBe(1);

    const { errors } = await fc.getCrawlErrors(job.id);
    expect(errors.map((e) => [e.url.replace(site.url, ''), e.code])).toEqual([[`${area}/private`, 'URL_BLOCKED']]);
  });

  it('a batch scrape retries the same way, and keeps the last answer once its attempts run out', async () => {
    const area = `/retry/batch-${name}`;
    const urls = ['unstable', 'down', 'missing', 'private'].map((p) => `${site.url}${area}/${p}`);
    const job = await fc.batchScrape(urls, { options: { timeout: 2000 }, pollInterval: 1, timeout: 120 });
    expect(job.status).toBe('completed');
    const docs = byPath(job.data, site.url);
    expect([...docs.keys()].sort()).toEqual([`${area}/down`, `${area}/missing`, `${area}/unstable`]);
    expect(docs.get(`${area}/unstable`)?.metadata?.statusCode).toBe(200);
    expect(docs.get(`${area}/down`)?.metadata?.statusCode).toBe(503);
    expect(docs.get(`${area}/missing`)?.metadata?.statusCode).toBe(404);
    expect(site.hits.get(`${area}/unstable`)).toBe(RETRY_FAILURES.unstable + 1);
    expect(site.hits.get(`${area}/down`)).toBe(tasks.batchPage.attempts);
    expect(site.hits.get(`${area}/missing`)).toBe(1);
    expect(site.hits.get(`${area}/private`)).toBe(1);
  });
});
