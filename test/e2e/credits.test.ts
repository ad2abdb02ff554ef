/**
 * Credits through the official SDK: each feature's charge is its row of the cost table, the
 * usage endpoints read the same ledger, a team that cannot pay gets 402 before anything is
 * fetched, a crawl that runs out stops and keeps its pages, replays charge nothing, and racing
 * scrapes overdraw by at most the work in flight. Embedded, and on PostgreSQL and BullMQ when
 * DATABASE_URL and REDIS_URL are set.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COSTS } from '../../src/billing/costs.js';
import { CRAWL_TREE } from '../fixture-site/crawl-tree.js';
import { serveDocumentAt } from '../fixture-site/documents.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { closeDocumentBrowser, htmlToPdf, reportHtml, REPORT } from '../helpers/documents.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

const distributed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const modes = [{ name: 'embedded', embedded: true }, ...(distributed ? [{ name: 'distributed', embedded: false }] : [])];

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
  serveDocumentAt('/docs/credits-report.pdf', await htmlToPdf(reportHtml()), 'application/pdf');
  await closeDocumentBrowser();
});
afterAll(async () => {
  await site?.close();
});

describe.each(modes)('credits ($name)', ({ embedded }) => {
  let gleaner: TestGleaner;
  let n = 0;

  beforeAll(async () => {
    gleaner = await startGleaner({ embedded, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(async () => {
    await gleaner?.close();
  });

  /** A team of its own with `credits` per period, and an SDK client on its key. */
  async function team(credits: number) {
    const teamId = await gleaner.rt.keys.ensureTeam(`credits-${n++}`);
    await gleaner.rt.ledger.setPeriodCredits(teamId, credits);
    const { id: keyId, key } = await gleaner.rt.keys.create({ teamId, name: 'credits' });
    const fc = new Firecrawl({ apiKey: key, apiUrl: gleaner.url });
    const remaining = async () => (await fc.getCreditUsage()).remainingCredits;
    return { teamId, keyId, key, fc, remaining };
  }

  const unique = () => `${site.url}/article?credits=${n++}`;

  it('reports the period, the plan credits and the balance through getCreditUsage', async () => {
    const t = await team(40);
    const usage = await t.fc.getCreditUsage();
    expect(usage.remainingCredits).toBe(40);
    expect(usage.planCredits).toBe(40);
    expect(new Date(usage.billingPeriodStart!).getUTCDate()).toBe(1);
    expect(Date.parse(usage.billingPeriodEnd!)).toBeGreaterThan(Date.now());
  });

  it('charges a page 1 credit, and creditsUsed is the charge', async () => {
    const t = await team(40);
    const doc = await t.fc.scrape(unique(), { maxAge: 0 });
    expect(doc.metadata?.creditsUsed).toBe(COSTS.page);
    expect(await t.remaining()).toBe(40 - COSTS.page);
  });

  it('charges a PDF 1 per page with parsers and a flat 1 with an empty list', async () => {
    const t = await team(40);
    const parsed = await t.fc.scrape(`${site.url}/docs/credits-report.pdf`, { parsers: ['pdf'], maxAge: 0 } as never);
    expect(parsed.metadata?.creditsUsed).toBe(REPORT.pages.length);
    expect(await t.remaining()).toBe(40 - REPORT.pages.length);
    const raw = await t.fc.scrape(`${site.url}/docs/credits-report.pdf`, { parsers: [], maxAge: 0 } as never);
    expect(raw.metadata?.creditsUsed).toBe(1);
    expect(await t.remaining()).toBe(40 - REPORT.pages.length - 1);
  });

  it('charges a cache hit what the table prices the cached page at, not a flat page', async () => {
    const t = await team(40);
    const url = `${site.url}/docs/credits-report.pdf?cached=${n++}`;
    await t.fc.scrape(url, { parsers: ['pdf'], maxAge: 0 } as never);
    const hit = await t.fc.scrape(url, { parsers: ['pdf'] } as never);
    expect(hit.metadata?.cacheState).toBe('hit');
    expect(hit.metadata?.creditsUsed).toBe(REPORT.pages.length);
    expect(await t.remaining()).toBe(40 - 2 * REPORT.pages.length);
  });

  it('charges lockdown 5 on a hit and 1 on a miss', async () => {
    const t = await team(40);
    const url = unique();
    await t.fc.scrape(url, {});
    const hit = await t.fc.scrape(url, { lockdown: true } as never);
    expect(hit.metadata?.creditsUsed).toBe(COSTS.lockdownHit);
    expect(await t.remaining()).toBe(40 - COSTS.page - COSTS.lockdownHit);
    const miss = await sdkError(t.fc.scrape(unique(), { lockdown: true } as never));
    expect(miss.code).toBe('SCRAPE_LOCKDOWN_CACHE_MISS');
    expect(await t.remaining()).toBe(40 - COSTS.page - COSTS.lockdownHit - COSTS.lockdownMiss);
  });

  it('charges enhanced proxy scrapes the same as basic ones', async () => {
    const t = await team(40);
    const doc = await t.fc.scrape(unique(), { proxy: 'enhanced', maxAge: 0 });
    expect(doc.metadata?.creditsUsed).toBe(COSTS.page);
    expect(await t.remaining()).toBe(40 - COSTS.page);
  });

  it('charges a search 1 per result, and a scraped result as a scrape', async () => {
    const t = await team(40);
    const word = `wombat${n++}x`;
    // No web provider here: results come from the team's own index, which these scrapes fill.
    const urls = [`${site.url}/article?about=${word}`, `${site.url}/article?again=${word}`];
    for (const u of urls) await t.fc.scrape(u, { maxAge: 0 });
    const before = await t.remaining();
    const found = await t.fc.search('article', { limit: 5 });
    const results = found.web?.length ?? 0;
    expect(results).toBeGreaterThan(0);
    expect(await t.remaining()).toBe(before - results * COSTS.searchResult);
    const scraped = await t.fc.search('article', { limit: 1, scrapeOptions: { formats: ['markdown'], maxAge: 0 } });
    expect(scraped.web).toHaveLength(1);
    expect(await t.remaining()).toBe(before - results * COSTS.searchResult - COSTS.page);
  });

  it('charges a map call 1 credit', async () => {
    const t = await team(40);
    await t.fc.map(`${site.url}/crawl`);
    expect(await t.remaining()).toBe(40 - COSTS.map);
  });

  it('charges a crawl and a batch per page, and their creditsUsed is what was charged', async () => {
    const t = await team(100);
    const crawl = await t.fc.crawl(`${site.url}/crawl`, { pollInterval: 1, timeout: 60 });
    expect(crawl.status).toBe('completed');
    expect(crawl.creditsUsed).toBe(CRAWL_TREE.length * COSTS.page);
    expect(await t.remaining()).toBe(100 - CRAWL_TREE.length);
    const batch = await t.fc.batchScrape([unique(), unique(), unique()], { pollInterval: 1, timeout: 60 });
    expect(batch.creditsUsed).toBe(3);
    for (const d of batch.data) expect(d.metadata?.creditsUsed).toBe(1);
    expect(await t.remaining()).toBe(100 - CRAWL_TREE.length - 3);
  });

  it('answers 402 before any work when the team cannot pay, and fetches nothing', async () => {
    const t = await team(0);
    const before = site.hits.get('/article') ?? 0;
    const scrape = await sdkError(t.fc.scrape(unique(), { maxAge: 0 }));
    expect(scrape.status).toBe(402);
    expect(scrape.message).toContain('Payment Required');
    expect((await sdkError(t.fc.startCrawl(`${site.url}/crawl`))).status).toBe(402);
    expect((await sdkError(t.fc.startBatchScrape([unique()]))).status).toBe(402);
    expect((await sdkError(t.fc.map(`${site.url}/crawl`))).status).toBe(402);
    expect(site.hits.get('/article') ?? 0).toBe(before);
    expect(await t.remaining()).toBe(0);
  });

  it('stops a crawl that runs out midway, keeping its pages and saying why', async () => {
    const credits = 3;
    const t = await team(credits);
    const job = await t.fc.crawl(`${site.url}/crawl`, { pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('failed');
    expect(job.data.length).toBeGreaterThanOrEqual(credits);
    expect(job.data.length).toBeLessThan(CRAWL_TREE.length);
    // Every kept page was charged once, and only kept pages were.
    expect(job.creditsUsed).toBe(job.data.length);
    expect(await t.remaining()).toBe(credits - job.data.length);
  });

  it('says why a crawl stopped in its status', async () => {
    const t = await team(2);
    const { id } = await t.fc.startCrawl(`${site.url}/crawl`);
    let status = await t.fc.getCrawlStatus(id);
    while (status.status === 'scraping') {
      await new Promise((r) => setTimeout(r, 100));
      status = await t.fc.getCrawlStatus(id);
    }
    const res = await fetch(`${gleaner.url}/v2/crawl/${id}`, { headers: { authorization: `Bearer ${t.key}` } });
    const body = (await res.json()) as { status: string; error?: string; data: unknown[] };
    expect(body.status).toBe('failed');
    expect(body.error).toMatch(/Insufficient credits/);
    expect(body.data.length).toBeGreaterThanOrEqual(2);
  });

  it('never charges a replayed crawl page twice', async () => {
    const t = await team(100);
    const job = await t.fc.crawl(`${site.url}/crawl`, { pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    const after = await t.remaining();
    const crawlId = await crawlIdOf(t.teamId);
    const pages = await gleaner.rt.store.db.selectFrom('crawl_pages').select(['url_key']).where('crawl_id', '=', crawlId).where('state', '=', 'done').execute();
    expect(pages).toHaveLength(CRAWL_TREE.length);
    const ac = new AbortController();
    for (const p of pages) {
      await gleaner.rt.crawlRunner.handle({ id: `replay-${p.url_key}`, data: { kind: 'page', crawlId, urlKey: p.url_key } } as never, ac.signal);
      // And the same cause written again straight to the ledger is answered, not charged.
      expect(await gleaner.rt.ledger.charge({ teamId: t.teamId, cause: `crawl:${crawlId}:${p.url_key}`, credits: 1 })).toBe(1);
    }
    expect(await t.remaining()).toBe(after);
    expect((await t.fc.getCreditUsageHistorical()).periods[0]?.creditsUsed).toBe(CRAWL_TREE.length);
  });

  async function crawlIdOf(teamId: string): Promise<string> {
    const row = await gleaner.rt.store.db.selectFrom('crawls').select('id').where('team_id', '=', teamId).executeTakeFirstOrThrow();
    return row.id;
  }

  it('lets racing scrapes overdraw by at most the requests in flight, and charges each success once', async () => {
    // Bound: a request is admitted while the balance is at least 1 and charged when it finishes,
    // so with N requests in flight the balance ends no lower than 1 - N times the largest cost.
    const credits = 3;
    const inFlight = 12;
    const t = await team(credits);
    const before = site.hits.get('/article') ?? 0;
    const results = await Promise.allSettled(Array.from({ length: inFlight }, () => t.fc.scrape(unique(), { maxAge: 0 })));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    for (const r of refused) expect((r.reason as { status?: number }).status).toBe(402);
    expect(ok).toBeGreaterThanOrEqual(credits);
    const remaining = await t.remaining();
    expect(remaining).toBe(credits - ok);
    expect(remaining).toBeGreaterThanOrEqual(1 - inFlight * COSTS.page);
    // A refused request fetched nothing.
    expect((site.hits.get('/article') ?? 0) - before).toBe(ok);
  });

  it('agrees with the ledger in the historical usage, per key when asked', async () => {
    const t = await team(40);
    const other = await gleaner.rt.keys.create({ teamId: t.teamId, name: 'second' });
    await t.fc.scrape(unique(), { maxAge: 0 });
    await t.fc.map(`${site.url}/crawl`);
    await new Firecrawl({ apiKey: other.key, apiUrl: gleaner.url }).scrape(unique(), { maxAge: 0 });
    const all = await t.fc.getCreditUsageHistorical();
    expect(all.success).toBe(true);
    expect(all.periods).toHaveLength(1);
    expect(all.periods[0]!.creditsUsed).toBe(3);
    expect(all.periods[0]!.startDate).toBe((await t.fc.getCreditUsage()).billingPeriodStart);
    const byKey = await t.fc.getCreditUsageHistorical(true);
    const perKey = Object.fromEntries(byKey.periods.map((p) => [p.apiKey, p.creditsUsed]));
    expect(perKey).toEqual({ [t.keyId]: 2, [other.id]: 1 });
    expect(await t.remaining()).toBe(40 - 3);
  });

  it('reads token usage, zero until the model layer records tokens', async () => {
    const t = await team(40);
    expect((await t.fc.getTokenUsageHistorical()).periods).toEqual([]);
    await gleaner.rt.ledger.recordTokens({ teamId: t.teamId, keyId: t.keyId, cause: 'json:one', tokens: 120 });
    await gleaner.rt.ledger.recordTokens({ teamId: t.teamId, keyId: t.keyId, cause: 'json:one', tokens: 120 });
    const hist = await t.fc.getTokenUsageHistorical(true);
    expect(hist.periods).toEqual([expect.objectContaining({ apiKey: t.keyId, tokensUsed: 120 })]);
    const usage = await t.fc.getTokenUsage();
    expect(usage.billingPeriodStart).toBeTruthy();
  });

  it('reports the queue and concurrency of the team', async () => {
    const t = await team(40);
    const q = await t.fc.getQueueStatus();
    expect(q).toMatchObject({ success: true, jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: 50, mostRecentSuccess: null });
    await t.fc.crawl(`${site.url}/crawl`, { pollInterval: 1, timeout: 60, limit: 2 });
    const after = await t.fc.getQueueStatus();
    expect(after.mostRecentSuccess).not.toBeNull();
    expect(await t.fc.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 50 });
  });
});

describe('the self-hosted team of a fresh installation', () => {
  let gleaner: TestGleaner;
  const ownKey = `fc-own-${Date.now().toString(36)}-key`;
  beforeAll(async () => {
    gleaner = await startGleaner({ embedded: true, env: { RATE_LIMIT_PER_MINUTE: '2', GLEANER_API_KEY: ownKey } });
    const { bootstrapKey } = await import('../helpers/gleaner.js');
    await bootstrapKey(gleaner.rt);
  });
  afterAll(async () => {
    await gleaner?.close();
  });

  it('counts usage but is never blocked nor rate-limited', async () => {
    const fc = new Firecrawl({ apiKey: ownKey, apiUrl: gleaner.url });
    for (let i = 0; i < 5; i++) await fc.scrape(`${site.url}/article?own=${i}`, { maxAge: 0 });
    const res = await fetch(`${gleaner.url}/v2/team/credit-usage`, { headers: { authorization: `Bearer ${ownKey}` } });
    expect(((await res.json()) as { data: unknown }).data).toMatchObject({ remainingCredits: 99_999_999, planCredits: null, unlimited: true });
    expect((await fc.getCreditUsageHistorical()).periods[0]?.creditsUsed).toBe(5);
    // The same limit still applies to a team on a metered plan.
    const metered = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
    const results = await Promise.allSettled([1, 2, 3].map((i) => metered.scrape(`${site.url}/article?metered=${i}`, { maxAge: 0 })));
    expect(results.some((r) => r.status === 'rejected' && (r.reason as { status?: number }).status === 429)).toBe(true);
  });
});
