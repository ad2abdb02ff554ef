/**
 * The same scrape API on the distributed backing services: PostgreSQL for the store and Redis for
 * rate-limit counters. Runs when DATABASE_URL and REDIS_URL are set (CI sets both).
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

const distributed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe.skipIf(!distributed)('scrape on PostgreSQL and Redis', () => {
  let site: FixtureSite;
  let gleaner: TestGleaner;
  let fc: Firecrawl;

  beforeAll(async () => {
    site = await startFixtureSite();
    gleaner = await startGleaner({ env: { RATE_LIMIT_PER_MINUTE: '4' } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
    await site?.close();
  });

  it('runs on PostgreSQL', () => {
    expect(gleaner.rt.store.dialect).toBe('postgres');
    expect(gleaner.rt.redis).toBeDefined();
  });

  it('scrapes, caches in PostgreSQL and serves the cached copy', async () => {
    const first = await fc.scrape(`${site.url}/article?pg=1`);
    expect(first.metadata?.cacheState).toBe('miss');
    const second = await fc.scrape(`${site.url}/article?pg=1`);
    expect(second.metadata?.cacheState).toBe('hit');
    const rows = await gleaner.rt.store.db.selectFrom('scrape_cache').select('url').execute();
    expect(rows.map((r) => r.url)).toContain(`${site.url}/article?pg=1`);
  });

  it('counts rate limits in Redis', async () => {
    // Two scrapes above used 2 of the 4 allowed per minute.
    await fc.scrape(`${site.url}/article?pg=2`);
    await fc.scrape(`${site.url}/article?pg=3`);
    await expect(fc.scrape(`${site.url}/article?pg=4`)).rejects.toMatchObject({ status: 429 });
    const keys = await gleaner.rt.redis!.keys('gleaner-test:*');
    expect(keys.length).toBeGreaterThan(0);
  });
});
