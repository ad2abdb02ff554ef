import { sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    const postgres = db.getExecutor().adapter.constructor.name.startsWith('Postgres');
    await db.schema
      .createTable('queue_jobs')
      .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('queue', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('run_at', 'bigint', (c) => c.notNull())
      .addColumn('attempts_made', 'integer', (c) => c.notNull())
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('backoff_ms', 'bigint', (c) => c.notNull())
      .addColumn('stalls', 'integer', (c) => c.notNull())
      .addColumn('lease_until', 'bigint')
      .addColumn('worker', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .execute();
    // Failed rows stay for inspection but must not block re-adding the same id.
    await db.schema
      .createIndex('queue_jobs_key')
      .on('queue_jobs')
      .columns(['queue', 'id'])
      .unique()
      .where(sql.ref('state'), '<>', 'failed')
      .execute();
    await db.schema.createIndex('queue_jobs_due').on('queue_jobs').columns(['queue', 'state', 'run_at']).execute();
    await db.schema.createIndex('queue_jobs_team').on('queue_jobs').columns(['queue', 'team_id', 'state']).execute();
  },
};
