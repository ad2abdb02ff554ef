/**
 * Raw CDP through Gleaner (`cdpUrl`, on unless BROWSER_CDP=false): a client attaches with
 * Playwright's connectOverCDP, authenticated per session, sees only its own session's browser,
 * and stays behind the SSRF guard and the scheme rules. The fixture site listens on 127.0.0.2 and
 * only that address is allowed, so a second site on 127.0.0.1 shows what a refused private
 * address looks like from inside the browser.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { chromium as pw, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { findChromium } from '../../src/scrape/engines/chromium.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

const chromium = findChromium(process.env.CHROMIUM_PATH);

/** Resolves to the HTTP status a websocket upgrade was refused with, or 101 when it was accepted. */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

describe.skipIf(!chromium)('CDP access (the default)', () => {
  let site: FixtureSite;
  let loopback: FixtureSite;
  let gleaner: TestGleaner;
  let fc: Firecrawl;
  let id: string;
  let cdpUrl: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    site = await startFixtureSite(0, '127.0.0.2');
    loopback = await startFixtureSite(0, '127.0.0.1');
    gleaner = await startGleaner({ embedded: true, env: { ALLOW_PRIVATE_ADDRESSES: '127.0.0.2/32', RATE_LIMIT_PER_MINUTE: '3000' } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
    const created = await fc.browser({ ttl: 300, activityTtl: 120 });
    id = created.id!;
    cdpUrl = created.cdpUrl!;
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await gleaner?.close();
    await site?.close();
    await loopback?.close();
  });

  it('hands out a per-session cdpUrl, on create and in the list', async () => {
    expect(cdpUrl).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/v2/browser/${id}/cdp\\?token=[A-Za-z0-9_-]{40,}$`));
    const list = await fc.listBrowsers({ status: 'active' });
    expect(list.sessions?.find((s) => s.id === id)?.cdpUrl).toBe(cdpUrl);
  });

  it('lets Playwright attach over CDP and read a page of the site', async () => {
    browser = await pw.connectOverCDP(cdpUrl);
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${site.url}/app/interactive`);
    expect(await page.title()).toBe('Interactive');
    await page.click('#reveal');
    expect(await page.textContent('#secret')).toBe('Secret revealed by a click');
    // A context of the client's own goes through the same guard proxy.
    const ctx = await browser.newContext();
    const other = await ctx.newPage();
    await other.goto(`${site.url}/article`);
    expect(await other.content()).toContain('<article');
    await ctx.close();
    // Gleaner's own handle still runs execute in the same browser.
    const r = await fc.browserExecute(id, { code: `await page.goto(${JSON.stringify(`${site.url}/article`)}); return page.url()`, language: 'node' });
    expect(r.result).toBe(`${site.url}/article`);
  });

  it('refuses file:, chrome: and private addresses, by navigation and from the page', async () => {
    const page = await browser!.contexts()[0]!.newPage();
    await expect(page.goto('file:///etc/passwd')).rejects.toThrow(/Refused by the server.*file:/);
    await expect(page.goto('chrome://version')).rejects.toThrow(/Refused by the server.*chrome:/);
    await expect(page.goto(`${loopback.url}/article`)).rejects.toThrow(/Refused by the server/);
    const cdp = await browser!.newBrowserCDPSession();
    await expect(cdp.send('Target.createTarget', { url: 'file:///etc/passwd' })).rejects.toThrow(/Refused by the server/);
    await expect(cdp.send('Target.createBrowserContext', { proxyServer: 'http://127.0.0.1:1' })).rejects.toThrow(/own proxy/);
    const pageCdp = await browser!.contexts()[0]!.newCDPSession(page);
    await expect(pageCdp.send('DOM.setFileInputFiles', { files: ['/etc/passwd'], nodeId: 1 })).rejects.toThrow(/Refused by the server/);
    // What the relay cannot see (a request the page makes itself) meets the guard proxy.
    await page.goto(`${site.url}/article`);
    const fetched = await page.evaluate(async (u) => fetch(u).then((r) => `status ${r.status}`, (e: Error) => `failed ${e.name}`), `${loopback.url}/article`);
    expect(fetched).not.toBe('status 200');
    expect(loopback.hits.get('/article') ?? 0).toBe(0);
  });

  it("shows a session's client only that session's pages, never another session's", async () => {
    const other = await fc.browser({ ttl: 120 });
    try {
      const elsewhere = `${site.url}/app/login?other-session`;
      const r = await fc.browserExecute(other.id!, { code: `await page.goto(${JSON.stringify(elsewhere)}); page.url()`, language: 'node' });
      expect(r.result).toBe(elsewhere);
      const own = `${site.url}/article?own-session`;
      await fc.browserExecute(id, { code: `await page.goto(${JSON.stringify(own)})`, language: 'node' });
      const seen = await pw.connectOverCDP(cdpUrl);
      try {
        const pages = seen.contexts().flatMap((c) => c.pages().map((p) => p.url()));
        expect(pages).toContain(own);
        expect(pages).not.toContain(elsewhere);
        const { targetInfos } = (await (await seen.newBrowserCDPSession()).send('Target.getTargets')) as { targetInfos: { url: string }[] };
        expect(targetInfos.map((t) => t.url)).toContain(own);
        expect(targetInfos.map((t) => t.url)).not.toContain(elsewhere);
      } finally {
        await seen.close();
      }
      // Each session's own secret opens only its own browser.
      expect(other.cdpUrl).toBeDefined();
      expect(other.cdpUrl).not.toBe(cdpUrl);
      const crossed = cdpUrl.replace(/\?token=.*$/, `?token=${new URL(other.cdpUrl!).searchParams.get('token')}`);
      expect(await upgradeStatus(crossed)).toBe(401);
    } finally {
      await fc.deleteBrowser(other.id!);
    }
  });

  it('refuses a wrong or missing token, and takes the API key as a Bearer header', async () => {
    const bare = cdpUrl.replace(/\?.*$/, '');
    expect(await upgradeStatus(`${bare}?token=wrong`)).toBe(401);
    expect(await upgradeStatus(bare)).toBe(401);
    expect(await upgradeStatus(bare, { authorization: 'Bearer fc-not-a-key' })).toBe(401);
    expect(await upgradeStatus(bare, { authorization: `Bearer ${gleaner.key}` })).toBe(101);
    expect(await upgradeStatus(`${gleaner.url.replace('http', 'ws')}/v2/browser/not-a-session/cdp`, { authorization: `Bearer ${gleaner.key}` })).toBe(404);
  });

  it('closes the CDP connection and the Chromium process when the session is deleted', async () => {
    const endpoint = gleaner.rt.browserSessions.cdpTarget(id, { teamId: gleaner.teamId }).endpoint;
    const disconnected = new Promise<void>((r) => browser!.once('disconnected', () => r()));
    await fc.deleteBrowser(id);
    await disconnected;
    await expect(upgradeStatus(endpoint)).rejects.toThrow(/ECONNREFUSED/);
    expect(await upgradeStatus(cdpUrl)).toBe(404);
  });
});

describe.skipIf(!chromium)('CDP access turned off (BROWSER_CDP=false)', () => {
  let gleaner: TestGleaner;
  let fc: Firecrawl;

  beforeAll(async () => {
    gleaner = await startGleaner({ embedded: true, env: { BROWSER_CDP: 'false' } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
  });

  it('gives no cdpUrl and refuses the CDP route, naming the setting', async () => {
    const created = await fc.browser({ ttl: 60 });
    expect(created.cdpUrl).toBeUndefined();
    const list = await fc.listBrowsers({ status: 'active' });
    expect(list.sessions?.find((s) => s.id === created.id)?.cdpUrl).toBeUndefined();
    const url = `${gleaner.url.replace('http', 'ws')}/v2/browser/${created.id}/cdp`;
    expect(await upgradeStatus(url, { authorization: `Bearer ${gleaner.key}` })).toBe(403);
    const res = await fetch(`${gleaner.url}/v2/browser/${created.id}/cdp`, { headers: { authorization: `Bearer ${gleaner.key}` } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(/BROWSER_CDP/);
    await expect(pw.connectOverCDP(`${url}?token=x`, { timeout: 10_000 })).rejects.toThrow(/403/);
    await fc.deleteBrowser(created.id!);
  });
});
