/**
 * What the model adds to change tracking: the JSON extracted at a page's last-seen version (the
 * changeTracking json mode compares the next extraction with it), and a monitor page's judgment
 * against its monitor's goal, with the warning when the model could not judge it.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('page_snapshots').addColumn('extraction', 'text').execute();
    await db.schema.alterTable('monitor_pages').addColumn('judgment', 'text').execute();
    await db.schema.alterTable('monitor_pages').addColumn('judge_warning', 'text').execute();
  },
};
