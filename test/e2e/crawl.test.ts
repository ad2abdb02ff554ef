/**
 * Crawl and batch scrape through the official SDK against a running Gleaner and the fixture
 * site's crawl tree: discovery, scope rules, robots.txt, sitemaps, paging, the watcher, cancel,
 * errors and signed webhooks. Runs on the embedded store and queue, and again on PostgreSQL and
 * BullMQ when DATABASE_URL and REDIS_URL are set.
 */
import { createHmac } from 'node:crypto';
import Firecrawl, { type Document } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRAWL_TREE, CRAWL_TREE_NO_QUERY, ROBOTS_BLOCKED } from '../fixture-site/crawl-tree.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { sdkError } from '../helpers/sdk-error.js';

const distributed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const modes = [{ name: 'embedded', embedded: true }, ...(distributed ? [{ name: 'distributed', embedded: false }] : [])];

const pathsOf = (docs: Document[], origin: string) =>
  docs.map((d) => (d.metadata?.sourceURL ?? '').replace(origin, '')).sort();

describe.each(modes)('crawl and batch scrape ($name)', ({ embedded }) => {
  let site: FixtureSite;
  let gleaner: TestGleaner;
  let fc: Firecrawl;
  let hooks: WebhookReceiver;

  beforeAll(async () => {
    site = await startFixtureSite();
    hooks = await startWebhookReceiver();
    gleaner = await startGleaner({ embedded, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
    await hooks?.close();
    await site?.close();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${gleaner.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${gleaner.key}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
    });

  describe('a default crawl of the tree', () => {
    let job: Awaited<ReturnType<Firecrawl['crawl']>>;
    beforeAll(async () => {
      job = await fc.crawl(`${site.url}/crawl`, { pollInterval: 1, timeout: 60 });
    });

    it('visits every page reachable by links and sitemaps under the start path, each once', () => {
      expect(job.status).toBe('completed');
      expect(pathsOf(job.data, site.url)).toEqual([...CRAWL_TREE].sort());
      expect(job.total).toBe(CRAWL_TREE.length);
      expect(job.completed).toBe(CRAWL_TREE.length);
      expect(job.creditsUsed).toBe(CRAWL_TREE.length);
    });

    it('shapes each page like a scrape: markdown by default, no links unless asked', () => {
      const root = job.data.find((d) => d.metadata?.sourceURL === `${site.url}/crawl`)!;
      expect(root.markdown).toContain('Crawl root');
      expect(root.links).toBeUndefined();
      expect(root.metadata?.statusCode).toBe(200);
      expect(root.metadata?.scrapeId).toBeTruthy();
    });

    it('serves each page by its scrapeId from GET /v2/scrape/{id}, to its own team only', async () => {
      const root = job.data.find((d) => d.metadata?.sourceURL === `${site.url}/crawl`)!;
      const res = await api(`/v2/scrape/${root.metadata!.scrapeId}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { success: boolean; data: Document };
      expect(body.data.markdown).toBe(root.markdown);
      expect(body.data.metadata?.scrapeId).toBe(root.metadata!.scrapeId);
      const teamId = await gleaner.rt.keys.ensureTeam('scrape-id-reader');
      const { key } = await gleaner.rt.keys.create({ teamId, name: 'other' });
      const other = await fetch(`${gleaner.url}/v2/scrape/${root.metadata!.scrapeId}`, { headers: { authorization: `Bearer ${key}` } });
      expect(other.status).toBe(404);
    });

    it('obeys robots.txt and reports what it blocked', async () => {
      expect(pathsOf(job.data, site.url).some((p) => p.startsWith('/crawl/private'))).toBe(false);
      const errors = await fc.getCrawlErrors(job.id);
      expect(errors.robotsBlocked.map((u) => u.replace(site.url, '')).sort()).toEqual([...ROBOTS_BLOCKED].sort());
      expect(errors.errors).toEqual([]);
      expect(site.hits.get('/crawl/private/secret')).toBeUndefined();
    });
  });

  it('drops query-string duplicates with ignoreQueryParameters', async () => {
    const job = await fc.crawl(`${site.url}/crawl`, { ignoreQueryParameters: true, pollInterval: 1, timeout: 60 });
    expect(pathsOf(job.data, site.url)).toEqual([...CRAWL_TREE_NO_QUERY].sort());
  });

  it('stops at maxDiscoveryDepth and can skip sitemaps', async () => {
    const job = await fc.crawl(`${site.url}/crawl`, { maxDiscoveryDepth: 1, sitemap: 'skip', pollInterval: 1, timeout: 60 });
    expect(pathsOf(job.data, site.url)).toEqual(['/crawl', '/crawl/a', '/crawl/b', '/crawl/b?ref=1', '/crawl/b?ref=2'].sort());
  });

  it('crawls only sitemap URLs with sitemap "only"', async () => {
    const job = await fc.crawl(`${site.url}/crawl`, { sitemap: 'only', maxDiscoveryDepth: 0, pollInterval: 1, timeout: 60 });
    expect(pathsOf(job.data, site.url)).toEqual(['/crawl', '/crawl/a', '/crawl/orphan-1', '/crawl/orphan-2'].sort());
  });

  it('applies includePaths and excludePaths to discovered links, never to the start URL', async () => {
    const included = await fc.crawl(`${site.url}/crawl`, { includePaths: ['^/crawl/a'], pollInterval: 1, timeout: 60 });
    expect(pathsOf(included.data, site.url)).toEqual(['/crawl', '/crawl/a', '/crawl/a/1', '/crawl/a/1/deep'].sort());
    const excluded = await fc.crawl(`${site.url}/crawl`, { excludePaths: ['/b$', '^/crawl/a/'], sitemap: 'skip', pollInterval: 1, timeout: 60 });
    expect(pathsOf(excluded.data, site.url)).toEqual(['/crawl', '/crawl/a'].sort());
  });

  it('follows links to other hosts only with allowExternalLinks', async () => {
    const external = `http://localhost:${site.port}/crawl/external`;
    const without = await fc.crawl(`${site.url}/crawl`, { sitemap: 'skip', pollInterval: 1, timeout: 60 });
    expect(without.data.map((d) => d.metadata?.sourceURL)).not.toContain(external);
    const withExt = await fc.crawl(`${site.url}/crawl`, { sitemap: 'skip', allowExternalLinks: true, maxDiscoveryDepth: 1, pollInterval: 1, timeout: 60 });
    expect(withExt.data.map((d) => d.metadata?.sourceURL)).toContain(external);
  });

  it('honours limit', async () => {
    const job = await fc.crawl(`${site.url}/crawl/big`, { limit: 5, pollInterval: 1, timeout: 60 });
    expect(job.data).toHaveLength(5);
    expect(job.total).toBe(5);
  });

  it('pages results with absolute next URLs that the SDK follows', async () => {
    const job = await fc.crawl(`${site.url}/crawl/big`, { limit: 25, sitemap: 'skip', pollInterval: 1, timeout: 60 });
    expect(job.data).toHaveLength(25);
    const first = (await (await api(`/v2/crawl/${job.id}?limit=10`)).json()) as { data: Document[]; next?: string };
    expect(first.data).toHaveLength(10);
    expect(first.next).toBe(`${gleaner.url}/v2/crawl/${job.id}?skip=10&limit=10`);
    const seen = new Set(first.data.map((d) => d.metadata?.sourceURL));
    let next = first.next;
    while (next) {
      const page = (await (await fetch(next, { headers: { authorization: `Bearer ${gleaner.key}` } })).json()) as { data: Document[]; next?: string };
      for (const d of page.data) seen.add(d.metadata?.sourceURL);
      next = page.next;
    }
    expect(seen.size).toBe(25);
    const all = await fc.getCrawlStatus(job.id);
    expect(all.data).toHaveLength(25);
    expect(all.next).toBeNull();
  });

  it('streams documents to the SDK watcher and ends with done', async () => {
    const started = await fc.startCrawl(`${site.url}/crawl`, { sitemap: 'skip', maxDiscoveryDepth: 1 });
    const watcher = fc.watcher(started.id, { kind: 'crawl', pollInterval: 1 });
    const docs: Document[] = [];
    const done = new Promise<{ status: string }>((resolve, reject) => {
      watcher.on('document', (d: Document) => docs.push(d));
      watcher.on('done', resolve);
      watcher.on('error', reject);
    });
    await watcher.start();
    const end = await done;
    expect(end.status).toBe('completed');
    expect(pathsOf(docs, site.url)).toEqual(['/crawl', '/crawl/a', '/crawl/b', '/crawl/b?ref=1', '/crawl/b?ref=2'].sort());
  });

  it('cancels a running crawl; it is listed as active until then', async () => {
    const started = await fc.startCrawl(`${site.url}/crawl/slow`, { maxConcurrency: 1, sitemap: 'skip' });
    const active = await fc.getActiveCrawls();
    expect(active.crawls.map((c) => c.id)).toContain(started.id);
    expect(await fc.cancelCrawl(started.id)).toBe(true);
    const status = await fc.getCrawlStatus(started.id);
    expect(status.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 1200));
    const later = await fc.getCrawlStatus(started.id);
    expect(later.status).toBe('cancelled');
    expect(later.completed).toBeLessThan(6);
    expect((await fc.getActiveCrawls()).crawls.map((c) => c.id)).not.toContain(started.id);
  });

  it('refuses bad input with catalog errors', async () => {
    const badRegex = await sdkError(fc.startCrawl(`${site.url}/crawl`, { includePaths: ['(unclosed'] }));
    expect(badRegex.status).toBe(400);
    expect(JSON.stringify(badRegex.details)).toContain('includePaths');
    expect((await sdkError(fc.startCrawl('not a url at all'))).status).toBe(400);
    expect((await sdkError(fc.startCrawl('http://169.254.169.254/latest/meta-data/'))).status).toBe(403);
    expect((await sdkError(fc.getCrawlStatus('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await sdkError(fc.getCrawlErrors('invalid-job-id-12345'))).status).toBe(404);
    expect((await api('/v2/crawl', { method: 'POST', body: JSON.stringify({ url: `${site.url}/crawl`, limit: 0 }) })).status).toBe(400);
    expect((await api('/v2/crawl', { method: 'POST', body: JSON.stringify({ url: `${site.url}/crawl`, scrapeOptions: { formats: ['audio'] } }) })).status).toBe(400);
  });

  it('keeps teams apart: another team cannot read or cancel a crawl', async () => {
    const started = await fc.startCrawl(`${site.url}/crawl/a/1/deep`, { sitemap: 'skip', limit: 1 });
    const teamId = await gleaner.rt.keys.ensureTeam('other-team');
    const { key } = await gleaner.rt.keys.create({ teamId, name: 'other' });
    const other = new Firecrawl({ apiKey: key, apiUrl: gleaner.url });
    expect((await sdkError(other.getCrawlStatus(started.id))).status).toBe(404);
    expect((await sdkError(other.cancelCrawl(started.id))).status).toBe(404);
  });

  it('refuses a reused idempotency key with 409', async () => {
    const body = JSON.stringify({ url: `${site.url}/crawl/a/1/deep`, limit: 1, sitemap: 'skip' });
    const key = `idem-${Date.now()}`;
    const first = await api('/v2/crawl', { method: 'POST', body, headers: { 'x-idempotency-key': key } });
    expect(first.status).toBe(200);
    const again = await api('/v2/crawl', { method: 'POST', body, headers: { 'x-idempotency-key': key } });
    expect(again.status).toBe(409);
  });

  it('sends signed webhooks in order: started, one page per document, completed; retried on failure', async () => {
    const secret = await gleaner.rt.webhooks.secretFor(gleaner.teamId);
    hooks.failNext('crawl.page', 2);
    const started = await fc.startCrawl(`${site.url}/crawl`, {
      sitemap: 'skip',
      maxDiscoveryDepth: 1,
      webhook: { url: hooks.url, headers: { 'x-test': 'yes' }, metadata: { run: 'r1' } },
    });
    const mine = (ds: ReturnType<WebhookReceiver['accepted']>) => ds.filter((d) => d.body.id === started.id);
    const got = mine(await hooks.waitFor((ds) => mine(ds).some((d) => d.body.type === 'crawl.completed')));
    const types = got.map((d) => d.body.type);
    expect(types[0]).toBe('crawl.started');
    expect(types.at(-1)).toBe('crawl.completed');
    expect(types.filter((t) => t === 'crawl.page')).toHaveLength(5);
    for (const d of got) {
      expect(d.headers['x-firecrawl-signature']).toBe(`sha256=${createHmac('sha256', secret).update(d.raw).digest('hex')}`);
      expect(d.headers['x-test']).toBe('yes');
      expect(d.body.metadata).toEqual({ run: 'r1' });
    }
    const page = got.find((d) => d.body.type === 'crawl.page')!;
    expect((page.body.data[0] as Document).markdown).toBeTruthy();
    expect(hooks.attempts().filter((d) => d.body.id === started.id && d.answered === 500)).toHaveLength(2);
  });

  describe('batch scrape', () => {
    it('scrapes every listed URL and reports the invalid ones', async () => {
      const urls = [`${site.url}/crawl/a`, `${site.url}/crawl/b`, `${site.url}/article`, 'ftp://nope.example/'];
      const job = await fc.batchScrape(urls, { options: { formats: ['markdown', 'links'] }, pollInterval: 1, timeout: 60 });
      expect(job.status).toBe('completed');
      expect(pathsOf(job.data, site.url)).toEqual(['/article', '/crawl/a', '/crawl/b']);
      expect(job.data.every((d) => Array.isArray(d.links))).toBe(true);
      const started = await fc.startBatchScrape([`${site.url}/crawl/a`, 'ftp://nope.example/']);
      expect(started.invalidURLs).toEqual(['ftp://nope.example/']);
    });

    it('refuses invalid URLs when ignoreInvalidURLs is false', async () => {
      const err = await sdkError(fc.startBatchScrape([`${site.url}/crawl/a`, 'ftp://nope.example/'], { ignoreInvalidURLs: false }));
      expect(err.status).toBe(400);
    });

    it('lists failed pages in its errors', async () => {
      const dead = 'http://127.0.0.1:9/never';
      const job = await fc.batchScrape([`${site.url}/crawl/a`, dead], { pollInterval: 1, timeout: 60 });
      expect(job.data).toHaveLength(1);
      const errors = await fc.getBatchScrapeErrors(job.id);
      expect(errors.errors.map((e) => e.url)).toEqual([dead]);
      expect(errors.errors[0]!.error).toBeTruthy();
    });

    it('refuses a reused idempotency key with 409', async () => {
      const key = `batch-${Date.now()}`;
      await fc.startBatchScrape([`${site.url}/crawl/a`], { idempotencyKey: key });
      expect((await sdkError(fc.startBatchScrape([`${site.url}/crawl/a`], { idempotencyKey: key }))).status).toBe(409);
    });

    it('appends URLs to a running batch and streams to the watcher', async () => {
      const started = await fc.startBatchScrape([`${site.url}/crawl/slow/1`, `${site.url}/crawl/slow/2`], { maxConcurrency: 1 });
      await fc.startBatchScrape([`${site.url}/crawl/slow/3`], { appendToId: started.id });
      const watcher = fc.watcher(started.id, { kind: 'batch', pollInterval: 1 });
      const docs: Document[] = [];
      const done = new Promise((resolve, reject) => {
        watcher.on('document', (d: Document) => docs.push(d));
        watcher.on('done', resolve);
        watcher.on('error', reject);
      });
      await watcher.start();
      await done;
      expect(pathsOf(docs, site.url)).toEqual(['/crawl/slow/1', '/crawl/slow/2', '/crawl/slow/3']);
    });

    it('cancels a batch', async () => {
      const started = await fc.startBatchScrape([1, 2, 3, 4, 5].map((n) => `${site.url}/crawl/slow/${n}`), { maxConcurrency: 1 });
      expect(await fc.cancelBatchScrape(started.id)).toBe(true);
      expect((await fc.getBatchScrapeStatus(started.id)).status).toBe('cancelled');
    });
  });
});
