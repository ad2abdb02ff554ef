import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
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
};
