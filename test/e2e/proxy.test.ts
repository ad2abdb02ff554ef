/**
 * Outbound proxies: basic and enhanced tiers from the operator's configuration, `auto` escalation
 * when the first try is blocked, SOCKS5, and per-country proxies. Real proxy servers on loopback;
 * the fixture's guarded pages only answer requests arriving from the enhanced proxy's address.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENHANCED_PEER, startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { startHttpProxy, startSocksProxy, type TestProxy } from '../helpers/proxies.js';

let site: FixtureSite;
let basic: TestProxy;
let enhanced: TestProxy;
let socks: TestProxy;
let gleaner: TestGleaner;
let fc: Firecrawl;

beforeAll(async () => {
  site = await startFixtureSite();
  basic = await startHttpProxy();
  enhanced = await startHttpProxy(ENHANCED_PEER);
  socks = await startSocksProxy();
  gleaner = await startGleaner({
    embedded: true,
    env: { PROXY_BASIC: basic.url, PROXY_ENHANCED: enhanced.url, PROXY_COUNTRIES: `SE=${socks.url}` },
  });
  fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
});
afterAll(async () => {
  await gleaner?.close();
  await Promise.all([basic?.close(), enhanced?.close(), socks?.close()]);
  await site?.close();
});

describe('proxy tiers', () => {
  it('sends proxy: basic through the basic proxy', async () => {
    const before = basic.hits;
    const doc = await fc.scrape(`${site.url}/article`, { proxy: 'basic', maxAge: 0 });
    expect(basic.hits).toBeGreaterThan(before);
    expect(doc.metadata?.proxyUsed).toBe('basic');
  });

  it('sends proxy: enhanced through the enhanced proxy', async () => {
    const doc = await fc.scrape(`${site.url}/guarded`, { proxy: 'enhanced', maxAge: 0 });
    expect(doc.markdown).toContain('You came through the enhanced proxy.');
    expect(doc.metadata?.proxyUsed).toBe('enhanced');
  });

  it('escalates auto to the enhanced proxy when the basic try gets a 403', async () => {
    const doc = await fc.scrape(`${site.url}/guarded`, { proxy: 'auto', maxAge: 0 });
    expect(doc.metadata?.statusCode).toBe(200);
    expect(doc.metadata?.proxyUsed).toBe('enhanced');
  });

  it('escalates auto when the basic try gets a challenge page', async () => {
    const doc = await fc.scrape(`${site.url}/challenge`, { maxAge: 0 });
    expect(doc.markdown).toContain('The challenge page was bypassed.');
    expect(doc.metadata?.proxyUsed).toBe('enhanced');
  });

  it('keeps the basic result when basic is asked for explicitly, even if blocked', async () => {
    const doc = await fc.scrape(`${site.url}/guarded`, { proxy: 'basic', maxAge: 0 });
    expect(doc.metadata?.statusCode).toBe(403);
    expect(doc.metadata?.proxyUsed).toBe('basic');
  });

  it('uses the per-country SOCKS5 proxy for location.country', async () => {
    const before = socks.hits;
    const doc = await fc.scrape(`${site.url}/article`, { proxy: 'basic', location: { country: 'se' }, maxAge: 0 });
    expect(socks.hits).toBeGreaterThan(before);
    expect(doc.markdown).toContain('Sourdough rewards patience');
  });
});
