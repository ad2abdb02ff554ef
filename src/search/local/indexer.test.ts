/**
 * The indexer on re-fetched pages, on SQLite and (with DATABASE_URL) PostgreSQL: a page fetched
 * again unchanged is only dated anew, not read again; a changed one is indexed again (title,
 * text, date), even when it changes back while its last write is still buffered; a page gone
 * leaves the index; and each team renews and finds only its own pages.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scratchStore, type ScratchStore } from '../../../test/helpers/scratch-store.js';
import type { Document } from '../../core/document.js';
import type { Store } from '../../store/db.js';
import { PageIndexer } from './indexer.js';
import type { LocalIndex } from './local-index.js';
import { PostgresIndex } from './postgres-index.js';
import { SqliteIndex } from './sqlite-index.js';

const backends = [{ name: 'sqlite', url: undefined }, ...(process.env.DATABASE_URL ? [{ name: 'postgres', url: process.env.DATABASE_URL }] : [])];

const URL_A = 'https://tea.example/kettles';
const doc = (markdown: string, metadata: Record<string, unknown> = {}): Document =>
  ({ markdown, metadata: { url: URL_A, sourceURL: URL_A, statusCode: 200, title: 'Kettles', ...metadata } }) as unknown as Document;
const silent = { warn: () => {} };

describe.each(backends)('page indexer on pages fetched again ($name)', ({ url }) => {
  let scratch: ScratchStore;
  let store: Store;
  let index: LocalIndex;
  let indexer: PageIndexer;
  const find = async (query: string, teamId = 'a') => (await index.search({ teamId, query, limit: 5 })).map((h) => ({ title: h.title, body: h.body }));

  beforeEach(async () => {
    scratch = scratchStore('search_indexer', url);
    store = await scratch.open();
    index = url ? new PostgresIndex(store.db) : new SqliteIndex(path.join(scratch.folder(), 'search.sqlite'));
    indexer = new PageIndexer(index, silent);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await index?.close();
    await store?.close();
    await scratch?.remove();
  });

  it('only renews the date of a page fetched again unchanged', async () => {
    await indexer.index('a', doc('A copper kettle.'));
    await find('copper');
    const upsert = vi.spyOn(index, 'upsert');
    const renew = vi.spyOn(index, 'renew');
    await indexer.index('a', doc('A copper kettle.'));
    expect(upsert).not.toHaveBeenCalled();
    expect(await renew.mock.results[0]?.value).toBe(true);
    expect(await find('copper')).toEqual([{ title: 'Kettles', body: 'A copper kettle.' }]);
  });

  it.each([
    ['its text', doc('An iron teapot.'), { title: 'Kettles', body: 'An iron teapot.' }],
    ['its title', doc('A copper kettle.', { title: 'Teapots' }), { title: 'Teapots', body: 'A copper kettle.' }],
  ])('indexes a page again when %s changed', async (_, changed, expected) => {
    await indexer.index('a', doc('A copper kettle.'));
    await find('copper');
    await indexer.index('a', changed);
    expect(await find('kettle OR teapot OR teapots OR iron OR copper')).toEqual([expected]);
  });

  it('dates a page anew when its published date changed', async () => {
    await indexer.index('a', doc('A copper kettle.', { publishedTime: '2024-01-01T00:00:00Z' }));
    await find('copper');
    await indexer.index('a', doc('A copper kettle.', { publishedTime: '2025-06-01T00:00:00Z' }));
    expect((await index.search({ teamId: 'a', query: 'copper', limit: 5 })).map((h) => h.date)).toEqual([Date.UTC(2025, 5, 1)]);
  });

  it('keeps the last text of a page that changed and changed back at once', async () => {
    await indexer.index('a', doc('A copper kettle.'));
    await find('copper');
    await indexer.index('a', doc('An iron teapot.'));
    await indexer.index('a', doc('A copper kettle.'));
    expect(await find('copper')).toEqual([{ title: 'Kettles', body: 'A copper kettle.' }]);
    expect(await find('teapot')).toEqual([]);
  });

  it('forgets a page gone, and indexes it in full when it is back', async () => {
    await indexer.index('a', doc('A copper kettle.'));
    await indexer.index('a', doc('', { statusCode: 404 }));
    expect(await find('copper')).toEqual([]);
    await indexer.index('a', doc('A copper kettle.'));
    expect(await find('copper')).toHaveLength(1);
  });

  it('forgets a page gone when the address it is gone at has a fragment', async () => {
    await indexer.index('a', doc('A copper kettle.'));
    await indexer.index('a', doc('', { statusCode: 404, url: `${URL_A}#spouts`, sourceURL: `${URL_A}#spouts` }));
    expect(await find('copper')).toEqual([]);
  });

  it('renews and finds a team its own pages only', async () => {
    await indexer.index('a', doc('A copper kettle.'));
    await find('copper');
    expect(await index.renew('b', URL_A, 'any')).toBe(false);
    await indexer.index('b', doc('A copper kettle.'));
    expect(await find('copper', 'b')).toHaveLength(1);
    await indexer.index('a', doc('', { statusCode: 410 }));
    expect(await find('copper', 'a')).toEqual([]);
    expect(await find('copper', 'b')).toHaveLength(1);
  });
});
