/**
 * The local index on PostgreSQL: a weighted tsvector (title A; URL words and headings B;
 * description C; text D) under a GIN index, ranked with ts_rank_cd; its A and B words again in a
 * small vector of their own (`head`, migration 0014) to choose what gets ranked.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { PageText } from './page-text.js';
import { candidateCaps, queryTerms, type LocalHit, type LocalIndex, type LocalQuery } from './local-index.js';
import { PostgresRenewals } from './postgres-renewals.js';
import { filters, prefixFilter } from './sql-filters.js';

/** Stemming as SQLite's porter tokenizer does, so both modes find the same pages. */
const CONFIG = sql.lit('english');

interface Row {
  url: string;
  title: string;
  description: string;
  body: string;
  date: string | number;
  score: number;
}

export class PostgresIndex implements LocalIndex {
  private readonly renewals: PostgresRenewals;

  constructor(private readonly db: Kysely<Database>) {
    this.renewals = new PostgresRenewals(db);
  }

  async upsert(teamId: string, p: PageText, indexedAt = Date.now(), sourceHash?: string): Promise<void> {
    const doc = sql`setweight(to_tsvector(${CONFIG}, ${p.title}), 'A') || setweight(to_tsvector(${CONFIG}, ${p.urlWords + ' ' + p.headings}), 'B')
      || setweight(to_tsvector(${CONFIG}, ${p.description}), 'C') || setweight(to_tsvector(${CONFIG}, ${p.body}), 'D')`;
    await sql`INSERT INTO search_pages (team_id, url, host, title, description, body, published_at, indexed_at, doc, source_hash)
      VALUES (${teamId}, ${p.url}, ${p.host}, ${p.title}, ${p.description}, ${p.body}, ${p.publishedAt ?? null}, ${indexedAt}, ${doc}, ${sourceHash ?? null})
      ON CONFLICT (team_id, url) DO UPDATE SET host = excluded.host, title = excluded.title, description = excluded.description,
        body = excluded.body, published_at = excluded.published_at, indexed_at = excluded.indexed_at, doc = excluded.doc,
        source_hash = excluded.source_hash`.execute(this.db);
  }

  /** The hash is checked in the UPDATE itself: a write from another process in between wins. */
  async renew(teamId: string, url: string, sourceHash: string, indexedAt = Date.now()): Promise<boolean> {
    return this.renewals.renew(teamId, url, sourceHash, indexedAt);
  }

  async remove(teamId: string, url: string): Promise<void> {
    await sql`DELETE FROM search_pages WHERE team_id = ${teamId} AND url = ${url}`.execute(this.db);
  }

  async purge(before: number, max = 1000): Promise<number> {
    const res = await sql`DELETE FROM search_pages WHERE id IN (SELECT id FROM search_pages WHERE indexed_at < ${before} ORDER BY indexed_at LIMIT ${max})`.execute(this.db);
    return Number(res.numAffectedRows ?? 0);
  }

  async search(q: LocalQuery): Promise<LocalHit[]> {
    const terms = queryTerms(q.query);
    if (terms.length === 0) return [];
    let hits = await this.run(terms.join(' & '), q);
    if (hits.length === 0 && terms.length > 1) hits = await this.run(terms.join(' | '), q);
    return hits;
  }

  /**
   * Ranks a bounded set of candidates (local-index.ts `candidateCaps`), not every match: a broad
   * word matches tens of thousands of pages, and reading and ranking each took 450 ms at p99 on
   * 100,000. The candidates are the pages best ranked on their title, URL and headings alone (the
   * small `head` vector, divided by the page's size as the full rank is) and the first pages the
   * full-text index finds; the order is the full rank of those.
   */
  private async run(tsquery: string, q: LocalQuery): Promise<LocalHit[]> {
    const { scan, head, text } = candidateCaps(q.limit);
    const res = await sql<Row>`WITH query AS MATERIALIZED (SELECT to_tsquery(${CONFIG}, ${tsquery}) AS query),
      candidates AS (
        (SELECT id FROM (SELECT p.id, p.head, p.doc_words FROM search_pages p, query
            WHERE p.team_id = ${q.teamId} AND p.head @@ query.query ${filters(q)} LIMIT ${scan}) h, query
          ORDER BY ts_rank_cd(h.head, query.query) / (1 + ln(1 + h.doc_words)) DESC LIMIT ${head})
        UNION
        (SELECT p.id FROM search_pages p, query WHERE p.team_id = ${q.teamId} AND p.doc @@ query.query ${filters(q)} LIMIT ${text}))
      SELECT p.url, p.title, p.description, p.body, COALESCE(p.published_at, p.indexed_at) AS date,
        ts_rank_cd(p.doc, query.query, 1) AS score
      FROM candidates JOIN search_pages p USING (id), query
      ORDER BY score DESC LIMIT ${q.limit}`.execute(this.db);
    return res.rows.map((r) => ({ ...r, date: Number(r.date), score: Number(r.score) }));
  }

  async urls(teamId: string, urlPrefixes: readonly string[], limit: number): Promise<string[]> {
    const res = await sql<{ url: string }>`SELECT url FROM search_pages p WHERE team_id = ${teamId} ${prefixFilter(urlPrefixes)}
      ORDER BY indexed_at DESC LIMIT ${limit}`.execute(this.db);
    return res.rows.map((r) => r.url);
  }

  async stats(): Promise<{ pages: number; bytes: number }> {
    const res = await sql<{ pages: string; bytes: string }>`SELECT (SELECT COUNT(*) FROM search_pages) AS pages,
      pg_total_relation_size('search_pages') AS bytes`.execute(this.db);
    return { pages: Number(res.rows[0]?.pages ?? 0), bytes: Number(res.rows[0]?.bytes ?? 0) };
  }

  async close(): Promise<void> {
    // The store owns the connection pool.
  }
}
