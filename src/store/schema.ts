/** Table shapes as the database holds them. Times are epoch milliseconds. */
import type { Generated } from 'kysely';

export interface TeamsTable {
  id: string;
  name: string;
  plan: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  team_id: string;
  name: string;
  /** SHA-256 hex of the full key; the key itself is never stored. */
  key_hash: string;
  /** First characters of the key, shown in listings so a person can tell keys apart. */
  prefix: string;
  /** JSON array of scope names. */
  scopes: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

export interface ScrapeCacheTable {
  team_id: string;
  cache_key: string;
  url: string;
  /** JSON of the cached Document. */
  document: string;
  stored_at: number;
}

export interface ScrapesTable {
  id: string;
  team_id: string;
  url: string;
  /** JSON of the returned Document. */
  document: string;
  created_at: number;
}

export interface BlobsTable {
  id: string;
  team_id: string;
  mime: string;
  size: number;
  created_at: number;
  expires_at: number;
}

export interface CrawlsTable {
  id: string;
  team_id: string;
  /** 'crawl' or 'batch': both run on the same machinery. */
  kind: string;
  url: string;
  /** JSON of the validated request options. */
  options: string;
  webhook: string | null;
  status: string;
  page_limit: number;
  /** Pages admitted to the frontier (robots-blocked ones are not counted). */
  discovered: number;
  /** Pages finished, successfully or not. */
  finished: number;
  succeeded: number;
  credits_used: number;
  kickoff_done: number;
  /** robots.txt as fetched at kickoff, so every worker judges URLs by the same rules. */
  robots_txt: string | null;
  error: string | null;
  idempotency_key: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
  finished_at: number | null;
}

export interface CrawlPagesTable {
  crawl_id: string;
  url_key: string;
  url: string;
  depth: number;
  /** pending | done | failed | blocked */
  state: string;
  error: string | null;
  code: string | null;
  updated_at: number;
}

export interface CrawlResultsTable {
  id: Generated<number>;
  crawl_id: string;
  url_key: string;
  /** The page's `metadata.scrapeId`; null for rows stored before it was kept. */
  scrape_id: string | null;
  document: string;
  created_at: number;
}

export interface WebhookSecretsTable {
  team_id: string;
  /** 64 hex digits; the HMAC key for `X-Firecrawl-Signature`. */
  secret: string;
  created_at: number;
}

/** The webhook outbox and delivery log: one row per event per target. */
export interface WebhookDeliveriesTable {
  /** Monotonic: events of one stream are delivered in this order. */
  id: Generated<number>;
  /** Also in the body as `webhookId`, so receivers can drop redeliveries. */
  webhook_id: string;
  team_id: string;
  /** The job the event belongs to (crawl id, monitor id...); the unit of ordering. */
  stream: string;
  type: string;
  url: string;
  /** JSON object of the caller's headers. */
  headers: string;
  /** The exact JSON text sent and signed. */
  body: string;
  /** pending | delivered | failed */
  state: string;
  attempts: number;
  next_attempt_at: number;
  /** Lease: while in the future, the process whose token is in `locked_by` owns the send. */
  locked_until: number | null;
  locked_by: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

/** The embedded job queue: one row per queued job; finished ones are deleted, failed ones kept a while. */
export interface QueueJobsTable {
  /** Insertion order, so jobs due at the same time run first in, first out. */
  seq: Generated<number>;
  queue: string;
  /** Deduplication key: unique per queue among rows that are not failed. */
  id: string;
  team_id: string;
  /** JSON of the job data. */
  data: string;
  /** waiting | active | failed */
  state: string;
  /** Not claimed before this time (delays and retry backoff). */
  run_at: number;
  /** Runs that ended in an error. */
  attempts_made: number;
  max_attempts: number;
  backoff_ms: number;
  /** Times the job was taken back from a worker whose lease lapsed. */
  stalls: number;
  /** Lease: while in the future, the run whose token is in `worker` owns the job. */
  lease_until: number | null;
  worker: string | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

/** A watched set of pages (monitor.ts). JSON columns hold the validated request shapes. */
export interface MonitorsTable {
  id: string;
  team_id: string;
  name: string;
  /** active | paused | deleted */
  status: string;
  cron: string;
  timezone: string;
  /** The natural-language schedule the monitor was written with, if any. */
  schedule_text: string | null;
  targets: string;
  webhook: string | null;
  notification: string | null;
  retention_days: number;
  goal: string | null;
  judge_enabled: number;
  estimated_credits: number | null;
  /** Due time of the next scheduled check; claimed by a conditional update, so it fires once. */
  next_run_at: number | null;
  last_run_at: number | null;
  current_check_id: string | null;
  last_check_summary: string | null;
  created_at: number;
  updated_at: number;
}

export interface MonitorChecksTable {
  id: string;
  monitor_id: string;
  team_id: string;
  /** queued | running | completed | partial | failed | skipped_overlap | skipped_no_credits */
  status: string;
  /** scheduled | manual */
  trigger: string;
  scheduled_for: number | null;
  started_at: number | null;
  finished_at: number | null;
  estimated_credits: number | null;
  actual_credits: number | null;
  summary: string;
  target_results: string;
  notification_status: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}

export interface MonitorPagesTable {
  id: string;
  check_id: string;
  monitor_id: string;
  target_id: string;
  /** Order within the check, for stable paging. */
  seq: number;
  url: string;
  /** same | new | changed | removed | error */
  status: string;
  previous_scrape_id: string | null;
  current_scrape_id: string | null;
  status_code: number | null;
  error: string | null;
  metadata: string | null;
  diff: string | null;
  /** JSON of the goal judgment (MonitorPageJudgment), when the page was judged. */
  judgment: string | null;
  /** Why a page that should have been judged was not (the model failed). */
  judge_warning: string | null;
  /** JSON: `{json}`, the current extraction of a JSON or mixed monitor target's page. */
  snapshot: string | null;
  created_at: number;
}

/**
 * The last version seen of a page, per comparison scope (a monitor target, or a team and
 * changeTracking tag): what the next check compares against, and its HTTP validators.
 */
export interface PageSnapshotsTable {
  scope: string;
  url_key: string;
  team_id: string;
  url: string;
  markdown: string;
  /** SHA-256 of the markdown after the noise rules: equal hashes mean "same". */
  content_hash: string;
  /** SHA-256 of the raw response bytes: equal means unchanged without transforming. */
  body_hash: string | null;
  etag: string | null;
  last_modified: string | null;
  scrape_id: string | null;
  status_code: number | null;
  /** JSON of the page's metadata at that time. */
  metadata: string | null;
  seen_at: number;
  /** JSON `{key, value}`: the changeTracking json extraction at this version, and which schema and prompt made it. */
  extraction: string | null;
}

/** Interactive browser sessions (src/browser/sessions.ts); the live context is in one process. */
export interface BrowserSessionsTable {
  id: string;
  team_id: string;
  status: 'active' | 'destroyed';
  /** Set for sessions opened by `interact` on a scrape. */
  scrape_id: string | null;
  profile_name: string | null;
  created_at: number;
  last_activity: number;
  expires_at: number;
  activity_ttl_ms: number;
  destroyed_at: number | null;
  /** Charged when the session ended; null until then (and for sessions not yet charged). */
  credits_used: number | null;
}

/** Named browser storage per team (src/browser/profiles.ts); one saving holder at a time. */
export interface BrowserProfilesTable {
  team_id: string;
  name: string;
  /** JSON: cookies and per-origin localStorage. */
  state: string | null;
  locked_by: string | null;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface MigrationsTable {
  id: Generated<number>;
  name: string;
  applied_at: number;
}

export interface Database {
  teams: TeamsTable;
  api_keys: ApiKeysTable;
  scrape_cache: ScrapeCacheTable;
  scrapes: ScrapesTable;
  blobs: BlobsTable;
  crawls: CrawlsTable;
  crawl_pages: CrawlPagesTable;
  crawl_results: CrawlResultsTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  queue_jobs: QueueJobsTable;
  monitors: MonitorsTable;
  monitor_checks: MonitorChecksTable;
  monitor_pages: MonitorPagesTable;
  page_snapshots: PageSnapshotsTable;
  browser_sessions: BrowserSessionsTable;
  browser_profiles: BrowserProfilesTable;
}
