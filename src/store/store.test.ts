/**
 * The store's contract, run against every database this machine offers: SQLite always, and
 * PostgreSQL when DATABASE_URL is set (each run in its own schema, dropped afterwards).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BlobStore } from './blobs.js';
import type { Store } from './db.js';
import { scratchStore } from '../../test/helpers/scratch-store.js';
import { DocumentRepository } from './documents.js';
import { KeyRepository, hasScope } from './keys.js';

const backends: { name: string; databaseUrl?: string }[] = [{ name: 'sqlite' }];
if (process.env.DATABASE_URL) backends.push({ name: 'postgres', databaseUrl: process.env.DATABASE_URL });

describe.each(backends)('store on $name', ({ databaseUrl }) => {
  let store: Store;
  const scratch = scratchStore('store', databaseUrl);

  beforeAll(async () => {
    store = await scratch.open();
  });
  afterAll(async () => {
    await store?.close();
    await scratch.remove();
  });

  it('migrates idempotently: opening an existing store again changes nothing', async () => {
    const again = await scratch.open();
    await again.close();
  });

  it('creates, authenticates, lists and revokes keys', async () => {
    const keys = new KeyRepository(store.db);
    const teamId = await keys.ensureTeam('acme');
    expect(await keys.ensureTeam('acme')).toBe(teamId);
    const { id, key } = await keys.create({ teamId, name: 'ci', scopes: ['scrape', 'map'] });
    expect(key).toMatch(/^fc-[0-9a-f]{48}$/);
    const p = await keys.authenticate(key);
    expect(p).toMatchObject({ keyId: id, teamId, plan: 'standard', scopes: ['scrape', 'map'] });
    expect(hasScope(p!, 'scrape')).toBe(true);
    expect(hasScope(p!, 'crawl')).toBe(false);
    expect(await keys.authenticate(key + 'x')).toBeUndefined();
    const listed = (await keys.list()).find((k) => k.id === id)!;
    expect(listed.prefix).toBe(key.slice(0, 7));
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(await keys.revoke(key)).toBe(true);
    expect(await keys.revoke(id)).toBe(false);
    expect(await keys.authenticate(key)).toBeUndefined();
  });

  it('honours a revocation made by another process once the key cache window has passed', async () => {
    const keys = new KeyRepository(store.db, 1_000);
    const elsewhere = new KeyRepository(store.db);
    const teamId = await keys.ensureTeam('acme');
    const { key } = await keys.create({ teamId, name: 'shared' });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect(await keys.authenticate(key)).toBeDefined();
      expect(await elsewhere.revoke(key)).toBe(true);
      expect(await elsewhere.authenticate(key)).toBeUndefined();
      vi.setSystemTime(Date.now() + 1_001);
      expect(await keys.authenticate(key)).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps cache entries per team and replaces them on write', async () => {
    const docs = new DocumentRepository<{ markdown: string }>(store.db);
    await docs.putCached('team-a', 'k1', 'http://x/', { markdown: 'one' }, 1000);
    await docs.putCached('team-a', 'k1', 'http://x/', { markdown: 'two' }, 2000);
    expect(await docs.getCached('team-a', 'k1')).toEqual({ document: { markdown: 'two' }, storedAt: 2000 });
    expect(await docs.getCached('team-b', 'k1')).toBeUndefined();
  });

  it('records scrapes and returns them only to their team', async () => {
    const docs = new DocumentRepository<{ markdown: string }>(store.db);
    const id = '3f1c2a4e-0000-4000-8000-000000000001';
    await docs.recordScrape(id, 'team-a', 'http://x/', { markdown: 'hello' });
    expect(await docs.getScrape(id, 'team-a')).toEqual({ markdown: 'hello' });
    expect(await docs.getScrape(id, 'team-b')).toBeUndefined();
  });

  it('purges scrape records older than the cut-off and keeps newer ones', async () => {
    const docs = new DocumentRepository<{ markdown: string }>(store.db);
    const old = '3f1c2a4e-0000-4000-8000-000000000002';
    const recent = '3f1c2a4e-0000-4000-8000-000000000003';
    await docs.recordScrape(old, 'team-a', 'http://x/old', { markdown: 'old' }, 1_000);
    await docs.recordScrape(recent, 'team-a', 'http://x/new', { markdown: 'new' }, 5_000);
    expect(await docs.purgeScrapes(2_000)).toBe(1);
    expect(await docs.getScrape(old, 'team-a')).toBeUndefined();
    expect(await docs.getScrape(recent, 'team-a')).toEqual({ markdown: 'new' });
  });

  it('purges cache entries stored before the cut-off and keeps newer or refreshed ones', async () => {
    const docs = new DocumentRepository<{ markdown: string }>(store.db);
    await docs.putCached('team-a', 'k-old', 'http://x/old', { markdown: 'old' }, 1_000);
    await docs.putCached('team-b', 'k-old', 'http://x/old', { markdown: 'old, other team' }, 1_500);
    await docs.putCached('team-a', 'k-new', 'http://x/new', { markdown: 'new' }, 5_000);
    expect(await docs.purgeCache(2_000)).toBe(2);
    expect(await docs.getCached('team-a', 'k-old')).toBeUndefined();
    expect(await docs.getCached('team-b', 'k-old')).toBeUndefined();
    expect(await docs.getCached('team-a', 'k-new')).toEqual({ document: { markdown: 'new' }, storedAt: 5_000 });
    expect(await docs.purgeCache(2_000)).toBe(0);
  });

  it('stores blobs behind signed, expiring links and purges expired ones', async () => {
    const blobs = new BlobStore(store.db, scratch.folder(), 60);
    const ref = await blobs.put('team-a', Buffer.from('png-bytes'), 'image/png');
    const url = new URL(blobs.urlPath(ref), 'http://h');
    expect(url.pathname).toBe(`/v2/files/${ref.id}.png`);
    const sig = url.searchParams.get('sig')!;
    const opened = await blobs.open(ref.id, ref.expiresAt, sig);
    expect(fs.readFileSync(opened!.path, 'utf8')).toBe('png-bytes');
    expect(await blobs.open(ref.id, ref.expiresAt + 1, sig)).toBeUndefined();
    expect(await blobs.open(ref.id, ref.expiresAt, sig.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')))).toBeUndefined();
    expect(await blobs.purgeExpired(ref.expiresAt + 1)).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(opened!.path)).toBe(false);
  });
});
