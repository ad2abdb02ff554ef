/**
 * Zero data retention as the interface defines it: a lockdown request, like a
 * `zeroDataRetention` one, leaves no stored scrape behind its scrapeId.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

let site: FixtureSite;
let gleaner: TestGleaner;
let fc: Firecrawl;

beforeAll(async () => {
  site = await startFixtureSite();
  gleaner = await startGleaner({ embedded: true });
  fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
});
afterAll(async () => {
  await gleaner?.close();
  await site?.close();
});

const stored = (id: string) => fetch(`${gleaner.url}/v2/scrape/${id}`, { headers: { authorization: `Bearer ${gleaner.key}` } });

describe('requests that keep nothing', () => {
  it('a lockdown hit answers from the cache and leaves its scrapeId unreadable', async () => {
    const url = `${site.url}/article?zdr=1`;
    const first = await fc.scrape(url, {});
    expect((await stored(first.metadata!.scrapeId!)).status).toBe(200);
    const hit = await fc.scrape(url, { lockdown: true } as never);
    expect(hit.metadata?.cacheState).toBe('hit');
    const res = await stored(hit.metadata!.scrapeId!);
    expect(res.status).toBe(404);
  });

  it('a zeroDataRetention scrape leaves its scrapeId unreadable', async () => {
    const doc = await fc.scrape(`${site.url}/article?zdr=2`, { zeroDataRetention: true } as never);
    expect((await stored(doc.metadata!.scrapeId!)).status).toBe(404);
  });
});
