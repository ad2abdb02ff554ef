/** The local index on SQLite: FTS5 with BM25 (weights set in the migration: title and URL count most). */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { SharedTransactions } from '../../store/shared-transactions.js';
import { queryTerms, type LocalHit, type LocalIndex, type LocalQuery } from './local-index.js';
import type { PageText } from './page-text.js';
import { filters, prefixFilter } from './sql-filters.js';

/** A token no text produces, standing for the team inside the full-text match. */
const teamToken = (teamId: string) => 'tm' + createHash('sha256').update(teamId).digest('hex').slice(0, 24);

interface Row {
  url: string;
  title: string;
  description: string;
  body: string;
  date: number;
  score: number;
}

export class SqliteIndex implements LocalIndex {
  private readonly writes: SharedTransactions;

  constructor(private readonly db: Kysely<Database>) {
    this.writes = new SharedTransactions(db);
  }

  async upsert(teamId: string, p: PageText, indexedAt = Date.now()): Promise<void> {
    await this.writes.run(async (trx) => {
      const prev = await sql<{ id: number }>`SELECT id FROM search_pages WHERE team_id = ${teamId} AND url = ${p.url}`.execute(trx);
      let id = prev.rows[0]?.id;
      if (id !== undefined) {
        await sql`DELETE FROM search_fts WHERE rowid = ${id}`.execute(trx);
        await sql`UPDATE search_pages SET host = ${p.host}, title = ${p.title}, description = ${p.description}, body = ${p.body},
          published_at = ${p.publishedAt ?? null}, indexed_at = ${indexedAt} WHERE id = ${id}`.execute(trx);
      } else {
        const ins = await sql<{ id: number }>`INSERT INTO search_pages (team_id, url, host, title, description, body, published_at, indexed_at)
          VALUES (${teamId}, ${p.url}, ${p.host}, ${p.title}, ${p.description}, ${p.body}, ${p.publishedAt ?? null}, ${indexedAt}) RETURNING id`.execute(trx);
        id = ins.rows[0]!.id;
      }
      await sql`INSERT INTO search_fts (rowid, team, title, url, headings, description, body)
        VALUES (${id}, ${teamToken(teamId)}, ${p.title}, ${p.urlWords}, ${p.headings}, ${p.description}, ${p.body})`.execute(trx);
    });
  }

  async remove(teamId: string, url: string): Promise<void> {
    await this.writes.run(async (trx) => {
      const prev = await sql<{ id: number }>`SELECT id FROM search_pages WHERE team_id = ${teamId} AND url = ${url}`.execute(trx);
      const id = prev.rows[0]?.id;
      if (id === undefined) return;
      await sql`DELETE FROM search_fts WHERE rowid = ${id}`.execute(trx);
      await sql`DELETE FROM search_pages WHERE id = ${id}`.execute(trx);
    });
  }

  async purge(before: number, max = 1000): Promise<number> {
    return this.writes.run(async (trx) => {
      const old = await sql<{ id: number }>`SELECT id FROM search_pages WHERE indexed_at < ${before} ORDER BY indexed_at LIMIT ${max}`.execute(trx);
      for (const { id } of old.rows) {
        await sql`DELETE FROM search_fts WHERE rowid = ${id}`.execute(trx);
        await sql`DELETE FROM search_pages WHERE id = ${id}`.execute(trx);
      }
      return old.rows.length;
    });
  }

  async search(q: LocalQuery): Promise<LocalHit[]> {
    const terms = queryTerms(q.query);
    if (terms.length === 0) return [];
    const phrases = terms.map((t) => `"${t}"`);
    const scope = (inner: string) => `team : "${teamToken(q.teamId)}" AND {title url headings description body} : (${inner})`;
    // Every word first; when no page has them all, any of them.
    let hits = await this.run(scope(phrases.join(' ')), q);
    if (hits.length === 0 && terms.length > 1) hits = await this.run(scope(phrases.join(' OR ')), q);
    return hits;
  }

  /**
   * Ranks first, reads pages after: the page text is read for the few hits returned, not for
   * every match. Without domain or date filters the full-text table alone gives the top rows
   * (the team is part of the match).
   */
  private async run(match: string, q: LocalQuery): Promise<LocalHit[]> {
    const filtered = Boolean(q.includeDomains?.length || q.excludeDomains?.length || q.from !== undefined || q.to !== undefined || q.urlPrefixes?.length);
    const top = filtered
      ? await sql<{ id: number; score: number }>`SELECT p.id, -f.rank AS score FROM search_fts f JOIN search_pages p ON p.id = f.rowid
          WHERE search_fts MATCH ${match} AND p.team_id = ${q.teamId} ${filters(q)} ORDER BY f.rank LIMIT ${q.limit}`.execute(this.db)
      : await sql<{ id: number; score: number }>`SELECT rowid AS id, -rank AS score FROM search_fts WHERE search_fts MATCH ${match} ORDER BY rank LIMIT ${q.limit}`.execute(this.db);
    if (top.rows.length === 0) return [];
    const rows = await sql<Row & { id: number }>`SELECT id, url, title, description, body, COALESCE(published_at, indexed_at) AS date, 0 AS score
      FROM search_pages WHERE team_id = ${q.teamId} AND id IN (${sql.join(top.rows.map((r) => r.id))})`.execute(this.db);
    const byId = new Map(rows.rows.map((r) => [r.id, r]));
    return top.rows.flatMap((t) => {
      const r = byId.get(t.id);
      return r ? [{ url: r.url, title: r.title, description: r.description, body: r.body, date: Number(r.date), score: Number(t.score) }] : [];
    });
  }

  async urls(teamId: string, urlPrefixes: readonly string[], limit: number): Promise<string[]> {
    const res = await sql<{ url: string }>`SELECT url FROM search_pages p WHERE team_id = ${teamId} ${prefixFilter(urlPrefixes)}
      ORDER BY indexed_at DESC LIMIT ${limit}`.execute(this.db);
    return res.rows.map((r) => r.url);
  }

  async stats(): Promise<{ pages: number; bytes: number }> {
    const pages = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM search_pages`.execute(this.db);
    const bytes = await sql<{ n: number }>`SELECT COALESCE(SUM(pgsize), 0) AS n FROM dbstat WHERE name = 'search_pages' OR name LIKE 'search_fts%' OR name LIKE 'sqlite_autoindex_search_pages%' OR name = 'search_pages_indexed_at'`
      .execute(this.db)
      .catch(() => ({ rows: [{ n: 0 }] }));
    return { pages: Number(pages.rows[0]?.n ?? 0), bytes: Number(bytes.rows[0]?.n ?? 0) };
  }
}
