/**
 * Pages and patterns built to hurt a crawler must never hold the process hostage: a crawl's
 * include/exclude patterns are a user's code run on every discovered link, and a page may link
 * to hundreds of thousands of others. Through the official SDK against a running Gleaner and the
 * fixture site's hostile pages.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlRequestSchema } from '../../src/crawl/options.js';
import { startWorkers } from '../../src/workers.js';
import { REDOS_RUN } from '../fixture-site/hostile.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

describe('crawl path patterns', () => {
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

  it('refuses a lookahead with a 400 naming the pattern and why', async () => {
    const err = await sdkError(fc.startCrawl(`${site.url}/hostile/redos`, { includePaths: ['^/ok', '(a+)+(?=b)'] }));
    expect(err.status).toBe(400);
    const details = err.details as Array<{ path: (string | number)[]; message: string }>;
    expect(details).toHaveLength(1);
    expect(details[0]!.path).toEqual(['includePaths', 1]);
    expect(details[0]!.message).toContain('(a+)+(?=b)');
    expect(details[0]!.message).toMatch(/lookahead/i);
    const back = await sdkError(fc.startCrawl(`${site.url}/hostile/redos`, { excludePaths: ['^/(\\w+)/\\1'] }));
    expect(back.status).toBe(400);
    expect(JSON.stringify(back.details)).toMatch(/excludePaths.*backreference/i);
  });

  it("refuses the same pattern in a monitor's crawl target", async () => {
    const res = await fetch(`${gleaner.url}/v2/monitor`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gleaner.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'patterns',
        schedule: { cron: '0 * * * *' },
        targets: [{ type: 'crawl', url: `${site.url}/hostile/redos`, crawlOptions: { includePaths: ['(a+)+(?=b)'] } }],
      }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { details: Array<{ path: (string | number)[]; message: string }> };
    const issue = body.details.find((d) => d.path.includes('includePaths'));
    expect(issue?.message).toContain('(a+)+(?=b)');
    expect(issue?.message).toMatch(/lookahead/i);
  });

  it('runs a pattern exponential for a backtracking engine over 10,000-character paths while the server keeps answering', async () => {
    // On a backtracking engine each test of `/hostile/redos/a{10000}!` never returns.
    const started = await fc.startCrawl(`${site.url}/hostile/redos`, { includePaths: ['^/hostile/redos/(a+)+(?<=a)$'], sitemap: 'skip' });
    while (!site.hits.get('/hostile/redos')) await new Promise((r) => setTimeout(r, 20));
    const health = await fetch(`${gleaner.url}/health`);
    expect(health.status).toBe(200);
    let job = await fc.getCrawlStatus(started.id);
    while (job.status === 'scraping') {
      expect((await fetch(`${gleaner.url}/health`)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
      job = await fc.getCrawlStatus(started.id);
    }
    expect(job.status).toBe('completed');
    // The whole path is judged: the run of 10,000 a's is in, the same run ending in `!` is not.
    const paths = job.data.map((d) => new URL(d.metadata!.sourceURL!).pathname).sort();
    expect(paths).toEqual(['/hostile/redos', '/hostile/redos/aaaa', `/hostile/redos/${'a'.repeat(REDOS_RUN)}`].sort());
  });

  it('fails a stored job whose pattern an older version accepted, without running it, and goes on with the next', async () => {
    const idle = await startGleaner({ embedded: true, workers: false });
    try {
      const req = crawlRequestSchema.parse({ url: `${site.url}/hostile/redos?stored`, sitemap: 'skip' });
      const bad = await idle.rt.crawls.startCrawl(idle.teamId, { ...req, includePaths: ['(a+)+(?=b)'] }, undefined, idle.url);
      const good = await idle.rt.crawls.startCrawl(idle.teamId, { ...req, url: `${site.url}/hostile/redos/aaaa`, includePaths: ['^/x'] }, undefined, idle.url);
      const hitsBefore = site.hits.get('/hostile/redos') ?? 0;
      const workers = startWorkers(idle.rt);
      try {
        const idleFc = new Firecrawl({ apiKey: idle.key, apiUrl: idle.url });
        const waitEnd = async (id: string) => {
          for (;;) {
            const s = await idleFc.getCrawlStatus(id);
            if (s.status !== 'scraping') return s;
            await new Promise((r) => setTimeout(r, 50));
          }
        };
        expect((await waitEnd(bad.id)).status).toBe('failed');
        expect((await waitEnd(good.id)).status).toBe('completed');
        expect(site.hits.get('/hostile/redos') ?? 0).toBe(hitsBefore);
        const record = await idle.rt.crawlRepo.jobs.get(bad.id);
        expect(record?.error).toMatch(/includePaths.*\(a\+\)\+\(\?=b\).*lookahead/i);
      } finally {
        workers.stop();
      }
    } finally {
      await idle.close();
    }
  });

  it('follows at most CRAWL_MAX_LINKS_PER_PAGE links of a page, the first in document order', async () => {
    const capped = await startGleaner({ embedded: true, overrides: { crawlMaxLinksPerPage: 25 } });
    try {
      const cfc = new Firecrawl({ apiKey: capped.key, apiUrl: capped.url });
      const started = await cfc.startCrawl(`${site.url}/hostile/links?n=200`, { limit: 1000, sitemap: 'skip', crawlEntireDomain: true });
      let job = await cfc.getCrawlStatus(started.id);
      while (job.status === 'scraping') {
        expect((await fetch(`${capped.url}/health`)).status).toBe(200);
        await new Promise((r) => setTimeout(r, 100));
        job = await cfc.getCrawlStatus(started.id, { autoPaginate: true });
      }
      expect(job.status).toBe('completed');
      const paths = job.data.map((d) => new URL(d.metadata!.sourceURL!).pathname);
      expect(paths.sort()).toEqual(['/hostile/links', ...Array.from({ length: 25 }, (_, i) => `/hostile/links/${i}`)].sort());
      expect(job.total).toBe(26);
    } finally {
      await capped.close();
    }
  });

  it('does not cache a page whose Document is over CACHE_MAX_DOCUMENT_MB, and serves its crawl status whole', async () => {
    const small = await startGleaner({ embedded: true, overrides: { cacheMaxDocumentChars: 64 * 1024 } });
    try {
      const sfc = new Firecrawl({ apiKey: small.key, apiUrl: small.url });
      const big = `${site.url}/hostile/links?n=5000`;
      const first = await sfc.scrape(big, { formats: ['markdown'] });
      expect(first.markdown!.length).toBeGreaterThan(64 * 1024);
      const again = await sfc.scrape(big, { formats: ['markdown'] });
      expect(again.metadata?.cacheState).toBe('miss');
      const leaf = `${site.url}/hostile/links/1`;
      await sfc.scrape(leaf, { formats: ['markdown'] });
      expect((await sfc.scrape(leaf, { formats: ['markdown'] })).metadata?.cacheState).toBe('hit');

      const job = await sfc.crawl(big, { limit: 1, sitemap: 'skip', scrapeOptions: { formats: ['markdown', 'links'] } });
      expect(job.status).toBe('completed');
      expect(job.data).toHaveLength(1);
      expect(job.data[0]!.markdown).toBe(first.markdown);
      expect(job.data[0]!.links).toHaveLength(5000);
    } finally {
      await small.close();
    }
  });
});

