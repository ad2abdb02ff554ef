/**
 * Options the HTTP engine used to accept and ignore: each now does what it says, or the
 * Document carries a `warning` naming what could not be honoured.
 *  - `proxy: "enhanced"` on a server without PROXY_ENHANCED: fetched on the basic tier, said so.
 *  - `location.country`: the country's language goes out as Accept-Language; its proxy is used
 *    when PROXY_COUNTRIES has one, and a warning says when none is configured.
 *  - `blockAds`: cookie-consent notices and ad slots are left out of the markdown even with
 *    `onlyMainContent: false`.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { startSocksProxy, type TestProxy } from '../helpers/proxies.js';

let site: FixtureSite;
let socks: TestProxy;
let gleaner: TestGleaner;
let fc: Firecrawl;

beforeAll(async () => {
  site = await startFixtureSite();
  socks = await startSocksProxy();
  // No PROXY_ENHANCED, and a proxy for Sweden only.
  gleaner = await startGleaner({ embedded: true, env: { RATE_LIMIT_PER_MINUTE: '1000', PROXY_COUNTRIES: `SE=${socks.url}` } });
  fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
});
afterAll(async () => {
  await gleaner?.close();
  await socks?.close();
  await site?.close();
});

/** The request header the fixture's /headers page echoed back, from the markdown. */
const echoed = (markdown: string | undefined, name: string) => new RegExp('`' + name + '`: ([^\\n]*)').exec(markdown ?? '')?.[1]?.trim();

describe('proxy: enhanced without an enhanced proxy', () => {
  it('is fetched on the basic tier with a warning saying so', async () => {
    const doc = await fc.scrape(`${site.url}/article`, { proxy: 'enhanced', maxAge: 0 });
    expect(doc.metadata?.proxyUsed).toBe('basic');
    expect(doc.warning).toContain("proxy 'enhanced'");
    expect(doc.warning).toContain('PROXY_ENHANCED');
    expect((await fc.scrape(`${site.url}/article`, { proxy: 'basic', maxAge: 0 })).warning).toBeUndefined();
  });
});

describe('location.country on the HTTP engine', () => {
  it("sends the country's language as Accept-Language, and warns that its address could not be honoured", async () => {
    const doc = await fc.scrape(`${site.url}/headers`, { location: { country: 'DE' }, maxAge: 0 });
    expect(echoed(doc.markdown, 'accept-language')).toBe('de-DE, de;q=0.9');
    expect(doc.warning).toContain('location.country DE');
    expect(doc.warning).toContain('PROXY_COUNTRIES');
  });

  it('prefers the languages given over the country', async () => {
    const doc = await fc.scrape(`${site.url}/headers`, { location: { country: 'DE', languages: ['fr-CH', 'fr'] }, maxAge: 0 });
    expect(echoed(doc.markdown, 'accept-language')).toBe('fr-CH, fr;q=0.9');
  });

  it('goes through the per-country proxy when one is configured, with no warning', async () => {
    const before = socks.hits;
    const doc = await fc.scrape(`${site.url}/headers`, { location: { country: 'SE' }, maxAge: 0 });
    expect(socks.hits).toBeGreaterThan(before);
    expect(echoed(doc.markdown, 'accept-language')).toBe('sv-SE, sv;q=0.9');
    expect(doc.warning).toBeUndefined();
  });
});

describe('blockAds on the HTTP engine', () => {
  const banner = ['ONETRUST-BANNER-TEXT', 'GENERIC-COOKIE-NOTICE', 'ADSENSE-SLOT-TEXT', 'GPT-SLOT-TEXT'];

  it('leaves cookie banners and ad slots out of the markdown with onlyMainContent off', async () => {
    const doc = await fc.scrape(`${site.url}/ads-and-cookies`, { onlyMainContent: false, maxAge: 0 });
    expect(doc.metadata?.statusCode).toBe(200);
    for (const t of banner) expect(doc.markdown, t).not.toContain(t);
    expect(doc.markdown).toContain('KEPT-CONTENT');
    expect(doc.markdown).toContain('RECIPE-STAYS');
  });

  it('leaves them out with the default onlyMainContent as well', async () => {
    const doc = await fc.scrape(`${site.url}/ads-and-cookies`, { maxAge: 0 });
    for (const t of banner) expect(doc.markdown, t).not.toContain(t);
    expect(doc.markdown).toContain('KEPT-CONTENT');
  });

  it('keeps them with blockAds: false, and the cache tells the two apart', async () => {
    await fc.scrape(`${site.url}/ads-and-cookies`, { onlyMainContent: false });
    const doc = await fc.scrape(`${site.url}/ads-and-cookies`, { onlyMainContent: false, blockAds: false });
    for (const t of banner) expect(doc.markdown, t).toContain(t);
  });
});
