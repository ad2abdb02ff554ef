/**
 * Scrape actions through the official SDK: every action type against the fixture site's
 * interactive page, a login flow typed key by key, action failures naming the action, the
 * bounds of the option, and blockAds.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/scrape/engines/chromium.js';
import { FIXTURE_USER } from '../fixture-site/browser-pages.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

const chromium = findChromium(process.env.CHROMIUM_PATH);

let site: FixtureSite;
let gleaner: TestGleaner;
let fc: Firecrawl;

// The SDK's ActionOption type lags the interface (no `all` on click); the server takes it.
type AnyActions = never;

describe.skipIf(!chromium)('scrape actions', () => {
  beforeAll(async () => {
    site = await startFixtureSite();
    gleaner = await startGleaner({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
    await site?.close();
  });

  it('runs every action type in order and returns their results', async () => {
    const doc = await fc.scrape(`${site.url}/app/interactive`, {
      formats: ['markdown'],
      actions: [
        { type: 'wait', milliseconds: 50 },
        { type: 'wait', selector: '#late' },
        { type: 'click', selector: '#reveal' },
        { type: 'click', selector: '.add', all: true },
        { type: 'click', selector: '.no-such-thing', all: true },
        { type: 'click', selector: '#echo' },
        { type: 'write', text: 'hello' },
        { type: 'press', key: 'Enter' },
        { type: 'scroll', direction: 'down', selector: '#box' },
        { type: 'scroll' },
        { type: 'screenshot' },
        { type: 'scrape' },
        { type: 'executeJavascript', script: 'document.title' },
        { type: 'executeJavascript', script: 'const n = document.querySelectorAll("#added li").length; return n * 2;' },
        { type: 'screenshot', fullPage: true, quality: 60 },
        { type: 'pdf', format: 'A4', landscape: true, scale: 0.5 },
      ] as AnyActions,
    });
    const md = doc.markdown ?? '';
    expect(md).toContain('Late content arrived');
    expect(md).toContain('Secret revealed by a click');
    for (const b of ['A', 'B', 'C']) expect(md).toContain(`Clicked Add ${b}`);
    expect(md).toContain('Echo: hello');
    // Typed key by key: five keydowns for the text, one for Enter.
    expect(md).toContain('Keys: 6');
    expect(md).toContain('Last key: Enter');
    expect(md).toContain('Box: scrolled');
    expect(md).toContain('Scroll: down');

    const actions = doc.actions as { screenshots: string[]; scrapes: { url: string; html: string }[]; javascriptReturns: { type: string; value: unknown }[]; pdfs: string[] };
    expect(actions.javascriptReturns).toEqual([
      { type: 'string', value: 'Interactive' },
      { type: 'number', value: 6 },
    ]);
    expect(actions.scrapes).toHaveLength(1);
    expect(actions.scrapes[0]!.url).toBe(`${site.url}/app/interactive`);
    expect(actions.scrapes[0]!.html).toContain('Secret revealed by a click');
    expect(actions.screenshots).toHaveLength(2);
    const png = await fetch(actions.screenshots[0]!);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    const jpeg = await fetch(actions.screenshots[1]!);
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect(actions.pdfs).toHaveLength(1);
    const pdf = Buffer.from(await (await fetch(actions.pdfs[0]!)).arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('logs in with click, write and press, and captures the page the form led to', async () => {
    const doc = await fc.scrape(`${site.url}/app/login`, {
      actions: [
        { type: 'click', selector: '#username' },
        { type: 'write', text: FIXTURE_USER.username },
        { type: 'click', selector: '#password' },
        { type: 'write', text: FIXTURE_USER.password },
        { type: 'press', key: 'Enter' },
        { type: 'wait', selector: 'h1' },
      ],
    });
    expect(doc.markdown).toContain('Welcome back, alice');
    expect(doc.metadata?.url).toBe(`${site.url}/app/account`);
  });

  it('clicks a submit button to log in, too', async () => {
    const doc = await fc.scrape(`${site.url}/app/login`, {
      actions: [
        { type: 'click', selector: '#username' },
        { type: 'write', text: FIXTURE_USER.username },
        { type: 'click', selector: '#password' },
        { type: 'write', text: 'wrong' },
        { type: 'click', selector: '#login-btn' },
      ],
    });
    expect(doc.markdown).toContain('Wrong user or password');
  });

  it('fails the scrape with SCRAPE_ACTION_ERROR naming the index and type of the failing action', async () => {
    const never = await sdkError(
      fc.scrape(`${site.url}/app/interactive`, { timeout: 6000, actions: [{ type: 'wait', milliseconds: 10 }, { type: 'wait', selector: '#never-appears' }] }),
    );
    expect(never.code).toBe('SCRAPE_ACTION_ERROR');
    expect(never.message).toMatch(/^Action 1 \(wait\) failed/);

    const throws = await sdkError(fc.scrape(`${site.url}/app/interactive`, { actions: [{ type: 'executeJavascript', script: 'throw new Error("boom")' }] }));
    expect(throws.code).toBe('SCRAPE_ACTION_ERROR');
    expect(throws.message).toMatch(/^Action 0 \(executeJavascript\) failed: .*boom/);

    const missing = await sdkError(fc.scrape(`${site.url}/app/interactive`, { timeout: 5000, actions: [{ type: 'scrape' }, { type: 'click', selector: '#missing' }] }));
    expect(missing.code).toBe('SCRAPE_ACTION_ERROR');
    expect(missing.message).toMatch(/^Action 1 \(click\) failed/);
  });

  it('validates actions at the edge', async () => {
    const both = await sdkError(fc.scrape(`${site.url}/app/interactive`, { actions: [{ type: 'wait', milliseconds: 10, selector: 'p' }] }));
    expect(both.status).toBe(400);
    expect((both.details as { path: unknown[] }[])[0]!.path).toEqual(['actions', 0]);
    const neither = await sdkError(fc.scrape(`${site.url}/app/interactive`, { actions: [{ type: 'wait' }] }));
    expect(neither.status).toBe(400);
    const unknown = await sdkError(fc.scrape(`${site.url}/app/interactive`, { actions: [{ type: 'hover', selector: 'p' }] as AnyActions }));
    expect(unknown.status).toBe(400);
    expect(unknown.details[0].message).toContain('executeJavascript');
    const many = await sdkError(fc.scrape(`${site.url}/app/interactive`, { actions: Array.from({ length: 51 }, () => ({ type: 'scrape' as const })) }));
    expect(many.status).toBe(400);
    const long = await sdkError(fc.scrape(`${site.url}/app/interactive`, { timeout: 120_000, waitFor: 30_000, actions: [{ type: 'wait', milliseconds: 31_000 }] }));
    expect(long.status).toBe(400);
    expect((long.details as { path: unknown[] }[])[0]!.path).toEqual(['actions']);
    const badPdf = await sdkError(fc.scrape(`${site.url}/app/interactive`, { actions: [{ type: 'pdf', format: 'B5' as 'A4' }] }));
    expect(badPdf.status).toBe(400);
  });

  it('blocks ad requests and removes cookie banners unless blockAds is false', async () => {
    // onlyMainContent off: the main-content rules would drop a banner on their own.
    const blocked = await fc.scrape(`${site.url}/app/ads`, { onlyMainContent: false, actions: [{ type: 'wait', milliseconds: 100 }] });
    expect(blocked.markdown).toContain('The story itself is what matters here.');
    expect(blocked.markdown).not.toContain('ADVERT LOADED');
    expect(blocked.markdown).not.toContain('We use cookies');

    const open = await fc.scrape(`${site.url}/app/ads`, { blockAds: false, onlyMainContent: false, actions: [{ type: 'wait', milliseconds: 100 }] });
    expect(open.markdown).toContain('ADVERT LOADED');
    expect(open.markdown).toContain('We use cookies');
  });

  it('never caches a scrape with actions', async () => {
    const a = await fc.scrape(`${site.url}/app/interactive`, { actions: [{ type: 'scrape' }] });
    const b = await fc.scrape(`${site.url}/app/interactive`, { actions: [{ type: 'scrape' }] });
    expect(a.metadata?.cacheState).toBeUndefined();
    expect(b.metadata?.scrapeId).not.toBe(a.metadata?.scrapeId);
  });
});
