/**
 * Schema migrations, applied in order at start-up. Append new ones; never edit an applied one.
 * Written with Kysely's schema builder so one list serves SQLite and PostgreSQL.
 */
import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { creditLedgerMigration } from './migrations/0009_credit_ledger.js';
import { auditEventsMigration } from './migrations/0010_audit_events.js';

const migrations: Record<string, Migration> = {
  '0001_foundation': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('teams')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema
        .createTable('scrape_cache')
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('cache_key', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('stored_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('scrape_cache_pk', ['team_id', 'cache_key'])
        .execute();
      await db.schema
        .createTable('scrapes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('scrapes_created_at').on('scrapes').column('created_at').execute();
      await db.schema
        .createTable('blobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('blobs_expires_at').on('blobs').column('expires_at').execute();
    },
  },
  '0004_crawls': {
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
  },
  '0003_webhooks': {
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
  },
  '0002_queue': {
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
  },
  '0005_monitors': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('monitors')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('cron', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('schedule_text', 'text')
        .addColumn('targets', 'text', (c) => c.notNull())
        .addColumn('webhook', 'text')
        .addColumn('notification', 'text')
        .addColumn('retention_days', 'integer', (c) => c.notNull())
        .addColumn('goal', 'text')
        .addColumn('judge_enabled', 'integer', (c) => c.notNull())
        .addColumn('estimated_credits', 'bigint')
        .addColumn('next_run_at', 'bigint')
        .addColumn('last_run_at', 'bigint')
        .addColumn('current_check_id', 'text')
        .addColumn('last_check_summary', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitors_due').on('monitors').columns(['status', 'next_run_at']).execute();
      await db.schema.createIndex('monitors_team').on('monitors').columns(['team_id', 'created_at']).execute();
      await db.schema
        .createTable('monitor_checks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('monitor_id', 'text', (c) => c.notNull())
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('scheduled_for', 'bigint')
        .addColumn('started_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .addColumn('estimated_credits', 'bigint')
        .addColumn('actual_credits', 'bigint')
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('target_results', 'text', (c) => c.notNull())
        .addColumn('notification_status', 'text')
        .addColumn('error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitor_checks_monitor').on('monitor_checks').columns(['monitor_id', 'created_at']).execute();
      await db.schema.createIndex('monitor_checks_status').on('monitor_checks').columns(['status', 'created_at']).execute();
      await db.schema
        .createTable('monitor_pages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('check_id', 'text', (c) => c.notNull())
        .addColumn('monitor_id', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('previous_scrape_id', 'text')
        .addColumn('current_scrape_id', 'text')
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('metadata', 'text')
        .addColumn('diff', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitor_pages_check').on('monitor_pages').columns(['check_id', 'seq']).execute();
      await db.schema.createIndex('monitor_pages_monitor').on('monitor_pages').columns(['monitor_id', 'created_at']).execute();
      await db.schema
        .createTable('page_snapshots')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('url_key', 'text', (c) => c.notNull())
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('markdown', 'text', (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('body_hash', 'text')
        .addColumn('etag', 'text')
        .addColumn('last_modified', 'text')
        .addColumn('scrape_id', 'text')
        .addColumn('status_code', 'integer')
        .addColumn('metadata', 'text')
        .addColumn('seen_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('page_snapshots_pk', ['scope', 'url_key'])
        .execute();
    },
  },
  '0006_browser': {
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
  },
  '0007_crawl_scrape_ids': {
    // A crawl's page is stored once, in its results; its scrape id finds it there.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('crawl_results').addColumn('scrape_id', 'text').execute();
      await db.schema.createIndex('crawl_results_scrape').on('crawl_results').column('scrape_id').execute();
    },
  },
  '0008_scrape_cache_age': {
    // Housekeeping deletes cache entries by age.
    async up(db: Kysely<any>) {
      await db.schema.createIndex('scrape_cache_stored_at').on('scrape_cache').column('stored_at').execute();
    },
  },
  '0009_credit_ledger': creditLedgerMigration,
  '0010_audit_events': auditEventsMigration,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
