/**
 * Ranking when a query matches more pages than are ranked in full (local-index.ts
 * `candidateCaps`), on SQLite and (with DATABASE_URL) PostgreSQL: words in the title or address
 * still beat words in the text, the full rank still orders the title matches, and the team,
 * domain and date filters choose the candidates rather than thin them out afterwards.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchStore, type ScratchStore } from '../../../test/helpers/scratch-store.js';
import type { Store } from '../../store/db.js';
import { candidateCaps, type LocalIndex } from './local-index.js';
import { urlWords, type PageText } from './page-text.js';
import { PostgresIndex } from './postgres-index.js';
import { SqliteIndex } from './sqlite-index.js';

const backends = [{ name: 'sqlite', url: undefined }, ...(process.env.DATABASE_URL ? [{ name: 'postgres', url: process.env.DATABASE_URL }] : [])];

const LIMIT = 5;
/**
 * Pages on each side of the ones that should be found, each side more than a query ranks from
 * the text alone: whichever end of the index a backend samples, only the choice by title,
 * address and filters finds them.
 */
const SIDE = candidateCaps(LIMIT).text + 50;

function page(url: string, title: string, body: string, headings = ''): PageText {
  const host = new URL(url).hostname;
  return { url, host, title, description: '', headings, body, urlWords: urlWords(url), publishedAt: undefined };
}

/** Pages that say the words, but only in their text. */
const crowd = (words: string, from: number) =>
  Array.from({ length: SIDE }, (_, i) => {
    const n = `${GROUPS.indexOf(words)}-${from + i}`;
    return { team: 'a', page: page(`https://tea.example/notes/${n}`, `Notes ${n}`, `Notes that mention ${words}, among other things.`) };
  });
const GROUPS = ['kettle thermometer', 'quokka zither', 'marmot yodel'];

describe.each(backends)('local index ranking beyond the candidate bounds ($name)', ({ url }) => {
  let scratch: ScratchStore;
  let store: Store;
  let index: LocalIndex;
  const ids = (hits: Array<{ url: string }>) => hits.map((h) => h.url);

  async function add(pages: Array<{ team: string; page: PageText; at?: number }>): Promise<void> {
    for (let i = 0; i < pages.length; i += 16) {
      await Promise.all(pages.slice(i, i + 16).map((p) => index.upsert(p.team, p.page, p.at)));
    }
  }

  beforeAll(async () => {
    scratch = scratchStore('search_rank', url);
    store = await scratch.open();
    index = url ? new PostgresIndex(store.db) : new SqliteIndex(path.join(scratch.folder(), 'search.sqlite'));
    await add(GROUPS.flatMap((words) => crowd(words, 0)));
    await add([
      { team: 'a', page: page('https://tea.example/kettle-thermometer', 'Kettle thermometer', 'Reading the water.') },
      { team: 'a', page: page('https://tea.example/guides/quokka-zither.html', 'Guide', 'See above.') },
      { team: 'a', page: page('https://other.example/plain', 'Plain', 'One mention of marmot yodel.'), at: Date.UTC(2020, 0, 1) },
    ]);
    await add(GROUPS.flatMap((words) => crowd(words, SIDE)));
    // Another team's pages, each a better match than any of team a's.
    await add(Array.from({ length: SIDE }, (_, i) => ({ team: 'b', page: page(`https://tea.example/b/${i}`, `Marmot yodel ${i}`, 'marmot yodel') })));
  }, 180_000);
  afterAll(async () => {
    await index?.close();
    await store?.close();
    await scratch?.remove();
  });

  it('ranks a page with the words in its title above the many that have them in their text', async () => {
    const hits = await index.search({ teamId: 'a', query: 'kettle thermometer', limit: LIMIT });
    expect(ids(hits)[0]).toBe('https://tea.example/kettle-thermometer');
    expect(hits).toHaveLength(LIMIT);
  });

  it('ranks a page whose address holds the words first', async () => {
    const hits = await index.search({ teamId: 'a', query: 'quokka zither', limit: LIMIT });
    expect(ids(hits)[0]).toBe('https://tea.example/guides/quokka-zither.html');
  });

  it('chooses candidates among the team’s pages, within the domain and date asked', async () => {
    const inDomain = await index.search({ teamId: 'a', query: 'marmot yodel', limit: LIMIT, includeDomains: ['other.example'] });
    expect(ids(inDomain)).toEqual(['https://other.example/plain']);
    const inWindow = await index.search({ teamId: 'a', query: 'marmot yodel', limit: LIMIT, to: Date.UTC(2021, 0, 1) });
    expect(ids(inWindow)).toEqual(['https://other.example/plain']);
    const all = await index.search({ teamId: 'a', query: 'marmot yodel', limit: LIMIT });
    expect(all).toHaveLength(LIMIT);
    expect(ids(all).every((u) => !u.includes('/b/'))).toBe(true);
  });
});
