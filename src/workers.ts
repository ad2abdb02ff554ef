/**
 * The background side of a process: crawl and batch tasks from the queue, webhook delivery, and
 * housekeeping (recovering stalled jobs, purging expired ones). `gleaner serve` runs it beside
 * the API; `gleaner worker` runs it alone.
 */
import { DEFAULT_PLAN, plans, type Plan } from './billing/plans.js';
import type { Runtime } from './runtime.js';

/** A job with no progress for this long gets its pending work queued again (deduplicated). */
const STALL_MS = 60_000;
const HOUSEKEEPING_MS = 15_000;
const PLAN_CACHE_MS = 60_000;

export interface Workers {
  /** Stops housekeeping; the runtime's close drains the queues. */
  stop(): void;
}

export function startWorkers(rt: Runtime): Workers {
  const concurrencyOf = teamConcurrency(rt);
  rt.crawlQueue.process((job, signal) => rt.crawlRunner.handle(job, signal), {
    concurrency: rt.config.workerConcurrency,
    teamConcurrency: concurrencyOf,
  });
  rt.webhooks.start();
  rt.monitors.start();
  rt.crawlRunner.startRecovery(STALL_MS, HOUSEKEEPING_MS);
  const timer = setInterval(() => {
    void housekeeping(rt).catch((err: unknown) => rt.log.warn({ err }, 'housekeeping failed'));
  }, HOUSEKEEPING_MS);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      void rt.crawlRunner.stopRecovery();
    },
  };
}

async function housekeeping(rt: Runtime): Promise<void> {
  await rt.crawlRepo.jobs.purgeExpired();
  // A single scrape's record (GET /v2/scrape/{id}) is kept as long as a job's documents.
  await rt.documents.purgeScrapes(Date.now() - rt.config.jobTtlMs);
  await rt.documents.purgeCache(Date.now() - rt.config.cacheTtlMs);
  // A page stays findable as long as its cached copy would be kept.
  await rt.search.index.purge(Date.now() - rt.config.cacheTtlMs);
  await rt.monitors.housekeeping();
}

/**
 * The queue asks synchronously how many tasks a team may run; plans are read from the store
 * in the background and cached, with the default plan until the first read lands.
 */
function teamConcurrency(rt: Runtime): (teamId: string) => number {
  const table = plans(rt.config.rateLimitPerMinute);
  const fallback: Plan = table[DEFAULT_PLAN]!;
  const cache = new Map<string, { plan: Plan; at: number }>();
  const loading = new Set<string>();
  return (teamId) => {
    const hit = cache.get(teamId);
    if ((!hit || Date.now() - hit.at > PLAN_CACHE_MS) && !loading.has(teamId)) {
      loading.add(teamId);
      void rt.keys
        .planOf(teamId)
        .then((name) => cache.set(teamId, { plan: table[name ?? DEFAULT_PLAN] ?? fallback, at: Date.now() }))
        .catch(() => undefined)
        .finally(() => loading.delete(teamId));
    }
    return (hit?.plan ?? fallback).concurrency;
  };
}
