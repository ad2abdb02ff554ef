/**
 * Threat protection and per-team zero data retention through the official SDK. A real HTTP URL
 * classifier runs beside the server (THREAT_CLASSIFIER_URL): it rates a URL risky when its path
 * holds one of the words a test sets, and can be switched to answering 503 as if it were down.
 * Team policies are set as the operator's command does, through the runtime's policy store.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useE2eServer } from '../helpers/e2e-server.js';
import { sdkError } from '../helpers/sdk-error.js';
import { threatPolicySchema } from '../../src/security/threat/policy.js';
import { findChromium } from '../../src/scrape/engines/chromium.js';

vi.setConfig({ testTimeout: 120_000 });

const classifier = { risky: [] as string[], down: false, asked: [] as string[] };
const classifierServer = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    if (classifier.down) return void res.writeHead(503).end();
    const { url } = JSON.parse(body) as { url: string };
    classifier.asked.push(url);
    const risky = classifier.risky.some((w) => new URL(url).pathname.includes(w));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(risky ? { riskScore: 90, categories: ['malware'] } : { riskScore: 5 }));
  });
});
await new Promise<void>((r) => classifierServer.listen(0, '127.0.0.1', r));
afterAll(() => new Promise<void>((r) => classifierServer.close(() => r())));

const e2e = useE2eServer({
  embedded: true,
  env: { RATE_LIMIT_PER_MINUTE: '1000', THREAT_CLASSIFIER_URL: `http://127.0.0.1:${(classifierServer.address() as AddressInfo).port}/classify` },
});

const setPolicy = (p: Record<string, unknown>) => e2e.gleaner.rt.teamPolicies.setThreatPolicy(e2e.gleaner.teamId, threatPolicySchema.parse(p));
const path = (u: string) => u.replace(e2e.site.url, '');
const tp = (o: Record<string, unknown>) => ({ threatProtection: o }) as never;

beforeEach(async () => {
  classifier.risky = [];
  classifier.down = false;
  classifier.asked = [];
  await setPolicy({});
});

describe('the override rules through the API', () => {
  it('a team without threat protection gets 403 for asking, and nothing is fetched', async () => {
    const url = `${e2e.site.url}/article?tp=off`;
    const err = await sdkError(e2e.fc.scrape(url, tp({ mode: 'normal' })));
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/not enabled for this team/);
    expect(e2e.site.hits.get('/article?tp=off')).toBeUndefined();
  });

  it('overrides refused by the policy are 403, on scrape, map, search and crawl alike', async () => {
    await setPolicy({ enabled: true, overridesAllowed: false, mode: 'manual-only' });
    const body = tp({ blacklist: ['x.example'] });
    expect((await sdkError(e2e.fc.scrape(`${e2e.site.url}/article`, body))).status).toBe(403);
    expect((await sdkError(e2e.fc.map(`${e2e.site.url}/crawl`, body))).status).toBe(403);
    expect((await sdkError(e2e.fc.search('tea', body))).status).toBe(403);
    const crawl = await sdkError(e2e.fc.startCrawl(`${e2e.site.url}/crawl`, { scrapeOptions: { threatProtection: { mode: 'off' } } } as never));
    expect(crawl.status).toBe(403);
  });

  it('an enforced policy cannot be loosened, but can be tightened', async () => {
    await setPolicy({ enabled: true, enforced: true, mode: 'normal', riskScoreThreshold: 60 });
    for (const o of [{ mode: 'off' }, { mode: 'manual-only' }, { riskScoreThreshold: 80 }, { whitelist: ['extra.example'] }]) {
      const err = await sdkError(e2e.fc.scrape(`${e2e.site.url}/article`, tp(o)));
      expect([err.status, err.message]).toEqual([403, expect.stringMatching(/enforced/)]);
    }
    const doc = await e2e.fc.scrape(`${e2e.site.url}/article?tight=1`, tp({ riskScoreThreshold: 40 }));
    expect(doc.metadata?.statusCode).toBe(200);
  });

  it('the shape is checked strictly: zscaler, unknown keys and long lists are 400 naming the field', async () => {
    await setPolicy({ enabled: true });
    const zscaler = await sdkError(e2e.fc.scrape(`${e2e.site.url}/article`, tp({ mode: 'zscaler' })));
    expect(zscaler.status).toBe(400);
    expect(JSON.stringify(zscaler.details)).toMatch(/zscaler.*not supported/);
    expect((await sdkError(e2e.fc.scrape(`${e2e.site.url}/article`, tp({ colour: 'red' })))).status).toBe(400);
    const long = Array.from({ length: 1001 }, (_, i) => `d${i}.example`);
    expect((await sdkError(e2e.fc.scrape(`${e2e.site.url}/article`, tp({ blockedTlds: long.map((_, i) => `t${i}`) })))).status).toBe(400);
    expect((await sdkError(e2e.fc.map(`${e2e.site.url}/crawl`, tp({ blacklist: long })))).status).toBe(400);
  });
});

describe('rules applied to every URL fetched', () => {
  it('a URL the classifier rates risky is 403 URL_BLOCKED and never fetched', async () => {
    await setPolicy({ enabled: true, mode: 'normal', riskScoreThreshold: 70 });
    classifier.risky = ['/article'];
    const err = await sdkError(e2e.fc.scrape(`${e2e.site.url}/article?risky=1`));
    expect([err.status, err.code]).toEqual([403, 'URL_BLOCKED']);
    expect(err.message).toMatch(/90\/100 \(malware\)/);
    expect(e2e.site.hits.get('/article?risky=1')).toBeUndefined();
  });

  it('a redirect hop to a risky URL is blocked too', async () => {
    await setPolicy({ enabled: true, mode: 'normal' });
    classifier.risky = ['/redirect/3'];
    const err = await sdkError(e2e.fc.scrape(`${e2e.site.url}/redirect/1`));
    expect(err.code).toBe('URL_BLOCKED');
    expect(classifier.asked.map(path)).toEqual(['/redirect/1', '/redirect/2', '/redirect/3']);
  });

  it('a clean scrape costs the page plus 2 credits per scanned URL', async () => {
    await setPolicy({ enabled: true, mode: 'normal' });
    const before = (await e2e.fc.getCreditUsage()).remainingCredits;
    const doc = await e2e.fc.scrape(`${e2e.site.url}/article?clean=1`, { maxAge: 0 });
    expect(doc.metadata?.creditsUsed).toBe(3);
    expect((await e2e.fc.getCreditUsage()).remainingCredits).toBe(before - 3);
  });

  it('the whitelist wins over the blacklist and the classifier; manual-only asks no classifier', async () => {
    await setPolicy({ enabled: true, mode: 'normal', blacklist: ['127.0.0.1'], whitelist: ['127.0.0.1'] });
    classifier.risky = ['/article'];
    expect((await e2e.fc.scrape(`${e2e.site.url}/article?white=1`)).metadata?.statusCode).toBe(200);
    expect(classifier.asked).toEqual([]);
    await setPolicy({ enabled: true, mode: 'manual-only', blacklist: ['127.0.0.1'] });
    expect((await sdkError(e2e.fc.scrape(`${e2e.site.url}/article?black=1`))).code).toBe('URL_BLOCKED');
    await setPolicy({ enabled: true, mode: 'manual-only' });
    expect((await e2e.fc.scrape(`${e2e.site.url}/article?manual=1`)).metadata?.statusCode).toBe(200);
    expect(classifier.asked).toEqual([]);
  });

  it('a classifier that is down: failurePolicy open allows with a warning, closed blocks', async () => {
    classifier.down = true;
    await setPolicy({ enabled: true, mode: 'normal', failurePolicy: 'open' });
    const open = await e2e.fc.scrape(`${e2e.site.url}/article?down=open`);
    expect(open.warning).toMatch(/could not classify.*failurePolicy is open/);
    await setPolicy({ enabled: true, mode: 'normal', failurePolicy: 'closed' });
    const closed = await sdkError(e2e.fc.scrape(`${e2e.site.url}/article?down=closed`));
    expect(closed.code).toBe('URL_BLOCKED');
    expect(e2e.site.hits.get('/article?down=closed')).toBeUndefined();
  });

  it('a crawl lists its blocked pages among its errors and keeps the rest', async () => {
    await setPolicy({ enabled: true, mode: 'normal' });
    classifier.risky = ['/crawl/a/1'];
    const job = await e2e.fc.crawl(`${e2e.site.url}/crawl`, { pollInterval: 1, timeout: 90 });
    const pages = job.data.map((d) => path(d.metadata!.sourceURL!));
    expect(pages).toContain('/crawl/b');
    expect(pages).not.toContain('/crawl/a/1');
    const { errors } = await e2e.fc.getCrawlErrors(job.id);
    expect(errors.map((e) => [path(e.url), e.code])).toEqual([['/crawl/a/1', 'URL_BLOCKED']]);
    expect(e2e.site.hits.get('/crawl/a/1')).toBeUndefined();
  });

  it('a batch scrape lists a blocked URL among its errors', async () => {
    await setPolicy({ enabled: true, mode: 'normal' });
    classifier.risky = ['chai'];
    const blocked = `${e2e.site.url}/library/chai-history`;
    const job = await e2e.fc.batchScrape([`${e2e.site.url}/article?batch=1`, blocked], { pollInterval: 1, timeout: 60 });
    expect(job.data).toHaveLength(1);
    const { errors } = await e2e.fc.getBatchScrapeErrors(job.id);
    expect(errors.map((e) => [e.url, e.code])).toEqual([[blocked, 'URL_BLOCKED']]);
    expect(e2e.site.hits.get('/library/chai-history')).toBeUndefined();
  });

  it('map drops links the rules block', async () => {
    await setPolicy({ enabled: true, mode: 'normal' });
    classifier.risky = ['orphan'];
    const res = await e2e.fc.map(`${e2e.site.url}/crawl`, { sitemap: 'include' });
    const links = res.links.map((l) => path(l.url));
    expect(links).toContain('/crawl/a');
    expect(links.filter((l) => l.includes('orphan'))).toEqual([]);
  });

  it("a monitor check reports a page the rules block as an error", async () => {
    await setPolicy({ enabled: true, mode: 'normal' });
    classifier.risky = ['oolong'];
    const blocked = `${e2e.site.url}/library/oolong-tea-history`;
    const m = await e2e.fc.createMonitor({
      name: 'threat watch',
      schedule: { cron: '0 0 1 1 *' },
      judgeEnabled: false,
      targets: [{ type: 'scrape', urls: [`${e2e.site.url}/library/white-tea-history`, blocked] }],
    });
    const started = await e2e.fc.runMonitor(m.id);
    let detail = await e2e.fc.getMonitorCheck(m.id, started.id);
    for (let i = 0; i < 300 && ['queued', 'running'].includes(detail.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      detail = await e2e.fc.getMonitorCheck(m.id, started.id);
    }
    expect(detail.summary).toMatchObject({ totalPages: 2, new: 1, error: 1 });
    const failed = detail.pages.find((p) => p.status === 'error') as { url: string; error?: string } | undefined;
    expect(failed?.url).toBe(blocked);
    expect(failed?.error).toMatch(/threat protection/);
    expect(e2e.site.hits.get('/library/oolong-tea-history')).toBeUndefined();
    await e2e.fc.deleteMonitor(m.id);
  });

  it('search drops blocked results and says so', async () => {
    await setPolicy({});
    for (const slug of ['green-tea-history', 'green-tea-brewing']) await e2e.fc.scrape(`${e2e.site.url}/library/${slug}`);
    await setPolicy({ enabled: true, mode: 'normal' });
    classifier.risky = ['history'];
    const res = await e2e.fc.search('green tea', { limit: 5 });
    const urls = (res.web as { url: string }[]).map((r) => path(r.url));
    expect(urls).toContain('/library/green-tea-brewing');
    expect(urls).not.toContain('/library/green-tea-history');
    expect(res.warning).toMatch(/dropped by threat protection: .*green-tea-history/);
  });
});

describe.skipIf(!findChromium(process.env.CHROMIUM_PATH))('in the browser', () => {
  it('a browser scrape is blocked like any other', async () => {
    await setPolicy({ enabled: true, mode: 'normal' });
    classifier.risky = ['/app/'];
    const err = await sdkError(e2e.fc.scrape(`${e2e.site.url}/app/interactive`, { waitFor: 100, maxAge: 0 }));
    expect(err.code).toBe('URL_BLOCKED');
  });

  it("a session's navigations meet the team's rules", async () => {
    await setPolicy({ enabled: true, mode: 'manual-only', blockedTlds: ['test'] });
    const session = await e2e.fc.browser({ ttl: 60, activityTtl: 30 });
    try {
      const run = (code: string) => e2e.fc.browserExecute(session.id!, { code, language: 'node', timeout: 30 });
      const ok = await run(`const r = await page.goto(${JSON.stringify(`${e2e.site.url}/article`)}); return r.status();`);
      expect(ok.result).toBe('200');
      const blocked = await run(`await page.goto('http://files.test/x')`);
      expect(blocked.stderr).toMatch(/threat protection.*\.test is blocked/);
    } finally {
      await e2e.fc.deleteBrowser(session.id!);
    }
  });
});

describe('a zero data retention team', () => {
  it('keeps no scrape, cache or index entry, and is refused what needs them', async () => {
    const rt = e2e.gleaner.rt;
    const teamId = await rt.keys.ensureTeam('zdr-team');
    const { key } = await rt.keys.create({ teamId, name: 'zdr' });
    await rt.teamPolicies.setZdr(teamId, true);
    const fc = new Firecrawl({ apiKey: key, apiUrl: e2e.gleaner.url });
    const url = `${e2e.site.url}/library/matcha-storage`;

    const first = await fc.scrape(url, { maxAge: 600_000 });
    const second = await fc.scrape(url, { maxAge: 600_000 });
    expect(second.metadata?.cacheState).not.toBe('hit');
    expect(await rt.documents.getScrape(first.metadata!.scrapeId!, teamId)).toBeUndefined();

    const stored = await fetch(`${e2e.gleaner.url}/v2/scrape/${first.metadata!.scrapeId}`, { headers: { authorization: `Bearer ${key}` } });
    expect(stored.status).toBe(400);
    expect(await stored.json()).toMatchObject({ code: 'ZDR_NOT_SUPPORTED', error: expect.stringMatching(/^Zero data retention is enabled for this team/) });

    const local = await fc.search('matcha storage', { limit: 5 });
    expect((local.web as { url: string }[]).map((r) => r.url)).not.toContain(url);

    for (const refused of [fc.startCrawl(`${e2e.site.url}/crawl`), fc.startBatchScrape([url])]) {
      const err = await sdkError(refused);
      expect([err.status, err.code]).toEqual([400, 'ZDR_NOT_SUPPORTED']);
    }
  });
});
