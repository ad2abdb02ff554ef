/**
 * Crawl recovery claims a stalled job for one process: of the workers that find it stalled at
 * once, exactly one re-queues its work. Runs on SQLite, and on PostgreSQL (a connection per
 * worker) when DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/db.js';
import { scratchStore } from '../../test/helpers/scratch-store.js';
import { CrawlJobs } from './job-store.js';

const databaseUrl = process.env.DATABASE_URL;

describe.each([{ name: 'sqlite', url: undefined }, ...(databaseUrl ? [{ name: 'postgres', url: databaseUrl }] : [])])('crawl jobs ($name)', ({ url }) => {
  const scratch = scratchStore('crawl_jobs', url);
  const stores: Store[] = [];
  beforeAll(async () => {
    stores.push(await scratch.open());
    // SQLite: one connection per process (see the queue tests); PostgreSQL: one per worker.
    stores.push(url ? await scratch.open() : stores[0]!);
  });
  afterAll(async () => {
    for (const s of new Set(stores)) await s.close();
    await scratch.remove();
  });

  it('gives each stalled job to one of the workers that claim it at once, and none that moved', async () => {
    const [a, b] = stores.map((s) => new CrawlJobs(s.db, s.dialect));
    const ids = ['stalled-1', 'stalled-2', 'stalled-3', 'moving'];
    for (const id of ids) {
      await a!.create({ id, teamId: 't', kind: 'crawl', url: 'http://example.test/', plan: {}, webhook: null, limit: 10, kickoffDone: true, ttlMs: 3_600_000 });
    }
    await stores[0]!.db.updateTable('crawls').set({ updated_at: Date.now() - 120_000 }).where('id', '!=', 'moving').execute();

    const [first, second] = await Promise.all([a!.claimStalled(60_000), b!.claimStalled(60_000)]);
    expect([...first!, ...second!].sort()).toEqual(['stalled-1', 'stalled-2', 'stalled-3']);
    // Claimed means moved on: nothing is stalled until it stands still for another minute.
    expect(await a!.claimStalled(60_000)).toEqual([]);
  });
});
