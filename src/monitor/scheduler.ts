/**
 * The monitor clock. Every worker process ticks; each due monitor's slot is claimed with a
 * conditional update (next_run_at moves from the due time to the next one only if it still
 * reads the due time), so however many processes tick, one check is recorded per due time.
 *
 * After downtime the stored due time is in the past: it fires once (a single catch-up), and the
 * next slot is computed from now, so missed slots are not replayed one by one.
 */
import type { Logger } from 'pino';
import { ClaimLoop } from '../jobs/lease.js';
import type { JobQueue } from '../jobs/queue.js';
import { checkTask, type MonitorTask } from './tasks.js';
import { nextRunAfter } from './schedule.js';
import type { MonitorService } from './service.js';
import type { MonitorRepository } from './store.js';

export interface SchedulerDeps {
  repo: MonitorRepository;
  service: MonitorService;
  queue: JobQueue<MonitorTask>;
  log: Logger;
  tickMs: number;
}

const BATCH = 200;
/** A check still `queued` this long after it was recorded lost its queue entry (crash): re-add. */
const REQUEUE_AFTER_MS = 60_000;

export class MonitorScheduler {
  private readonly clock: ClaimLoop;
  private running = false;

  constructor(private readonly deps: SchedulerDeps) {
    this.clock = new ClaimLoop({
      step: async () => {
        await this.tick();
        return false;
      },
      pollMs: deps.tickMs,
      onError: (err) => deps.log.warn({ err }, 'monitor scheduler tick failed'),
      // The clock alone is no reason to keep a process running.
      keepAlive: false,
    });
  }

  start(): void {
    if (this.clock.started || this.clock.stopping) return;
    this.clock.start();
  }

  /** Stops the clock; a tick under way still ends (`stopped` resolves then). */
  stop(): Promise<void> {
    return this.clock.stop();
  }

  /** Claims and queues every due monitor; returns how many checks this process recorded. */
  async tick(now = Date.now()): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let fired = 0;
    try {
      for (;;) {
        const due = await this.deps.repo.due(now, BATCH);
        for (const d of due) if (await this.fire(d.id, d.nextRunAt, now)) fired++;
        if (due.length < BATCH) break;
      }
    } catch (err) {
      this.deps.log.warn({ err }, 'monitor scheduler tick failed');
    } finally {
      this.running = false;
    }
    return fired;
  }

  private async fire(id: string, due: number, now: number): Promise<boolean> {
    const { repo } = this.deps;
    const m = await repo.getMonitor(id);
    if (!m || m.status !== 'active' || m.nextRunAt !== due) return false;
    const next = nextRunAfter(m.cron, m.timezone, Math.max(now, due));
    // The claim: next_run_at moves on only if it still reads the due time this process saw.
    const won = await repo.db.transaction().execute((trx) => repo.claimSlot(trx, id, due, next));
    if (!won) return false;
    await this.deps.service.enqueueCheck(m, 'scheduled', due);
    return true;
  }

  /** Re-adds checks whose queue entry was lost between their commit and the enqueue. */
  async requeueStale(): Promise<void> {
    for (const c of await this.deps.repo.staleQueued(REQUEUE_AFTER_MS)) {
      await this.deps.queue.addBulk([checkTask(c.teamId, c.id)]);
    }
  }
}
