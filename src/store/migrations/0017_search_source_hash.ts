/**
 * A hash of what the local index read of each page's Document (search/local/page-text.ts
 * `pageSource`), so a page fetched again unchanged only has its date renewed instead of its text
 * read and its tsvector built again. Existing rows have none and are indexed again once. On
 * SQLite the index keeps a file of its own, which adds the column when it opens.
 */
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`ALTER TABLE search_pages ADD COLUMN source_hash text`.execute(db);
  },
};
