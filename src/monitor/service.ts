/**
 * The API side of monitors: create, read, update, delete, run now, and the check history.
 *
 * States: `active` (scheduled) and `paused` (kept, not scheduled; run-now still works) switch
 * both ways by PATCH; DELETE makes either `deleted`, which is final: the monitor can still be
 * read, and every change, run or second delete is 409.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, isApiError } from '../errors.js';
import { needsModelMessage } from '../llm/types.js';
import type { JobQueue } from '../jobs/queue.js';
import { scrapeOptionsSchema, type ScrapeOptions } from '../scrape/options.js';
import { normaliseTargetUrl } from '../scrape/url.js';
import type { UrlGuard } from '../scrape/types.js';
import { creditsPerCheck, estimateCreditsPerMonth } from './credits.js';
import { checkTask, type MonitorTask } from './tasks.js';
import { nextRunAfter, DEFAULT_TIMEZONE } from './schedule.js';
import type { CreateMonitor, PageStatus, Target, TargetInput, UpdateMonitor } from './schemas.js';
import { emptySummary, type CheckRecord, type MonitorRecord, type MonitorRepository } from './store.js';
import { checkView, monitorView, pageView } from './views.js';

export interface MonitorServiceDeps {
  repo: MonitorRepository;
  queue: JobQueue<MonitorTask>;
  guard: UrlGuard;
  /** A language model is configured: without one, a goal cannot be judged. */
  modelConfigured?: boolean;
  /** Throws what the pipeline cannot do of a target's scrape options (the Scraper's check). */
  refuseUnavailable: (o: ScrapeOptions, prefix: string) => void;
}


export class MonitorService {
  constructor(private readonly deps: MonitorServiceDeps) {}

  private requireJudge(goal: string | null, judgeEnabled: boolean): void {
    const refusal = judgeRefusal(goal, judgeEnabled, this.deps.modelConfigured === true);
    if (refusal) throw refusal;
  }

  async create(teamId: string, req: CreateMonitor) {
    const targets = await this.targets(req.targets);
    requireGoal(targets, req.goal ?? null, req.judgeEnabled);
    this.requireJudge(req.goal ?? null, req.judgeEnabled);
    const now = Date.now();
    const timezone = req.schedule.timezone ?? DEFAULT_TIMEZONE;
    const m: MonitorRecord = {
      id: randomUUID(),
      teamId,
      name: req.name,
      status: 'active',
      cron: req.schedule.cron,
      timezone,
      scheduleText: req.schedule.text,
      targets,
      webhook: req.webhook ?? null,
      notification: req.notification ?? null,
      retentionDays: req.retentionDays,
      goal: req.goal ?? null,
      judgeEnabled: req.judgeEnabled,
      estimatedCredits: estimateCreditsPerMonth(req.schedule.cron, targets),
      nextRunAt: nextRunAfter(req.schedule.cron, timezone, now),
      lastRunAt: null,
      currentCheckId: null,
      lastCheckSummary: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.deps.repo.insertMonitor(m);
    return monitorView(m);
  }

  async list(teamId: string, limit: number, offset: number) {
    return (await this.deps.repo.listMonitors(teamId, limit, offset)).map(monitorView);
  }

  async get(teamId: string, id: string) {
    return monitorView(await this.owned(teamId, id));
  }

  async update(teamId: string, id: string, req: UpdateMonitor) {
    const m = await this.owned(teamId, id);
    if (m.status === 'deleted') throw deletedConflict();
    const now = Date.now();
    if (req.name !== undefined) m.name = req.name;
    if (req.targets !== undefined) m.targets = await this.targets(req.targets, m.targets);
    if (req.webhook !== undefined) m.webhook = req.webhook;
    if (req.notification !== undefined) m.notification = req.notification;
    if (req.retentionDays !== undefined) m.retentionDays = req.retentionDays;
    if (req.goal !== undefined) m.goal = req.goal;
    if (req.judgeEnabled !== undefined) m.judgeEnabled = req.judgeEnabled;
    requireGoal(m.targets, m.goal, m.judgeEnabled);
    this.requireJudge(m.goal, m.judgeEnabled);
    let reschedule = false;
    if (req.schedule !== undefined) {
      m.cron = req.schedule.cron;
      m.scheduleText = req.schedule.text;
      m.timezone = req.schedule.timezone ?? m.timezone;
      reschedule = true;
    }
    if (req.status !== undefined && req.status !== m.status) {
      m.status = req.status;
      reschedule = true;
    }
    // A paused monitor has no next run; resuming schedules from now, not from missed slots.
    if (reschedule) m.nextRunAt = m.status === 'active' ? nextRunAfter(m.cron, m.timezone, now) : null;
    m.estimatedCredits = estimateCreditsPerMonth(m.cron, m.targets);
    m.updatedAt = now;
    await this.deps.repo.saveMonitor(m);
    return monitorView(m);
  }

  async remove(teamId: string, id: string): Promise<void> {
    const m = await this.owned(teamId, id);
    if (m.status === 'deleted') throw deletedConflict();
    m.status = 'deleted';
    m.nextRunAt = null;
    m.updatedAt = Date.now();
    await this.deps.repo.saveMonitor(m);
  }

  /** Run now: a manual check, or a `skipped_overlap` one while another check is under way. */
  async run(teamId: string, id: string) {
    const m = await this.owned(teamId, id);
    if (m.status === 'deleted') throw deletedConflict();
    const check = await this.enqueueCheck(m, 'manual', null);
    return checkView(check);
  }

  /**
   * Records a check and queues it, unless the monitor already has one under way, in which case
   * the new one is recorded as `skipped_overlap`. Scheduled checks come here inside the
   * transaction that claimed their slot.
   */
  async enqueueCheck(m: MonitorRecord, trigger: 'manual' | 'scheduled', scheduledFor: number | null): Promise<CheckRecord> {
    const { repo } = this.deps;
    const now = Date.now();
    const check: CheckRecord = {
      id: randomUUID(),
      monitorId: m.id,
      teamId: m.teamId,
      status: 'queued',
      trigger,
      scheduledFor,
      startedAt: null,
      finishedAt: null,
      estimatedCredits: creditsPerCheck(m.targets),
      actualCredits: null,
      summary: emptySummary(),
      targetResults: [],
      notificationStatus: null,
      error: null,
      createdAt: now,
      updatedAt: now,
    };
    const queued = await repo.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('monitors')
        .set({ current_check_id: check.id })
        .where('id', '=', m.id)
        .where('current_check_id', 'is', null)
        .executeTakeFirst();
      const free = Number(r.numUpdatedRows) === 1;
      if (!free) {
        check.status = 'skipped_overlap';
        check.finishedAt = now;
        check.error = 'The previous check of this monitor was still running';
      }
      await repo.insertCheck(check, trx);
      return free;
    });
    if (queued) await this.deps.queue.addBulk([checkTask(m.teamId, check.id)]);
    return check;
  }

  async checks(teamId: string, id: string, limit: number, offset: number) {
    await this.owned(teamId, id);
    return (await this.deps.repo.listChecks(id, limit, offset)).map(checkView);
  }

  async check(teamId: string, id: string, checkId: string, page: { skip: number; limit: number; status?: PageStatus }, selfUrl: (skip: number) => string) {
    await this.owned(teamId, id);
    const check = await this.deps.repo.getCheck(checkId);
    if (!check || check.monitorId !== id) throw new ApiError('NOT_FOUND', { message: 'Check not found' });
    const { rows, total } = await this.deps.repo.pages(checkId, page.skip, page.limit, page.status);
    const next = total > page.skip + rows.length ? selfUrl(page.skip + rows.length) : null;
    return { ...checkView(check), pages: rows.map(pageView), next };
  }

  /** The monitor if it exists and belongs to the team; anything else is 404. */
  async owned(teamId: string, id: string): Promise<MonitorRecord> {
    const m = await this.deps.repo.getMonitor(id);
    if (!m || m.teamId !== teamId) throw new ApiError('NOT_FOUND', { message: 'Monitor not found' });
    return m;
  }

  /**
   * Validates URLs (and the SSRF rules) and the scrape options of each target, and gives every
   * target an id: the one sent, else the id of the target at the same position before (so a PATCH
   * that resends targets without ids keeps their history), else a new one.
   */
  private async targets(input: TargetInput[], before: Target[] = []): Promise<Target[]> {
    const out: Target[] = [];
    for (const [i, t] of input.entries()) {
      const prev = before[i];
      const id = t.id ?? (prev && prev.type === t.type ? prev.id : randomUUID());
      if (t.type === 'scrape') {
        for (const [j, u] of t.urls.entries()) await this.checkUrl(u, ['targets', i, 'urls', j]);
        this.checkScrapeOptions(t.scrapeOptions, `targets.${i}.scrapeOptions.`);
      } else if (t.type === 'crawl') {
        await this.checkUrl(t.url, ['targets', i, 'url']);
        this.checkScrapeOptions(t.scrapeOptions, `targets.${i}.scrapeOptions.`);
      }
      out.push({ ...t, id } as Target);
    }
    return out;
  }

  /** What a check would refuse on every page is refused now, when the monitor is written. */
  private checkScrapeOptions(raw: Record<string, unknown> | undefined, prefix: string): void {
    this.deps.refuseUnavailable(scrapeOptionsSchema.parse(raw ?? {}), prefix);
  }

  private async checkUrl(url: string, path: (string | number)[]): Promise<void> {
    try {
      await this.deps.guard.checkUrl(normaliseTargetUrl(url));
    } catch (e) {
      if (isApiError(e) && (e.key === 'INVALID_URL' || e.key === 'URL_BLOCKED')) {
        // The same code a scrape of the URL would answer with, with the target's path.
        throw new ApiError(e.key === 'INVALID_URL' ? 'INVALID_URL' : 'BAD_REQUEST', { details: [{ code: 'invalid_url', path, message: `${e.message}: ${url}` }] });
      }
      throw e;
    }
  }
}

/** A goal is judged by the model: on a server without one, say which setting is missing. */
function judgeRefusal(goal: string | null, judgeEnabled: boolean, modelConfigured: boolean): ApiError | undefined {
  if (modelConfigured || !judgeEnabled || !(goal ?? '').trim()) return undefined;
  const message = needsModelMessage("Judging changes against a monitor's goal") + ", or set judgeEnabled to false";
  return new ApiError('MODEL_NOT_CONFIGURED', { message, details: [{ code: 'custom', path: ['goal'], message }] });
}

function requireGoal(targets: Target[], goal: string | null, judgeEnabled: boolean): void {
  if (!judgeEnabled || (goal ?? '').trim().length > 0) return;
  const i = targets.findIndex((t) => t.type === 'search');
  if (i < 0) return;
  throw new ApiError('BAD_REQUEST', {
    details: [{ code: 'custom', path: ['goal'], message: `A search target (targets.${i}) needs a non-empty goal unless judgeEnabled is false` }],
  });
}

const deletedConflict = () => new ApiError('CONFLICT', { message: 'Conflict: the monitor is deleted' });
