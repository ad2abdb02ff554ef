/**
 * Zero data retention as the interface defines it: a lockdown request, like a
 * `zeroDataRetention` one, leaves no stored scrape behind its scrapeId.
 */
import { describe, expect, it } from 'vitest';
import { useE2eServer } from '../helpers/e2e-server.js';

const e2e = useE2eServer({ embedded: true });

const stored = (id: string) => fetch(`${e2e.gleaner.url}/v2/scrape/${id}`, { headers: { authorization: `Bearer ${e2e.gleaner.key}` } });

describe('requests that keep nothing', () => {
  it('a lockdown hit answers from the cache and leaves its scrapeId unreadable', async () => {
    const url = `${e2e.site.url}/article?zdr=1`;
    const first = await e2e.fc.scrape(url, {});
    expect((await stored(first.metadata!.scrapeId!)).status).toBe(200);
    const hit = await e2e.fc.scrape(url, { lockdown: true } as never);
    expect(hit.metadata?.cacheState).toBe('hit');
    const res = await stored(hit.metadata!.scrapeId!);
    expect(res.status).toBe(404);
  });

  it('a zeroDataRetention scrape leaves its scrapeId unreadable', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/article?zdr=2`, { zeroDataRetention: true } as never);
    expect((await stored(doc.metadata!.scrapeId!)).status).toBe(404);
  });
});
