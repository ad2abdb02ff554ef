import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  // Housekeeping deletes cache entries by age.
  async up(db: Kysely<any>) {
    await db.schema.createIndex('scrape_cache_stored_at').on('scrape_cache').column('stored_at').execute();
  },
};
