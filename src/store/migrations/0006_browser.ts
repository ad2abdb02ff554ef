import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('browser_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('scrape_id', 'text')
      .addColumn('profile_name', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_activity', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('activity_ttl_ms', 'bigint', (c) => c.notNull())
      .addColumn('destroyed_at', 'bigint')
      .execute();
    await db.schema.createIndex('browser_sessions_team').on('browser_sessions').columns(['team_id', 'status', 'created_at']).execute();
    await db.schema
      .createTable('browser_profiles')
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('state', 'text')
      .addColumn('locked_by', 'text')
      .addColumn('locked_until', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('browser_profiles_pk', ['team_id', 'name'])
      .execute();
  },
};
