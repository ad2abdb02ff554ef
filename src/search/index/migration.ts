/**
 * The local search index's tables. SQLite: a plain table for the page text (snippets, filters)
 * and a contentless FTS5 table over it with a team token, so the full-text match itself keeps
 * teams apart. PostgreSQL: one table with a weighted tsvector and a GIN index on it.
 */
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

export const searchIndexMigration: Migration = {
  async up(db: Kysely<any>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    if (postgres) {
      await sql`CREATE TABLE search_pages (
        id bigserial PRIMARY KEY,
        team_id text NOT NULL,
        url text NOT NULL,
        host text NOT NULL,
        title text NOT NULL,
        description text NOT NULL,
        body text NOT NULL,
        published_at bigint,
        indexed_at bigint NOT NULL,
        doc tsvector NOT NULL,
        UNIQUE (team_id, url)
      )`.execute(db);
      await sql`CREATE INDEX search_pages_doc ON search_pages USING GIN (doc)`.execute(db);
      await sql`CREATE INDEX search_pages_indexed_at ON search_pages (indexed_at)`.execute(db);
      return;
    }
    await sql`CREATE TABLE search_pages (
      id INTEGER PRIMARY KEY,
      team_id TEXT NOT NULL,
      url TEXT NOT NULL,
      host TEXT NOT NULL,
      title TEXT NOT NULL,
      description TEXT NOT NULL,
      body TEXT NOT NULL,
      published_at BIGINT,
      indexed_at BIGINT NOT NULL,
      UNIQUE (team_id, url)
    )`.execute(db);
    await sql`CREATE INDEX search_pages_indexed_at ON search_pages (indexed_at)`.execute(db);
    await sql`CREATE VIRTUAL TABLE search_fts USING fts5(
      team, title, url, headings, description, body,
      tokenize = 'porter unicode61', content = '', contentless_delete = 1, detail = full
    )`.execute(db);
    // Ranking weights, in column order: the team token counts for nothing, title and URL most.
    await sql`INSERT INTO search_fts (search_fts, rank) VALUES ('rank', 'bm25(0.0, 10.0, 6.0, 3.0, 2.0, 1.0)')`.execute(db);
  },
};
