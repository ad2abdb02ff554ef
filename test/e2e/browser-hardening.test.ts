/**
 * The browser engine and sessions hold their boundaries against hostile pages: no network path
 * around the SSRF guard (WebRTC's UDP), no navigation to a blocked address passed off as a
 * success, and no page big enough to flood the API process (MAX_RESPONSE_BYTES on every browser
 * path, and a bound on what `execute` brings back from the page). The fixture site listens on
 * 127.0.0.2 and only that address is allowed; 127.0.0.3 stands for a blocked address.
 */
import dgram from 'node:dgram';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/scrape/engines/chromium.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

const chromium = findChromium(process.env.CHROMIUM_PATH);
const BLOCKED_HOST = '127.0.0.3';
/** Small, so the fixture site's pages can be "too large" without serving hundreds of megabytes. */
const MAX_RESPONSE_BYTES = 400_000;

// The SDK's ActionOption type lags the interface; the server takes these.
type AnyActions = never;

describe.skipIf(!chromium)('browser hardening', () => {
  let site: FixtureSite;
  let gleaner: TestGleaner;
  let fc: Firecrawl;

  beforeAll(async () => {
    site = await startFixtureSite(0, '127.0.0.2');
    gleaner = await startGleaner({ embedded: true, env: { ALLOW_PRIVATE_ADDRESSES: '127.0.0.2/32', RATE_LIMIT_PER_MINUTE: '3000', MAX_RESPONSE_BYTES: String(MAX_RESPONSE_BYTES) } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
    await site?.close();
  });

  describe('MAX_RESPONSE_BYTES in the browser', () => {
    const tooLarge = new RegExp(`larger than the ${MAX_RESPONSE_BYTES}-byte limit`);

    it('refuses a large document with the error the HTTP engine gives it', async () => {
      // /large is about 3 MB of HTML: plain, it goes to the HTTP engine; a screenshot needs the browser.
      const http = await sdkError(fc.scrape(`${site.url}/large`, { formats: ['markdown'], maxAge: 0 }));
      expect(http.message).toMatch(tooLarge);
      const browser = await sdkError(fc.scrape(`${site.url}/large`, { formats: ['markdown', 'screenshot'], maxAge: 0 }));
      expect({ status: browser.status, code: browser.code }).toEqual({ status: http.status, code: http.code });
      expect(browser.message).toMatch(tooLarge);
    });

    it('refuses a small document whose script grows the DOM past the limit', async () => {
      const e = await sdkError(fc.scrape(`${site.url}/app/grow?chars=${MAX_RESPONSE_BYTES * 2}`, { formats: ['markdown', 'screenshot'], maxAge: 0 }));
      expect(e.status).toBe(500);
      expect(e.code).toBe('SCRAPE_SITE_ERROR');
      expect(e.message).toMatch(tooLarge);
      const fits = await fc.scrape(`${site.url}/app/grow?chars=1000`, { formats: ['markdown', 'screenshot'], maxAge: 0 });
      expect(fits.markdown).toContain('g'.repeat(1000));
    });

    it('refuses what a scrape or executeJavascript action would read back past the limit', async () => {
      const url = `${site.url}/app/grow?chars=1000`;
      const big = `'x'.repeat(${MAX_RESPONSE_BYTES * 2})`;
      for (const action of [
        { type: 'executeJavascript', script: big },
        { type: 'executeJavascript', script: `document.body.append(${big})` },
        { type: 'scrape' },
      ]) {
        const actions = action.type === 'scrape' ? [{ type: 'executeJavascript', script: `document.body.append(${big})` }, action] : [action];
        const e = await sdkError(fc.scrape(url, { formats: ['markdown'], actions: actions as AnyActions, maxAge: 0 }));
        expect(e.message, JSON.stringify(actions)).toMatch(tooLarge);
      }
    });
  });

  describe('what execute reads back from a session page', () => {
    let id: string;
    const run = (code: string) => fc.browserExecute(id, { code, language: 'node', timeout: 60 });
    const big = `'x'.repeat(${MAX_RESPONSE_BYTES * 2})`;

    beforeAll(async () => {
      id = (await fc.browser({ ttl: 300 })).id!;
      await run(`await page.goto(${JSON.stringify(`${site.url}/app/grow?chars=10`)})`);
    });
    afterAll(async () => {
      await fc.deleteBrowser(id);
    });

    it.each([
      ['evaluate with a string', `await page.evaluate(${JSON.stringify(big)})`],
      ['evaluate with a function', `await page.evaluate((n) => 'x'.repeat(n), ${MAX_RESPONSE_BYTES * 2})`],
      ['a locator evaluate', `await page.locator('#grown').evaluate((el, n) => 'x'.repeat(n), ${MAX_RESPONSE_BYTES * 2})`],
      ['an evaluateAll', `await page.$$eval('h1', (els, n) => els.map(() => 'x'.repeat(n)), ${MAX_RESPONSE_BYTES * 2})`],
      ['content() of a grown DOM', `await page.evaluate(${JSON.stringify(`document.getElementById('grown').textContent = ${big}; 1`)}); await page.content()`],
      ['textContent of a grown element', `await page.textContent('#grown')`],
      ['innerHTML of a grown element', `await page.locator('#grown').innerHTML()`],
      ['allTextContents of grown elements', `await page.locator('main div').allTextContents()`],
    ])('refuses %s past the limit, in the page, and the code can go on', async (_what, code) => {
      const r = await run(code);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/Payload Too Large: the page's value is \d+ characters/);
      const after = await run(`try { ${code} } catch (e) { console.log('caught') } await page.title()`);
      expect(after).toMatchObject({ exitCode: 0, stdout: 'caught\n', result: 'Grown by script' });
    });

    it('still reads values within the limit', async () => {
      const r = await run(`[await page.evaluate(() => 'y'.repeat(1000)), await page.locator('h1').textContent()]`);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.result!)).toEqual(['y'.repeat(1000), 'Grown by script']);
    });
  });

  describe('an action that navigates to a blocked address', () => {
    const blocked = `http://${BLOCKED_HOST}:9/inside`;

    it('fails the scrape with the error a blocked scrape URL gets', async () => {
      const direct = await sdkError(fc.scrape(blocked, { maxAge: 0 }));
      expect(direct.status).toBe(403);
      for (const actions of [
        [{ type: 'click', selector: '#away' }],
        [{ type: 'executeJavascript', script: `location.href = ${JSON.stringify(blocked)}` }, { type: 'wait', milliseconds: 500 }],
      ]) {
        const e = await sdkError(fc.scrape(`${site.url}/app/link?to=${encodeURIComponent(blocked)}`, { formats: ['markdown'], actions: actions as AnyActions, maxAge: 0 }));
        expect({ status: e.status, code: e.code }, JSON.stringify(actions)).toEqual({ status: direct.status, code: direct.code });
      }
    });

    it('fails it for a redirect to a blocked address too', async () => {
      const hop = `${site.url}/redirect-to?url=${encodeURIComponent(blocked)}`;
      const e = await sdkError(
        fc.scrape(`${site.url}/app/link?to=${encodeURIComponent(hop)}`, { formats: ['markdown'], actions: [{ type: 'click', selector: '#away' }] as AnyActions, maxAge: 0 }),
      );
      expect(e.status).toBe(403);
    });
  });

  describe('WebRTC to a blocked address', () => {
    let udp: dgram.Socket;
    let stun: string;
    const received: string[] = [];

    beforeAll(async () => {
      udp = dgram.createSocket('udp4');
      udp.on('message', (_msg, from) => received.push(`${from.address}:${from.port}`));
      await new Promise<void>((resolve) => udp.bind(0, BLOCKED_HOST, resolve));
      stun = `${BLOCKED_HOST}:${udp.address().port}`;
    });
    afterAll(() => {
      udp?.close();
    });
    beforeEach(() => {
      received.length = 0;
    });

    it('gets no UDP packet from a page rendered for a scrape', async () => {
      const doc = await fc.scrape(`${site.url}/app/webrtc?stun=${stun}`, {
        formats: ['markdown'],
        actions: [{ type: 'wait', selector: '#ice-done' }] as AnyActions,
        maxAge: 0,
      });
      expect(doc.markdown).toContain('ICE gathering over');
      expect(received).toEqual([]);
    });

    it('gets no UDP packet from an executeJavascript action', async () => {
      const doc = await fc.scrape(`${site.url}/app/webrtc`, {
        formats: ['markdown'],
        actions: [{ type: 'executeJavascript', script: `return (await probeWebRtc(${JSON.stringify(stun)})).length` }] as AnyActions,
        maxAge: 0,
      });
      const returns = (doc.actions as { javascriptReturns: { type: string; value: unknown }[] }).javascriptReturns;
      expect(returns[0]?.type).toBe('number');
      expect(received).toEqual([]);
    });

    it('gets no UDP packet from code run in a session', async () => {
      const { id } = await fc.browser({ ttl: 120 });
      try {
        const r = await fc.browserExecute(id!, {
          language: 'node',
          code: `await page.goto(${JSON.stringify(`${site.url}/app/webrtc`)}); (await page.evaluate(${JSON.stringify(`probeWebRtc(${JSON.stringify(stun)})`)})).length`,
        });
        expect(r.exitCode, r.stderr).toBe(0);
        expect(received).toEqual([]);
      } finally {
        await fc.deleteBrowser(id!);
      }
    });
  });
});
