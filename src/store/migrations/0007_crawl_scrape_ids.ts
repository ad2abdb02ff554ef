import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  // A crawl's page is stored once, in its results; its scrape id finds it there.
  async up(db: Kysely<any>) {
    await db.schema.alterTable('crawl_results').addColumn('scrape_id', 'text').execute();
    await db.schema.createIndex('crawl_results_scrape').on('crawl_results').column('scrape_id').execute();
  },
};
