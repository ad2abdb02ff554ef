/**
 * `keepAlive` scrapes and `interact` through the official SDK: the scrape's page stays open and
 * interact runs in that very page (DOM, in-page script state, cookies), behind the same SSRF
 * guard; the team's session cap applies before the scrape does any work; the context pool keeps
 * serving scrapes while pages are kept; kept pages expire; keepAlive is refused outside a single
 * scrape. The pool has one context, so a kept page that did not free its slot would stall every
 * later browser scrape.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/scrape/engines/chromium.js';
import type { BrowserEngine } from '../../src/scrape/engines/browser.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError, type FieldIssue } from '../helpers/sdk-error.js';

const chromium = findChromium(process.env.CHROMIUM_PATH);
const MAX_SESSIONS = 2;

// keepAlive is Gleaner's own option: the SDK passes unknown scrape keys through untyped.
const kept = (o: object) => ({ formats: ['markdown'], keepAlive: true, ...o }) as never;

describe.skipIf(!chromium)('keepAlive scrapes and interact', () => {
  let site: FixtureSite;
  let gleaner: TestGleaner;
  let fc: Firecrawl;
  let page: string;
  const stats = () => (gleaner.rt.browser as BrowserEngine).stats();
  const statusOf = async (scrapeId: string) => {
    const rows = await gleaner.rt.store.db.selectFrom('browser_sessions').select('status').where('scrape_id', '=', scrapeId).execute();
    return rows.map((r) => r.status);
  };

  beforeAll(async () => {
    site = await startFixtureSite(0, '127.0.0.2');
    page = `${site.url}/app/interactive`;
    gleaner = await startGleaner({
      embedded: true,
      env: {
        ALLOW_PRIVATE_ADDRESSES: '127.0.0.2/32',
        RATE_LIMIT_PER_MINUTE: '3000',
        BROWSER_SESSIONS_PER_TEAM: String(MAX_SESSIONS),
        BROWSER_CONTEXTS: '1',
      },
    });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
    await site?.close();
  });

  it('continues in the very page the scrape left, then stops; without keepAlive interact starts afresh', async () => {
    const doc = await fc.scrape(
      page,
      kept({
        actions: [
          { type: 'click', selector: '#echo' },
          { type: 'write', text: 'typed in the scrape' },
          { type: 'click', selector: '#reveal' },
          { type: 'executeJavascript', script: 'window.marker = "set by the scrape"; document.cookie = "kept=yes; path=/"; return 1' },
        ],
      }),
    );
    expect(doc.markdown).toContain('Echo: typed in the scrape');
    const scrapeId = doc.metadata!.scrapeId!;
    expect(await statusOf(scrapeId)).toEqual(['active']);
    expect(stats().contextsOpen).toBe(0);

    const hitsBefore = site.hits.get('/app/interactive');
    const state = await fc.interact(scrapeId, {
      code: `[page.url(), await page.inputValue('#echo'), await page.textContent('#echo-out'), await page.isVisible('#secret'),
        await page.evaluate('window.marker'), await page.evaluate('document.cookie')]`,
    });
    expect(JSON.parse(state.result!)).toEqual([page, 'typed in the scrape', 'typed in the scrape', true, 'set by the scrape', 'kept=yes']);
    // The page was not loaded again.
    expect(site.hits.get('/app/interactive')).toBe(hitsBefore);

    // Still behind the SSRF guard: 127.0.0.1 (the API, Redis) is refused from the kept page.
    const refused = await fc.interact(scrapeId, { code: `await page.goto(${JSON.stringify(`${gleaner.url}/`)})` });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/not allowed|private|loopback/i);
    const inPage = await fc.interact(scrapeId, {
      code: `await page.evaluate(async (u) => { try { await fetch(u); return 'connected'; } catch { return 'refused'; } }, ${JSON.stringify(`${gleaner.url}/`)})`,
    });
    expect(inPage.result).toBe('refused');

    const stopped = await fc.stopInteraction(scrapeId);
    expect(stopped.status).toBe('destroyed');
    expect(await statusOf(scrapeId)).toEqual(['destroyed']);
    expect(gleaner.rt.browserSessions.openCount()).toBe(0);

    // Once the kept page is gone, interact opens the final URL again: the scrape's state is not there.
    const fresh = await fc.interact(scrapeId, { code: `[await page.inputValue('#echo'), await page.evaluate('window.marker ?? null')]` });
    expect(JSON.parse(fresh.result!)).toEqual(['', null]);
    await fc.stopInteraction(scrapeId);

    const plain = await fc.scrape(page, { formats: ['markdown'], actions: [{ type: 'executeJavascript', script: 'window.marker = 1' }] });
    const again = await fc.interact(plain.metadata!.scrapeId!, { code: `await page.evaluate('window.marker ?? null')` });
    expect(again.result).toBe('null');
    await fc.stopInteraction(plain.metadata!.scrapeId!);
  });

  it('keeps pages without starving the pool: later scrapes get a new context', async () => {
    const a = await fc.scrape(page, kept({ actions: [{ type: 'click', selector: '#reveal' }] }));
    const b = await fc.scrape(page, kept({ actions: [{ type: 'click', selector: '.add', all: true }] }));
    try {
      // With one pooled context, both kept pages have left the pool and a browser scrape still runs.
      const later = await fc.scrape(page, { formats: ['markdown'], actions: [{ type: 'click', selector: '#reveal' }], timeout: 20_000 });
      expect(later.markdown).toContain('Secret revealed by a click');
      expect(stats().contextsOpen).toBeLessThanOrEqual(1);
      const first = await fc.interact(a.metadata!.scrapeId!, { code: `await page.locator('#added li').count()` });
      const second = await fc.interact(b.metadata!.scrapeId!, { code: `await page.locator('#added li').count()` });
      expect([first.result, second.result]).toEqual(['0', '3']);
    } finally {
      await fc.stopInteraction(a.metadata!.scrapeId!);
      await fc.stopInteraction(b.metadata!.scrapeId!);
    }
    expect(gleaner.rt.browserSessions.openCount()).toBe(0);
  });

  it('answers 429 at the team’s session cap before doing any work', async () => {
    const ids: string[] = [];
    try {
      for (let i = 0; i < MAX_SESSIONS; i++) ids.push((await fc.browser()).id!);
      const hits = site.hits.get('/app/interactive');
      const over = await sdkError(fc.scrape(page, kept({})));
      expect(over.status).toBe(429);
      expect(over.message).toBe('Concurrency limit reached');
      expect(site.hits.get('/app/interactive')).toBe(hits);
      // A scrape that keeps nothing is not held to the session cap.
      expect((await fc.scrape(page, { formats: ['markdown'], waitFor: 10 })).markdown).toContain('Interactive page');
      await fc.deleteBrowser(ids.pop()!);
      const one = await fc.scrape(page, kept({}));
      // The kept page takes the freed slot.
      expect((await sdkError(fc.browser())).status).toBe(429);
      await fc.stopInteraction(one.metadata!.scrapeId!);
    } finally {
      for (const id of ids) await fc.deleteBrowser(id);
    }
  });

  it('ends a kept page at its ttl', async () => {
    const sessions = gleaner.rt.browserSessions;
    const saved = sessions.interactTtl;
    // The interact lifetimes (10 min, 5 min without calls) are fixed on the wire; shortened here.
    sessions.interactTtl = { ttlMs: 2_000, activityTtlMs: 60_000 };
    let scrapeId: string;
    try {
      scrapeId = (await fc.scrape(page, kept({}))).metadata!.scrapeId!;
    } finally {
      sessions.interactTtl = saved;
    }
    expect(await statusOf(scrapeId)).toEqual(['active']);
    // Its activityTtl is a minute: only the ttl can end it this soon.
    const deadline = Date.now() + 10_000;
    while ((sessions.openCount() > 0 || (await statusOf(scrapeId))[0] === 'active') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(await statusOf(scrapeId)).toEqual(['destroyed']);
    expect(sessions.openCount()).toBe(0);
    expect((await sdkError(fc.stopInteraction(scrapeId))).status).toBe(404);
  });

  it('validates keepAlive and refuses it outside a single scrape, naming the field', async () => {
    const bad = await sdkError(fc.scrape(page, { keepAlive: 'yes' } as never));
    expect(bad.status).toBe(400);
    expect(bad.details![0]!.path).toEqual(['keepAlive']);

    const crawl = await sdkError(fc.startCrawl(page, { limit: 1, scrapeOptions: { keepAlive: true } as never }));
    expect(crawl.status).toBe(400);
    const field = crawl.details!.find((d: FieldIssue) => d.path.join('.') === 'scrapeOptions.keepAlive');
    expect(field?.message).toContain('keepAlive is only available on a single scrape');

    const batch = await sdkError(fc.startBatchScrape([page], { options: { keepAlive: true } as never }));
    expect(batch.status).toBe(400);
    expect(batch.details!.map((d: FieldIssue) => d.path.join('.'))).toContain('keepAlive');

    const monitor = await sdkError(
      fc.createMonitor({ name: 'kept', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: [page], scrapeOptions: { keepAlive: true } } as never] }),
    );
    expect(monitor.status).toBe(400);
    expect(monitor.details!.map((d: FieldIssue) => d.path.join('.'))).toContain('targets.0.scrapeOptions.keepAlive');
  });
});
