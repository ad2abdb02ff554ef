import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('crawls')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('options', 'text', (c) => c.notNull())
      .addColumn('webhook', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('page_limit', 'integer', (c) => c.notNull())
      .addColumn('discovered', 'integer', (c) => c.notNull())
      .addColumn('finished', 'integer', (c) => c.notNull())
      .addColumn('succeeded', 'integer', (c) => c.notNull())
      .addColumn('credits_used', 'integer', (c) => c.notNull())
      .addColumn('kickoff_done', 'integer', (c) => c.notNull())
      .addColumn('robots_txt', 'text')
      .addColumn('error', 'text')
      .addColumn('idempotency_key', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema.createIndex('crawls_team_status').on('crawls').columns(['team_id', 'status']).execute();
    await db.schema.createIndex('crawls_idempotency').on('crawls').columns(['team_id', 'idempotency_key']).unique().execute();
    await db.schema.createIndex('crawls_expires_at').on('crawls').column('expires_at').execute();
    await db.schema
      .createTable('crawl_pages')
      .addColumn('crawl_id', 'text', (c) => c.notNull())
      .addColumn('url_key', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('depth', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('code', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('crawl_pages_pk', ['crawl_id', 'url_key'])
      .execute();
    await db.schema.createIndex('crawl_pages_state').on('crawl_pages').columns(['crawl_id', 'state']).execute();
    // Results get a monotonic id so status pages are stable while a crawl still runs.
    const postgres = db.getExecutor().adapter.constructor.name.startsWith('Postgres');
    await db.schema
      .createTable('crawl_results')
      .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('crawl_id', 'text', (c) => c.notNull())
      .addColumn('url_key', 'text', (c) => c.notNull())
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('crawl_results_page').on('crawl_results').columns(['crawl_id', 'url_key']).unique().execute();
  },
};
