/**
 * The audit log: append-only events (who, through which key, did what to which URLs, with what
 * outcome and cost; never page content), and which teams keep one.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('audit_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text')
      .addColumn('username', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target_urls', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('credits', 'integer', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_events_team_at').on('audit_events').columns(['team_id', 'at']).execute();
    await db.schema
      .createTable('audit_settings')
      .addColumn('team_id', 'text', (c) => c.primaryKey())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
