/**
 * Per-team policies the operator sets: the threat protection policy (JSON, null when never set)
 * and zero data retention.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('team_policies')
      .addColumn('team_id', 'text', (c) => c.primaryKey())
      .addColumn('threat_policy', 'text')
      .addColumn('zdr', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
