/**
 * Monitor state in the store: monitors, their checks, the page records of each check, and the
 * last-seen version of every watched page (shared with the changeTracking format).
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { claimed } from '../jobs/lease.js';
import type { Database, MonitorChecksTable, MonitorsTable, PageSnapshotsTable } from '../store/schema.js';
import type { WebhookTarget } from '../webhooks/schema.js';
import type { NotificationConfig, PageStatus, Target } from './schemas.js';

type Db = Kysely<Database>;
export type Trx = Transaction<Database>;

export type MonitorStatus = 'active' | 'paused' | 'deleted';
export type CheckStatus = 'queued' | 'running' | 'completed' | 'failed' | 'partial' | 'skipped_overlap' | 'skipped_no_credits';

export interface Summary {
  totalPages: number;
  same: number;
  changed: number;
  new: number;
  removed: number;
  error: number;
}

export const emptySummary = (): Summary => ({ totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 });

export interface MonitorRecord {
  id: string;
  teamId: string;
  name: string;
  status: MonitorStatus;
  cron: string;
  timezone: string;
  scheduleText: string | null;
  targets: Target[];
  webhook: WebhookTarget | null;
  notification: NotificationConfig | null;
  retentionDays: number;
  goal: string | null;
  judgeEnabled: boolean;
  estimatedCredits: number | null;
  nextRunAt: number | null;
  lastRunAt: number | null;
  currentCheckId: string | null;
  lastCheckSummary: Summary | null;
  createdAt: number;
  updatedAt: number;
}

export interface CheckRecord {
  id: string;
  monitorId: string;
  teamId: string;
  status: CheckStatus;
  trigger: 'scheduled' | 'manual';
  scheduledFor: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  estimatedCredits: number | null;
  actualCredits: number | null;
  summary: Summary;
  targetResults: unknown[];
  notificationStatus: unknown;
  error: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface PageRecord {
  id: string;
  checkId: string;
  monitorId: string;
  targetId: string;
  seq: number;
  url: string;
  status: PageStatus;
  previousScrapeId: string | null;
  currentScrapeId: string | null;
  statusCode: number | null;
  error: string | null;
  metadata: unknown;
  diff: unknown;
  /** The current extraction of a JSON or mixed target's page. */
  snapshot?: { json: Record<string, unknown> } | null;
  /** The goal judgment (MonitorPageJudgment) when the page was judged. */
  judgment?: unknown;
  /** Why the page was not judged when it should have been. */
  judgeWarning?: string | null;
  createdAt: number;
}

export interface Snapshot {
  url: string;
  markdown: string;
  contentHash: string;
  bodyHash: string | null;
  etag: string | null;
  lastModified: string | null;
  scrapeId: string | null;
  statusCode: number | null;
  metadata: unknown;
  seenAt: number;
  /**
   * The changeTracking json extraction at this version. Absent leaves a stored one as it is
   * (monitor checks do not extract); null clears it.
   */
  extraction?: StoredExtraction | null;
}

/** JSON extracted from a version, and the schema and prompt (`key`) it was extracted with. */
export interface StoredExtraction {
  key: string;
  value: Record<string, unknown>;
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
const parse = <T>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));

function toMonitor(r: Selectable<MonitorsTable>): MonitorRecord {
  return {
    id: r.id,
    teamId: r.team_id,
    name: r.name,
    status: r.status as MonitorStatus,
    cron: r.cron,
    timezone: r.timezone,
    scheduleText: r.schedule_text,
    targets: JSON.parse(r.targets) as Target[],
    webhook: parse<WebhookTarget>(r.webhook),
    notification: parse<NotificationConfig>(r.notification),
    retentionDays: r.retention_days,
    goal: r.goal,
    judgeEnabled: r.judge_enabled === 1,
    estimatedCredits: r.estimated_credits,
    nextRunAt: r.next_run_at,
    lastRunAt: r.last_run_at,
    currentCheckId: r.current_check_id,
    lastCheckSummary: parse<Summary>(r.last_check_summary),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function monitorRow(m: MonitorRecord): MonitorsTable {
  return {
    id: m.id,
    team_id: m.teamId,
    name: m.name,
    status: m.status,
    cron: m.cron,
    timezone: m.timezone,
    schedule_text: m.scheduleText,
    targets: JSON.stringify(m.targets),
    webhook: json(m.webhook),
    notification: json(m.notification),
    retention_days: m.retentionDays,
    goal: m.goal,
    judge_enabled: m.judgeEnabled ? 1 : 0,
    estimated_credits: m.estimatedCredits,
    next_run_at: m.nextRunAt,
    last_run_at: m.lastRunAt,
    current_check_id: m.currentCheckId,
    last_check_summary: json(m.lastCheckSummary),
    created_at: m.createdAt,
    updated_at: m.updatedAt,
  };
}

function toCheck(r: Selectable<MonitorChecksTable>): CheckRecord {
  return {
    id: r.id,
    monitorId: r.monitor_id,
    teamId: r.team_id,
    status: r.status as CheckStatus,
    trigger: r.trigger as 'scheduled' | 'manual',
    scheduledFor: r.scheduled_for,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    estimatedCredits: r.estimated_credits,
    actualCredits: r.actual_credits,
    summary: JSON.parse(r.summary) as Summary,
    targetResults: JSON.parse(r.target_results) as unknown[],
    notificationStatus: parse(r.notification_status),
    error: r.error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toSnapshot(r: Selectable<PageSnapshotsTable>): Snapshot {
  return {
    url: r.url,
    markdown: r.markdown,
    contentHash: r.content_hash,
    bodyHash: r.body_hash,
    etag: r.etag,
    lastModified: r.last_modified,
    scrapeId: r.scrape_id,
    statusCode: r.status_code,
    metadata: parse(r.metadata),
    seenAt: r.seen_at,
    extraction: parse(r.extraction) as StoredExtraction | null,
  };
}

export class MonitorRepository {
  constructor(readonly db: Db) {}

  async insertMonitor(m: MonitorRecord): Promise<void> {
    await this.db.insertInto('monitors').values(monitorRow(m)).execute();
  }

  async getMonitor(id: string, db: Db = this.db): Promise<MonitorRecord | undefined> {
    const r = await db.selectFrom('monitors').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toMonitor(r) : undefined;
  }

  /** The team's monitors, newest first; deleted ones are left out. */
  async listMonitors(teamId: string, limit: number, offset: number): Promise<MonitorRecord[]> {
    const rows = await this.db
      .selectFrom('monitors')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('status', '<>', 'deleted')
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(toMonitor);
  }

  async saveMonitor(m: MonitorRecord, db: Db = this.db): Promise<void> {
    const { id, ...rest } = monitorRow(m);
    await db.updateTable('monitors').set(rest).where('id', '=', id).execute();
  }

  /** Active monitors whose next run is due, oldest due first. */
  async due(now: number, limit: number): Promise<{ id: string; nextRunAt: number }[]> {
    const rows = await this.db
      .selectFrom('monitors')
      .select(['id', 'next_run_at'])
      .where('status', '=', 'active')
      .where('next_run_at', '<=', now)
      .orderBy('next_run_at')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, nextRunAt: r.next_run_at! }));
  }

  /**
   * Moves a monitor's due time from `due` to `next`, only if it still reads `due`: of many
   * processes racing for one due time, exactly one sees a changed row.
   */
  async claimSlot(trx: Trx, id: string, due: number, next: number | null): Promise<boolean> {
    const r = await trx
      .updateTable('monitors')
      .set({ next_run_at: next })
      .where('id', '=', id)
      .where('status', '=', 'active')
      .where('next_run_at', '=', due)
      .executeTakeFirst();
    return claimed(r);
  }

  async insertCheck(c: CheckRecord, db: Db = this.db): Promise<void> {
    await db
      .insertInto('monitor_checks')
      .values({
        id: c.id,
        monitor_id: c.monitorId,
        team_id: c.teamId,
        status: c.status,
        trigger: c.trigger,
        scheduled_for: c.scheduledFor,
        started_at: c.startedAt,
        finished_at: c.finishedAt,
        estimated_credits: c.estimatedCredits,
        actual_credits: c.actualCredits,
        summary: JSON.stringify(c.summary),
        target_results: JSON.stringify(c.targetResults),
        notification_status: json(c.notificationStatus),
        error: c.error,
        created_at: c.createdAt,
        updated_at: c.updatedAt,
      })
      .execute();
  }

  async getCheck(id: string, db: Db = this.db): Promise<CheckRecord | undefined> {
    const r = await db.selectFrom('monitor_checks').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toCheck(r) : undefined;
  }

  async listChecks(monitorId: string, limit: number, offset: number): Promise<CheckRecord[]> {
    const rows = await this.db
      .selectFrom('monitor_checks')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(toCheck);
  }

  /** queued -> running (or running again after a crash); false when the check already ended. */
  async startCheck(id: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('monitor_checks')
      .set({ status: 'running', started_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    // A rerun after a crash starts its page list over.
    await this.db.deleteFrom('monitor_pages').where('check_id', '=', id).execute();
    return true;
  }

  async updateCheck(id: string, set: Partial<Pick<CheckRecord, 'status' | 'finishedAt' | 'actualCredits' | 'summary' | 'targetResults' | 'notificationStatus' | 'error'>>, db: Db = this.db): Promise<void> {
    await db
      .updateTable('monitor_checks')
      .set({
        ...(set.status !== undefined ? { status: set.status } : {}),
        ...(set.finishedAt !== undefined ? { finished_at: set.finishedAt } : {}),
        ...(set.actualCredits !== undefined ? { actual_credits: set.actualCredits } : {}),
        ...(set.summary !== undefined ? { summary: JSON.stringify(set.summary) } : {}),
        ...(set.targetResults !== undefined ? { target_results: JSON.stringify(set.targetResults) } : {}),
        ...(set.notificationStatus !== undefined ? { notification_status: json(set.notificationStatus) } : {}),
        ...(set.error !== undefined ? { error: set.error } : {}),
        updated_at: Date.now(),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Checks stuck in `queued` (a crash between commit and enqueue) for longer than `ms`. */
  async staleQueued(ms: number): Promise<CheckRecord[]> {
    const rows = await this.db
      .selectFrom('monitor_checks')
      .selectAll()
      .where('status', '=', 'queued')
      .where('created_at', '<', Date.now() - ms)
      .limit(500)
      .execute();
    return rows.map(toCheck);
  }

  async insertPages(pages: PageRecord[], db: Db = this.db): Promise<void> {
    for (let i = 0; i < pages.length; i += 200) {
      await db
        .insertInto('monitor_pages')
        .values(
          pages.slice(i, i + 200).map((p) => ({
            id: p.id,
            check_id: p.checkId,
            monitor_id: p.monitorId,
            target_id: p.targetId,
            seq: p.seq,
            url: p.url,
            status: p.status,
            previous_scrape_id: p.previousScrapeId,
            current_scrape_id: p.currentScrapeId,
            status_code: p.statusCode,
            error: p.error,
            metadata: json(p.metadata),
            diff: json(p.diff),
            snapshot: json(p.snapshot),
            judgment: json(p.judgment),
            judge_warning: p.judgeWarning ?? null,
            created_at: p.createdAt,
          })),
        )
        .execute();
    }
  }

  async pages(checkId: string, skip: number, limit: number, status?: PageStatus): Promise<{ rows: PageRecord[]; total: number }> {
    let q = this.db.selectFrom('monitor_pages').where('check_id', '=', checkId);
    if (status) q = q.where('status', '=', status);
    const rows = await q.selectAll().orderBy('seq').limit(limit).offset(skip).execute();
    const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return {
      total: Number(count?.n ?? 0),
      rows: rows.map((r) => ({
        id: r.id,
        checkId: r.check_id,
        monitorId: r.monitor_id,
        targetId: r.target_id,
        seq: r.seq,
        url: r.url,
        status: r.status as PageStatus,
        previousScrapeId: r.previous_scrape_id,
        currentScrapeId: r.current_scrape_id,
        statusCode: r.status_code,
        error: r.error,
        metadata: parse(r.metadata),
        diff: parse(r.diff),
        snapshot: parse(r.snapshot),
        judgment: parse(r.judgment),
        judgeWarning: r.judge_warning,
        createdAt: r.created_at,
      })),
    };
  }

  async snapshot(scope: string, urlKey: string): Promise<Snapshot | undefined> {
    const r = await this.db.selectFrom('page_snapshots').selectAll().where('scope', '=', scope).where('url_key', '=', urlKey).executeTakeFirst();
    return r ? toSnapshot(r) : undefined;
  }

  async snapshotKeys(scope: string): Promise<{ urlKey: string; url: string; scrapeId: string | null }[]> {
    const rows = await this.db.selectFrom('page_snapshots').select(['url_key', 'url', 'scrape_id']).where('scope', '=', scope).execute();
    return rows.map((r) => ({ urlKey: r.url_key, url: r.url, scrapeId: r.scrape_id }));
  }

  async putSnapshot(scope: string, urlKey: string, teamId: string, s: Snapshot, db: Db = this.db): Promise<void> {
    const values = {
      url: s.url,
      markdown: s.markdown,
      content_hash: s.contentHash,
      body_hash: s.bodyHash,
      etag: s.etag,
      last_modified: s.lastModified,
      scrape_id: s.scrapeId,
      status_code: s.statusCode,
      metadata: json(s.metadata),
      seen_at: s.seenAt,
      ...(s.extraction !== undefined ? { extraction: json(s.extraction) } : {}),
    };
    await db
      .insertInto('page_snapshots')
      .values({ scope, url_key: urlKey, team_id: teamId, ...values })
      .onConflict((oc) => oc.columns(['scope', 'url_key']).doUpdateSet(values))
      .execute();
  }

  async touchSnapshot(scope: string, urlKey: string, seenAt: number, db: Db = this.db): Promise<void> {
    await db.updateTable('page_snapshots').set({ seen_at: seenAt }).where('scope', '=', scope).where('url_key', '=', urlKey).execute();
  }

  async deleteSnapshot(scope: string, urlKey: string, db: Db = this.db): Promise<void> {
    await db.deleteFrom('page_snapshots').where('scope', '=', scope).where('url_key', '=', urlKey).execute();
  }

  async deleteSnapshotsWithPrefix(prefix: string): Promise<void> {
    await this.db.deleteFrom('page_snapshots').where('scope', 'like', `${prefix}%`).execute();
  }

  /** Drops checks (and their pages) that ended before each monitor's retention window. */
  async purgeExpired(now: number): Promise<number> {
    const monitors = await this.db.selectFrom('monitors').select(['id', 'retention_days']).execute();
    let purged = 0;
    for (const m of monitors) {
      const before = now - m.retention_days * 86_400_000;
      const old = await this.db
        .selectFrom('monitor_checks')
        .select('id')
        .where('monitor_id', '=', m.id)
        .where('created_at', '<', before)
        .where('status', 'not in', ['queued', 'running'])
        .limit(1000)
        .execute();
      if (old.length === 0) continue;
      const ids = old.map((o) => o.id);
      await this.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('monitor_pages').where('check_id', 'in', ids).execute();
        await trx.deleteFrom('monitor_checks').where('id', 'in', ids).execute();
      });
      purged += ids.length;
    }
    return purged;
  }
}
