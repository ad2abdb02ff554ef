/**
 * The local search index's table on PostgreSQL: the page text with a weighted tsvector and a GIN
 * index on it. On SQLite the index lives in a file of its own (search/local/sqlite-index.ts).
 */
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
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
    }
    // SQLite: the index keeps a file of its own (sqlite-index.ts), made when it opens.
  },
};
