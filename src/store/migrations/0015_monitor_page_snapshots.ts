/**
 * A monitor page's current extraction, for targets that ask for the json format: checks of
 * such targets compare the extracted fields, and each page shows what was extracted.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('monitor_pages').addColumn('snapshot', 'text').execute();
  },
};
