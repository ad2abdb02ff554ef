/**
 * What a write to the local index promises, on SQLite and (with DATABASE_URL) PostgreSQL: a page
 * is found as soon as its upsert has answered, even while the SQLite writes wait in their buffer;
 * fetching a page again with the same text renews its date, as `renew` does for the same source;
 * new text replaces the old; a removed or expired page is gone; and pages indexed before text
 * hashes were kept are indexed again, not skipped.
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scratchStore, type ScratchStore } from '../../../test/helpers/scratch-store.js';
import type { Store } from '../../store/db.js';
import type { LocalIndex } from './local-index.js';
import { urlWords, type PageText } from './page-text.js';
import { PostgresIndex } from './postgres-index.js';
import { SqliteIndex } from './sqlite-index.js';

const backends = [{ name: 'sqlite', url: undefined }, ...(process.env.DATABASE_URL ? [{ name: 'postgres', url: process.env.DATABASE_URL }] : [])];

const URL_A = 'https://tea.example/kettles';
const page = (body: string, url = URL_A): PageText => ({ url, host: 'tea.example', title: 'Kettles', description: '', headings: '', body, urlWords: urlWords(url), publishedAt: undefined });
const DAY = 86_400_000;

describe.each(backends)('local index writes ($name)', ({ url }) => {
  let scratch: ScratchStore;
  let store: Store;
  let index: LocalIndex;
  const find = (query: string) => index.search({ teamId: 'a', query, limit: 5 });

  beforeEach(async () => {
    scratch = scratchStore('search_writes', url);
    store = await scratch.open();
    index = url ? new PostgresIndex(store.db) : new SqliteIndex(path.join(scratch.folder(), 'search.sqlite'));
  });
  afterEach(async () => {
    await index?.close();
    await store?.close();
    await scratch?.remove();
  });

  it('finds many pages as soon as their upserts answered', async () => {
    await Promise.all(Array.from({ length: 100 }, (_, i) => index.upsert('a', page(`copper kettle number ${i}`, `${URL_A}/${i}`))));
    expect(await index.search({ teamId: 'a', query: 'copper kettle', limit: 100 })).toHaveLength(100);
    expect(await index.urls('a', ['https://tea.example/'], 200)).toHaveLength(100);
  });

  it('keeps text in any script as it was written, and finds its words', async () => {
    const body = 'Ein Teekessel aus Kupfer für 12 € — 銅のやかん, чайник 🫖';
    await index.upsert('a', page(body));
    expect((await find('Kupfer')).map((h) => h.body)).toEqual([body]);
    expect((await find('чайник')).map((h) => h.body)).toEqual([body]);
  });

  it('renews the date of a page fetched again with the same text', async () => {
    await index.upsert('a', page('a copper kettle'), Date.UTC(2024, 0, 1));
    await index.upsert('a', page('a copper kettle'), Date.UTC(2025, 0, 1));
    const hits = await find('copper');
    expect(hits.map((h) => h.date)).toEqual([Date.UTC(2025, 0, 1)]);
    expect(await index.search({ teamId: 'a', query: 'copper', limit: 5, to: Date.UTC(2024, 0, 1) + DAY })).toEqual([]);
  });

  it('replaces the text of a page fetched again with new text', async () => {
    await index.upsert('a', page('a copper kettle'));
    await index.upsert('a', page('an iron teapot'));
    expect(await find('copper')).toEqual([]);
    expect((await find('teapot')).map((h) => h.body)).toEqual(['an iron teapot']);
  });

  it('renews the date of a page only while it holds the same source', async () => {
    expect(await index.renew('a', URL_A, 'one', Date.UTC(2025, 0, 1))).toBe(false);
    await index.upsert('a', page('a copper kettle'), Date.UTC(2024, 0, 1));
    // Indexed without a source hash (before they were kept): never taken for unchanged.
    expect(await index.renew('a', URL_A, 'one', Date.UTC(2025, 0, 1))).toBe(false);
    await index.upsert('a', page('a copper kettle'), Date.UTC(2024, 0, 1), 'one');
    await find('copper');
    expect(await index.renew('a', URL_A, 'two', Date.UTC(2025, 0, 1))).toBe(false);
    expect(await index.renew('b', URL_A, 'one', Date.UTC(2025, 0, 1))).toBe(false);
    expect((await find('copper')).map((h) => h.date)).toEqual([Date.UTC(2024, 0, 1)]);
    expect(await index.renew('a', URL_A, 'one', Date.UTC(2025, 0, 1))).toBe(true);
    expect((await find('copper')).map((h) => h.date)).toEqual([Date.UTC(2025, 0, 1)]);
  });

  it('keeps the date of a page fetched again unchanged within a minute', async () => {
    const at = Date.UTC(2025, 0, 1);
    await index.upsert('a', page('a copper kettle'), at, 'one');
    await find('copper');
    expect(await index.renew('a', URL_A, 'one', at + 59_000)).toBe(true);
    expect((await find('copper')).map((h) => h.date)).toEqual([at]);
    expect(await index.renew('a', URL_A, 'one', at + 61_000)).toBe(true);
    expect((await find('copper')).map((h) => h.date)).toEqual([at + 61_000]);
  });

  it('answers each of many renewals made at once', async () => {
    const urls = Array.from({ length: 20 }, (_, i) => `${URL_A}/${i}`);
    await Promise.all(urls.map((u, i) => index.upsert('a', page(`copper kettle number ${i}`, u), Date.UTC(2024, 0, 1), `h${i}`)));
    await find('copper');
    // Even pages with their own hash, odd ones with another, and all of them for another team.
    const answers = await Promise.all([
      ...urls.map((u, i) => index.renew('a', u, i % 2 ? 'changed' : `h${i}`, Date.UTC(2025, 0, 1))),
      ...urls.map((u, i) => index.renew('b', u, `h${i}`, Date.UTC(2025, 0, 1))),
    ]);
    expect(answers).toEqual([...urls.map((_, i) => i % 2 === 0), ...urls.map(() => false)]);
    const dates = await index.search({ teamId: 'a', query: 'copper kettle', limit: 20, from: Date.UTC(2024, 6, 1) });
    expect(dates).toHaveLength(10);
  });

  it('expires pages by their renewed dates', async () => {
    await index.upsert('a', page('a copper kettle'), Date.UTC(2024, 0, 1), 'one');
    await index.upsert('a', page('an iron teapot', `${URL_A}/teapot`), Date.UTC(2024, 0, 1), 'two');
    await find('copper');
    expect(await index.renew('a', URL_A, 'one', Date.UTC(2025, 0, 1))).toBe(true);
    expect(await index.purge(Date.UTC(2024, 6, 1))).toBe(1);
    expect((await find('copper')).map((h) => h.url)).toEqual([URL_A]);
    expect(await find('teapot')).toEqual([]);
    expect(await index.purge(Date.UTC(2025, 6, 1))).toBe(1);
    expect(await index.renew('a', URL_A, 'one')).toBe(false);
    expect(await find('copper')).toEqual([]);
  });

  it('forgets a removed page, and finds it again once it is fetched again', async () => {
    await index.upsert('a', page('a copper kettle'));
    await index.remove('a', URL_A);
    expect(await find('copper')).toEqual([]);
    await index.upsert('a', page('a copper kettle'));
    expect(await find('copper')).toHaveLength(1);
  });

  it('replaces the text of a page when its source changed, and renews it while the source stays', async () => {
    await index.upsert('a', page('a copper kettle'), Date.UTC(2024, 0, 1), 'source-1');
    await index.upsert('a', page('an iron teapot'), Date.UTC(2024, 0, 2), 'source-2');
    expect(await find('copper')).toEqual([]);
    expect(await index.renew('a', URL_A, 'source-2', Date.UTC(2025, 0, 1))).toBe(true);
    expect((await find('teapot')).map((h) => h.date)).toEqual([Date.UTC(2025, 0, 1)]);
  });
});

describe('local index on SQLite, a write that fails', () => {
  it('fails alone: the other pages written with it are found', async () => {
    const scratch = scratchStore('search_writes_failed', undefined);
    const failed: Error[] = [];
    const index = new SqliteIndex(path.join(scratch.folder(), 'search.sqlite'), (err) => failed.push(err));
    try {
      // A page without a host breaks the table's NOT NULL rule, in the same batch as the others.
      const broken = { ...page('a broken kettle', `${URL_A}/broken`), host: null } as unknown as PageText;
      await Promise.all([index.upsert('a', page('a copper kettle', `${URL_A}/1`)), index.upsert('a', broken), index.upsert('a', page('a copper pot', `${URL_A}/2`))]);
      const hits = await index.search({ teamId: 'a', query: 'copper', limit: 5 });
      expect(hits.map((h) => h.url).sort()).toEqual([`${URL_A}/1`, `${URL_A}/2`]);
      expect(failed).toHaveLength(1);
      expect(failed[0]!.message).toMatch(/NOT NULL/);
    } finally {
      await index.close();
      await scratch.remove();
    }
  });
});

describe('local index on SQLite made before text hashes', () => {
  it('indexes its pages again when they are fetched', async () => {
    const scratch = scratchStore('search_writes_old', undefined);
    const file = path.join(scratch.folder(), 'search.sqlite');
    const old = new SQLite(file);
    old.exec(`CREATE TABLE search_pages (id INTEGER PRIMARY KEY, team_id TEXT NOT NULL, url TEXT NOT NULL, host TEXT NOT NULL,
      title TEXT NOT NULL, description TEXT NOT NULL, body TEXT NOT NULL, published_at INTEGER, indexed_at INTEGER NOT NULL, UNIQUE (team_id, url))`);
    old.prepare('INSERT INTO search_pages (team_id, url, host, title, description, body, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run('a', URL_A, 'tea.example', 'Kettles', '', 'a copper kettle', 1);
    old.close();
    const index = new SqliteIndex(file);
    try {
      await index.upsert('a', page('a copper kettle'));
      expect((await index.search({ teamId: 'a', query: 'copper', limit: 5 })).map((h) => h.url)).toEqual([URL_A]);
    } finally {
      await index.close();
      await scratch.remove();
    }
  });
});
