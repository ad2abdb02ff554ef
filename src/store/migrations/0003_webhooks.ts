import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('webhook_secrets')
      .addColumn('team_id', 'text', (c) => c.primaryKey())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // The id orders events within a stream, so it has to grow with every insert.
    const postgres = db.getExecutor().adapter.constructor.name.startsWith('Postgres');
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('webhook_id', 'text', (c) => c.notNull())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('stream', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('headers', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('locked_until', 'bigint')
      .addColumn('locked_by', 'text')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('delivered_at', 'bigint')
      .execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['state', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_stream').on('webhook_deliveries').columns(['stream', 'state', 'id']).execute();
    await db.schema.createIndex('webhook_deliveries_created').on('webhook_deliveries').column('created_at').execute();
  },
};
