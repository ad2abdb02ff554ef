/**
 * Schema migrations, one file each, applied in the order of their names at start-up. Append new
 * ones; never edit an applied one, nor rename it: the store records them by these names.
 * Written with Kysely's schema builder so one list serves SQLite and PostgreSQL.
 */
import type { Migration, MigrationProvider } from 'kysely';
import { migration as m0001 } from './0001_foundation.js';
import { migration as m0002 } from './0002_queue.js';
import { migration as m0003 } from './0003_webhooks.js';
import { migration as m0004 } from './0004_crawls.js';
import { migration as m0005 } from './0005_monitors.js';
import { migration as m0006 } from './0006_browser.js';
import { migration as m0007 } from './0007_crawl_scrape_ids.js';
import { migration as m0008 } from './0008_scrape_cache_age.js';
import { migration as m0009 } from './0009_search_index.js';
import { migration as m0010 } from './0010_credit_ledger.js';
import { migration as m0011 } from './0011_audit_events.js';
import { migration as m0012 } from './0012_model_judgments.js';
import { migration as m0013 } from './0013_threat_policy.js';
import { migration as m0014 } from './0014_browser_session_credits.js';
import { migration as m0015 } from './0015_monitor_page_snapshots.js';
import { migration as m0016 } from './0016_search_head.js';
import { migration as m0017 } from './0017_search_source_hash.js';

const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_queue': m0002,
  '0003_webhooks': m0003,
  '0004_crawls': m0004,
  '0005_monitors': m0005,
  '0006_browser': m0006,
  '0007_crawl_scrape_ids': m0007,
  '0008_scrape_cache_age': m0008,
  '0009_search_index': m0009,
  '0010_credit_ledger': m0010,
  '0011_audit_events': m0011,
  '0012_model_judgments': m0012,
  '0013_threat_policy': m0013,
  '0014_browser_session_credits': m0014,
  '0015_monitor_page_snapshots': m0015,
  '0016_search_head': m0016,
  '0017_search_source_hash': m0017,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
