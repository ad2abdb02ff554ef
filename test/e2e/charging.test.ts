/**
 * Monitor checks and browser sessions charged through the ledger, seen through the official SDK:
 * a check's pages fall off the balance by exactly the cost table's amounts (scrape, search and
 * crawl targets), a check run again charges nothing twice, a team that cannot pay gets a failed
 * check saying why and nothing fetched, and a browser session costs its started minutes once,
 * whether it is deleted or expires, with 402 on create when the team cannot pay a minute.
 * Embedded, and on PostgreSQL and BullMQ when DATABASE_URL and REDIS_URL are set.
 */
import { randomBytes } from 'node:crypto';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSessionCost, COSTS } from '../../src/billing/costs.js';
import { findChromium } from '../../src/scrape/engines/chromium.js';
import { CRAWL_TREE } from '../fixture-site/crawl-tree.js';
import { setWatchedPage, watchedRequests } from '../fixture-site/monitor-pages.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

const chromium = findChromium(process.env.CHROMIUM_PATH);
const distributed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const modes = [{ name: 'embedded', embedded: true }, ...(distributed ? [{ name: 'distributed', embedded: false }] : [])];

describe.each(modes)('charging monitors and browser sessions ($name)', ({ embedded }) => {
  let site: FixtureSite;
  let gleaner: TestGleaner;
  let n = 0;

  beforeAll(async () => {
    site = await startFixtureSite();
    gleaner = await startGleaner({ embedded, env: { RATE_LIMIT_PER_MINUTE: '100000', MONITOR_TICK_MS: '200' } });
  });
  afterAll(async () => {
    await gleaner?.close();
    await site?.close();
  });

  /** A team of its own with `credits` per period, and an SDK client on its key. */
  async function team(credits: number) {
    const teamId = await gleaner.rt.keys.ensureTeam(`charging-${n++}`);
    await gleaner.rt.ledger.setPeriodCredits(teamId, credits);
    const { key } = await gleaner.rt.keys.create({ teamId, name: 'charging' });
    const fc = new Firecrawl({ apiKey: key, apiUrl: gleaner.url });
    const remaining = async () => (await fc.getCreditUsage()).remainingCredits;
    return { teamId, fc, remaining };
  }

  const watched = (body: string) => {
    const name = `charged-${randomBytes(4).toString('hex')}`;
    setWatchedPage(name, `<p>${body}</p>`);
    return { name, url: `${site.url}/watch/${name}` };
  };

  /** Runs a check now and waits until it has ended. */
  async function runAndWait(fc: Firecrawl, monitorId: string) {
    const started = await fc.runMonitor(monitorId);
    for (let i = 0; i < 600; i++) {
      const detail = await fc.getMonitorCheck(monitorId, started.id);
      if (!['queued', 'running'].includes(detail.status)) return detail;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('check did not finish');
  }

  describe('monitor checks', () => {
    it('charge each page a scrape target checks, and an unchanged page (304) as one page', async () => {
      const t = await team(40);
      const [a, b] = [watched('Opening hours: 9 to 5.'), watched('Closed on Sundays.')];
      const m = await t.fc.createMonitor({ name: 'hours', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: [a.url, b.url] }] });
      const first = await runAndWait(t.fc, m.id);
      expect(first.status).toBe('completed');
      expect(first).toMatchObject({ actualCredits: 2 * COSTS.page, creditsUsed: 2 * COSTS.page, billingStatus: 'confirmed' });
      expect(await t.remaining()).toBe(40 - 2 * COSTS.page);

      const before = watchedRequests(a.name).notModified;
      const second = await runAndWait(t.fc, m.id);
      expect(second.summary).toMatchObject({ same: 2 });
      expect(watchedRequests(a.name).notModified).toBe(before + 1);
      expect(second.actualCredits).toBe(2 * COSTS.page);
      expect(await t.remaining()).toBe(40 - 4 * COSTS.page);
    });

    it('charge a check run again (a worker lost mid-check) nothing more', async () => {
      const t = await team(40);
      const page = watched('Prices rise in May.');
      const m = await t.fc.createMonitor({ name: 'replay', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: [page.url] }] });
      const done = await runAndWait(t.fc, m.id);
      expect(await t.remaining()).toBe(40 - COSTS.page);
      // The check as a worker that died before writing its result leaves it, run once more.
      await gleaner.rt.store.db.updateTable('monitor_checks').set({ status: 'running' }).where('id', '=', done.id).execute();
      await gleaner.rt.monitors.runner.handle({ id: 'replay', data: { checkId: done.id } } as never, new AbortController().signal);
      expect((await t.fc.getMonitorCheck(m.id, done.id)).status).toBe('completed');
      expect(await t.remaining()).toBe(40 - COSTS.page);
    });

    it('charge a search target per result page, as scraped results', async () => {
      const t = await team(40);
      const word = `quokka${randomBytes(3).toString('hex')}`;
      const pages = [watched(`The ${word} smiles.`), watched(`A ${word} in the wild.`)];
      // No web provider here: the query runs on the team's own index, filled by these scrapes.
      for (const p of pages) await t.fc.scrape(p.url, { formats: ['markdown'] });
      const afterScrapes = 40 - pages.length * COSTS.page;
      expect(await t.remaining()).toBe(afterScrapes);
      const m = await t.fc.createMonitor({
        name: 'search',
        schedule: { cron: '0 * * * *' },
        // A search monitor states its goal; with no model here it is kept, not judged.
        goal: `${word} sightings`,
        judgeEnabled: false,
        targets: [{ type: 'search', queries: [word], maxResults: 5 }],
      });
      const check = await runAndWait(t.fc, m.id);
      expect(check.summary).toMatchObject({ totalPages: 2, new: 2 });
      expect(check.actualCredits).toBe(2 * COSTS.page);
      expect(check.targetResults!.find((r) => r.type === 'search')).toMatchObject({ resultCount: 2, searchCredits: 2 * COSTS.page });
      expect(await t.remaining()).toBe(afterScrapes - 2 * COSTS.page);
    });

    it('charge a crawl target per page through its crawl, and report the crawl’s credits', async () => {
      const t = await team(100);
      const m = await t.fc.createMonitor({ name: 'crawl', schedule: { cron: '0 * * * *' }, targets: [{ type: 'crawl', url: `${site.url}/crawl`, crawlOptions: {} }] });
      const check = await runAndWait(t.fc, m.id);
      expect(check.status).toBe('completed');
      expect(check.summary.new).toBe(CRAWL_TREE.length);
      expect(check.actualCredits).toBe(CRAWL_TREE.length * COSTS.page);
      expect(await t.remaining()).toBe(100 - CRAWL_TREE.length * COSTS.page);
    });

    it('record a failed check saying why when the team cannot pay, and fetch nothing', async () => {
      const t = await team(0);
      const page = watched('Nobody pays for this.');
      const m = await t.fc.createMonitor({ name: 'broke', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: [page.url] }] });
      const check = await runAndWait(t.fc, m.id);
      expect(check.status).toBe('failed');
      expect(check.error).toMatch(/Payment Required: Insufficient credits/);
      expect(check.actualCredits).toBe(0);
      expect(watchedRequests(page.name).total).toBe(0);
      expect(await t.remaining()).toBe(0);
    });

    it('stop charging a check that runs out midway, and say which pages were not checked', async () => {
      const t = await team(1);
      const [paid, unpaid] = [watched('First in line.'), watched('Second in line.')];
      // Targets run one after another, so the second finds the balance spent.
      const m = await t.fc.createMonitor({
        name: 'midway',
        schedule: { cron: '0 * * * *' },
        targets: [
          { type: 'scrape', urls: [paid.url] },
          { type: 'scrape', urls: [unpaid.url] },
        ],
      });
      const check = await runAndWait(t.fc, m.id);
      expect(check.status).toBe('partial');
      expect(check.summary).toMatchObject({ new: 1, error: 1 });
      expect(check.pages.find((p) => p.url === unpaid.url)?.error).toMatch(/ran out of credits/);
      expect(watchedRequests(unpaid.name).total).toBe(0);
      expect(check.actualCredits).toBe(COSTS.page);
      expect(await t.remaining()).toBe(0);
    });
  });

  describe.skipIf(!chromium)('browser sessions', () => {
    it('charge a deleted session its started minutes once, and list what it cost', async () => {
      const t = await team(20);
      const created = await t.fc.browser({ ttl: 120, activityTtl: 60 });
      expect(created).toMatchObject({ success: true, creditsUsed: 0 });
      const ended = await t.fc.deleteBrowser(created.id!);
      const cost = browserSessionCost(ended.sessionDurationMs!);
      expect(cost).toBe(COSTS.browserMinute);
      expect(ended).toMatchObject({ success: true, creditsBilled: cost });
      expect(await t.remaining()).toBe(20 - cost);
      const listed = await t.fc.listBrowsers({ status: 'destroyed' });
      expect(listed.sessions!.find((s) => s.id === created.id)).toMatchObject({ creditsUsed: cost });
      // Deleting it again finds no session, and charges nothing.
      expect((await sdkError(t.fc.deleteBrowser(created.id!))).status).toBe(404);
      expect(await t.remaining()).toBe(20 - cost);
    });

    it('charge a session that expires for lack of activity', async () => {
      const t = await team(20);
      const created = await t.fc.browser({ ttl: 120, activityTtl: 10 });
      let listed = await t.fc.listBrowsers({ status: 'destroyed' });
      for (let i = 0; i < 300 && !listed.sessions!.some((s) => s.id === created.id); i++) {
        await new Promise((r) => setTimeout(r, 100));
        listed = await t.fc.listBrowsers({ status: 'destroyed' });
      }
      for (let i = 0; i < 50 && (await t.remaining()) === 20; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await t.remaining()).toBe(20 - COSTS.browserMinute);
    });

    it('answers 402 on create when the team cannot pay a minute, and opens nothing', async () => {
      const t = await team(COSTS.browserMinute - 1);
      const open = gleaner.rt.browserSessions.openCount();
      const refused = await sdkError(t.fc.browser({ ttl: 60 }));
      expect(refused.status).toBe(402);
      expect(gleaner.rt.browserSessions.openCount()).toBe(open);
      expect(await t.remaining()).toBe(COSTS.browserMinute - 1);
    });
  });
});
