/**
 * The local index on SQLite: FTS5 with BM25 (title and URL words count most), in a file of its
 * own beside the store (`search.sqlite`). Reads run on the calling thread; writes go to a thread
 * of their own (sqlite-writer.ts). The full-text table is contentless, with the page text kept
 * once in `search_pages` for snippets and filters; a page's team is checked there, in the same
 * query. (A per-team token inside the match made every query read that team's whole posting
 * list: eight times slower at the median on 100,000 pages.) The hashes come before the text in
 * a row: a long text spills onto overflow pages, which SQLite walks to reach any column after it,
 * and reading a hash after a 20 kB text took nearly twice as long as reading it before.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { candidateCaps, escapeLike, queryTerms, RENEW_AFTER_MS, type LocalHit, type LocalIndex, type LocalQuery } from './local-index.js';
import type { PageText } from './page-text.js';
import { IndexWriter } from './sqlite-writer.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS search_pages (
  id INTEGER PRIMARY KEY,
  team_id TEXT NOT NULL,
  url TEXT NOT NULL,
  source_hash TEXT,
  text_hash TEXT,
  host TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  body TEXT NOT NULL,
  published_at INTEGER,
  indexed_at INTEGER NOT NULL,
  UNIQUE (team_id, url)
);
CREATE INDEX IF NOT EXISTS search_pages_indexed_at ON search_pages (indexed_at);
CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(
  title, url, headings, description, body,
  tokenize = 'porter unicode61', content = '', contentless_delete = 1
);
`;

const AUTOMERGE = 16;
const PAGE_SIZE = 16_384;

/** Ranking weights, in column order: title and URL words count most. */
const BM25 = 'bm25(search_fts, 10.0, 6.0, 3.0, 2.0, 1.0)';

interface Row {
  id: number;
  url: string;
  title: string;
  description: string;
  body: string;
  date: number;
}

export class SqliteIndex implements LocalIndex {
  private readonly db: SQLite.Database;
  private readonly writer: IndexWriter;
  private readonly statements = new Map<string, SQLite.Statement>();
  /** Upserts and removals sent to the writer and not yet done, by `pageKey`. */
  private readonly unsettled = new Map<string, number>();
  private purging = 0;

  /** `onWriteError` hears of pages that could not be indexed (writes are buffered: sqlite-writer.ts). */
  constructor(
    readonly file: string,
    onWriteError?: (err: Error) => void,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new SQLite(file);
    // Before anything is written (an index made earlier keeps its own): a page's text takes one
    // or two 4 KB pages of its own, and FTS5's segments span several, while at 16 KB writing the
    // manual's pages took 15% less (a no-op once the file has tables).
    this.db.pragma(`page_size = ${PAGE_SIZE}`);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    // FTS5 merges a level's segments once it holds `automerge` of them: 16 rather than 4 took a
    // fifth off the writes of a crawl's pages, for a few more segments a query reads (a
    // setting kept in the index itself).
    this.db.exec(`INSERT INTO search_fts (search_fts, rank) VALUES ('automerge', ${AUTOMERGE})`);
    // Indexes made before pages kept their text's and their source's hashes gain the columns;
    // their pages are indexed again once.
    const columns = this.db.pragma('table_info(search_pages)') as Array<{ name: string }>;
    for (const column of ['text_hash', 'source_hash']) {
      if (!columns.some((c) => c.name === column)) this.db.exec(`ALTER TABLE search_pages ADD COLUMN ${column} TEXT`);
    }
    this.writer = new IndexWriter(file, onWriteError);
  }

  /** Resolves once the page is buffered; it is searchable at once, written within FLUSH_MS. */
  async upsert(teamId: string, page: PageText, indexedAt = Date.now(), sourceHash?: string): Promise<void> {
    this.track(teamId, page.url, this.writer.buffer({ op: 'upsert', teamId, page, indexedAt, ...(sourceHash ? { sourceHash } : {}) }));
  }

  /**
   * Reads the page's source hash on this thread (some microseconds) and buffers only the new date.
   * The file shows what the writer has committed: while a write that may change the page is on
   * its way (its upsert or removal, any purge) the answer is false, and the caller upserts.
   */
  async renew(teamId: string, url: string, sourceHash: string, indexedAt = Date.now()): Promise<boolean> {
    if (this.purging > 0 || this.unsettled.has(pageKey(teamId, url))) return false;
    const held = this.statement('SELECT indexed_at FROM search_pages WHERE team_id = ? AND url = ? AND source_hash = ?').get(teamId, url, sourceHash) as
      | { indexed_at: number }
      | undefined;
    if (!held) return false;
    if (indexedAt - held.indexed_at >= RENEW_AFTER_MS) void this.writer.buffer({ op: 'renew', teamId, url, sourceHash, indexedAt });
    return true;
  }

  async remove(teamId: string, url: string): Promise<void> {
    this.track(teamId, url, this.writer.buffer({ op: 'remove', teamId, url }));
  }

  async purge(before: number, max = 1000): Promise<number> {
    this.purging++;
    try {
      return (await this.writer.write({ op: 'purge', before, max })) as number;
    } finally {
      this.purging--;
    }
  }

  /** Counts the page's writes on their way until each is done. */
  private track(teamId: string, url: string, done: Promise<void>): void {
    const key = pageKey(teamId, url);
    this.unsettled.set(key, (this.unsettled.get(key) ?? 0) + 1);
    void done.then(() => {
      const left = (this.unsettled.get(key) ?? 1) - 1;
      if (left > 0) this.unsettled.set(key, left);
      else this.unsettled.delete(key);
    });
  }

  async search(q: LocalQuery): Promise<LocalHit[]> {
    const terms = queryTerms(q.query);
    if (terms.length === 0) return [];
    await this.writer.settle();
    const phrases = terms.map((t) => `"${t}"`);
    // Every word first; when no page has them all, any of them.
    let hits = this.run(phrases.join(' '), q);
    if (hits.length === 0 && terms.length > 1) hits = this.run(phrases.join(' OR '), q);
    return hits;
  }

  /**
   * Ranks a bounded set of candidates, then reads the pages of the few returned. Ranking costs
   * about as much per match as the rest of a query, so a broad query ranked every one of its
   * thousands of matches. The candidates are the newest pages that match anywhere and the pages
   * best ranked on their title, URL and headings among the newest that match there; the order is
   * the full BM25 of those (local-index.ts `candidateCaps` sets the bounds).
   */
  private run(match: string, q: LocalQuery): LocalHit[] {
    const { clause, params } = filters(q);
    const { scan, head, text } = candidateCaps(q.limit);
    const matching = `FROM search_fts f JOIN search_pages p ON p.id = f.rowid WHERE search_fts MATCH ? AND p.team_id = ? ${clause}`;
    const scored = new Map<number, number>();
    const newest = this.statement(`SELECT p.id, -${BM25} AS score ${matching} ORDER BY f.rowid DESC LIMIT ?`).all(match, q.teamId, ...params, text) as Array<{ id: number; score: number }>;
    for (const r of newest) scored.set(r.id, r.score);
    // Below the bound that was every match, all ranked in full; at it, the title matches join.
    if (newest.length === text) {
      // The same weights on a column-filtered match give a score from those columns alone.
      const byHead = this.statement(`SELECT id FROM (SELECT p.id, ${BM25} AS r ${matching} ORDER BY f.rowid DESC LIMIT ?) ORDER BY r LIMIT ?`)
        .all(`{title url headings} : (${match})`, q.teamId, ...params, scan, head) as Array<{ id: number }>;
      const unscored = byHead.map((r) => r.id).filter((id) => !scored.has(id));
      if (unscored.length) {
        // `+rowid`: FTS5 would restart the match for each id of the list; walking the matches and
        // scoring only the listed ones is far cheaper.
        const rows = this.statement(`SELECT rowid AS id, -${BM25} AS score FROM search_fts f WHERE search_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`)
          .all(match, JSON.stringify(unscored)) as Array<{ id: number; score: number }>;
        for (const r of rows) scored.set(r.id, r.score);
      }
    }
    const top = [...scored].sort((a, b) => b[1] - a[1]).slice(0, q.limit);
    if (top.length === 0) return [];
    // By id alone: with the team in the condition, SQLite walks the team's entries in the
    // (team_id, url) index instead of looking ten ids up (70 ms instead of 0.1 on 100,000 pages).
    const rows = this.statement(
      `SELECT id, url, title, description, body, COALESCE(published_at, indexed_at) AS date FROM search_pages
       WHERE id IN (${top.map(() => '?').join(', ')})`,
    ).all(...top.map(([id]) => id)) as Row[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return top.flatMap(([id, score]) => {
      const r = byId.get(id);
      return r ? [{ url: r.url, title: r.title, description: r.description, body: r.body, date: Number(r.date), score }] : [];
    });
  }

  async urls(teamId: string, urlPrefixes: readonly string[], limit: number): Promise<string[]> {
    await this.writer.settle();
    const { clause, params } = filters({ teamId, query: '', limit, urlPrefixes });
    const rows = this.statement(`SELECT url FROM search_pages p WHERE team_id = ? ${clause} ORDER BY indexed_at DESC LIMIT ?`).all(teamId, ...params, limit) as Array<{ url: string }>;
    return rows.map((r) => r.url);
  }

  async stats(): Promise<{ pages: number; bytes: number }> {
    await this.writer.settle();
    const pages = (this.db.prepare('SELECT COUNT(*) AS n FROM search_pages').get() as { n: number }).n;
    const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
    return { pages, bytes: size(this.file) + size(`${this.file}-wal`) };
  }

  async close(): Promise<void> {
    await this.writer.close();
    this.db.close();
  }

  private statement(text: string): SQLite.Statement {
    let s = this.statements.get(text);
    if (!s) {
      s = this.db.prepare(text);
      if (this.statements.size > 256) this.statements.clear();
      this.statements.set(text, s);
    }
    return s;
  }
}

/** A parsed URL holds no line break, so this keys one team's page unambiguously. */
const pageKey = (teamId: string, url: string) => `${teamId}\n${url}`;

/** Domain, date and URL-prefix conditions on `search_pages p`, as SQL and parameters. */
function filters(q: LocalQuery): { clause: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const inDomain = (d: string) => {
    params.push(d, '%.' + escapeLike(d));
    return "(p.host = ? OR p.host LIKE ? ESCAPE '\\')";
  };
  if (q.includeDomains?.length) parts.push(`AND (${q.includeDomains.map(inDomain).join(' OR ')})`);
  for (const d of q.excludeDomains ?? []) parts.push(`AND NOT ${inDomain(d)}`);
  if (q.from !== undefined) {
    parts.push('AND COALESCE(p.published_at, p.indexed_at) >= ?');
    params.push(q.from);
  }
  if (q.to !== undefined) {
    parts.push('AND COALESCE(p.published_at, p.indexed_at) <= ?');
    params.push(q.to);
  }
  if (q.urlPrefixes?.length) {
    parts.push(`AND (${q.urlPrefixes.map(() => "p.url LIKE ? ESCAPE '\\'").join(' OR ')})`);
    params.push(...q.urlPrefixes.map((p) => escapeLike(p) + '%'));
  }
  return { clause: parts.join(' '), params };
}
