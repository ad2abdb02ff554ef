/**
 * What each browser session was charged when it ended. Sessions that ended before sessions were
 * charged are marked as costing nothing, so no sweep charges them after the upgrade.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('browser_sessions').addColumn('credits_used', 'integer').execute();
    await db.updateTable('browser_sessions').set({ credits_used: 0 }).where('status', '=', 'destroyed').execute();
  },
};
