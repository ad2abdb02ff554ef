/**
 * The words that weigh most in the local index's ranking (title, URL words and headings: weights
 * A and B) in a small tsvector of their own with a GIN index, so a query can choose its best
 * candidates without reading and ranking every page that mentions a word; and the size of `doc`,
 * which the full rank divides by. Both derive from `doc`, so existing rows get them too. Both GIN
 * indexes skip the pending list, which every query would otherwise scan until autovacuum merged
 * it. On SQLite the index keeps a file of its own (search/local/sqlite-index.ts).
 */
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`ALTER TABLE search_pages ADD COLUMN head tsvector GENERATED ALWAYS AS (ts_filter(doc, '{a,b}')) STORED,
      ADD COLUMN doc_words integer GENERATED ALWAYS AS (length(doc)) STORED`.execute(db);
    await sql`CREATE INDEX search_pages_head ON search_pages USING GIN (head) WITH (fastupdate = off)`.execute(db);
    await sql`ALTER INDEX search_pages_doc SET (fastupdate = off)`.execute(db);
  },
};
