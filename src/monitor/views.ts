/** Wire shapes of monitors, checks, pages and webhook items, from stored records. */
import { MONITOR_EVENTS } from '../webhooks/schema.js';
import type { CheckRecord, MonitorRecord, PageRecord } from './store.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function monitorView(m: MonitorRecord) {
  return {
    id: m.id,
    name: m.name,
    status: m.status,
    schedule: { cron: m.cron, timezone: m.timezone, ...(m.scheduleText ? { text: m.scheduleText } : {}) },
    nextRunAt: iso(m.nextRunAt),
    lastRunAt: iso(m.lastRunAt),
    currentCheckId: m.currentCheckId,
    targets: m.targets,
    // Read back as it is applied: a webhook written without `events` gets every monitor event.
    webhook: m.webhook ? { ...m.webhook, events: m.webhook.events ?? [...MONITOR_EVENTS] } : null,
    notification: m.notification,
    retentionDays: m.retentionDays,
    estimatedCreditsPerMonth: m.estimatedCredits,
    lastCheckSummary: m.lastCheckSummary,
    goal: m.goal,
    judgeEnabled: m.judgeEnabled,
    createdAt: iso(m.createdAt)!,
    updatedAt: iso(m.updatedAt)!,
  };
}

export type CheckView = ReturnType<typeof checkView>;

export function checkView(c: CheckRecord) {
  return {
    id: c.id,
    monitorId: c.monitorId,
    status: c.status,
    trigger: c.trigger,
    scheduledFor: iso(c.scheduledFor),
    startedAt: iso(c.startedAt),
    finishedAt: iso(c.finishedAt),
    estimatedCredits: c.estimatedCredits,
    // Pages are charged as they are checked, not reserved ahead: a finished check's credits are
    // what the ledger charged for it.
    reservedCredits: null,
    actualCredits: c.actualCredits,
    creditsUsed: c.actualCredits,
    billingStatus: c.actualCredits === null ? ('not_applicable' as const) : ('confirmed' as const),
    summary: c.summary,
    targetResults: c.targetResults,
    notificationStatus: c.notificationStatus,
    error: c.error,
    createdAt: iso(c.createdAt)!,
    updatedAt: iso(c.updatedAt)!,
  };
}

export function pageView(p: PageRecord) {
  return {
    id: p.id,
    targetId: p.targetId,
    url: p.url,
    status: p.status,
    previousScrapeId: p.previousScrapeId,
    currentScrapeId: p.currentScrapeId,
    statusCode: p.statusCode,
    error: p.error,
    metadata: p.metadata,
    diff: p.diff,
    snapshot: p.snapshot ?? null,
    judgment: p.judgment ?? null,
    isMeaningful: meaningful(p),
    ...(p.judgeWarning ? { warning: p.judgeWarning } : {}),
    createdAt: iso(p.createdAt)!,
  };
}

/** The judgment's verdict; null when the page was not judged. */
export function meaningful(p: PageRecord): boolean | null {
  const m = (p.judgment as { meaningful?: unknown } | null | undefined)?.meaningful;
  return typeof m === 'boolean' ? m : null;
}

/** The `data` item of a `monitor.page` webhook. */
export function pageEvent(monitorId: string, p: PageRecord) {
  const diff = p.diff as { text?: string; json?: unknown } | null;
  return {
    monitorId,
    checkId: p.checkId,
    targetId: p.targetId,
    url: p.url,
    status: p.status,
    previousScrapeId: p.previousScrapeId,
    currentScrapeId: p.currentScrapeId,
    statusCode: p.statusCode,
    diff: eventDiff(diff, p.snapshot != null),
    error: p.error,
    isMeaningful: meaningful(p),
    judgment: p.judgment ?? null,
    ...(p.judgeWarning ? { warning: p.judgeWarning } : {}),
  };
}

/** A webhook's diff: the text, and for JSON and mixed targets the changed fields. */
function eventDiff(diff: { text?: string; json?: unknown } | null, jsonTarget: boolean): { text?: string; json?: unknown } | null {
  if (!diff) return null;
  const out = { ...(diff.text !== undefined ? { text: diff.text } : {}), ...(jsonTarget && diff.json !== undefined ? { json: diff.json } : {}) };
  return Object.keys(out).length ? out : null;
}
