/** Builds the monitor feature's parts on a runtime's shared services. */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { CrawlService } from '../crawl/service.js';
import type { CrawlRepository } from '../crawl/store.js';
import type { QueueFactory } from '../jobs/queue.js';
import type { Scraper } from '../scrape/pipeline.js';
import type { UrlGuard } from '../scrape/types.js';
import type { ModelAccess } from '../llm/types.js';
import type { Store } from '../store/db.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { MonitorLedger } from './billing.js';
import { createMailer, type Mailer } from './mail.js';
import { MonitorRunner, type MonitorSearch } from './runner.js';
import { MonitorScheduler } from './scheduler.js';
import { MonitorService } from './service.js';
import { MonitorRepository } from './store.js';
import type { MonitorTask } from './tasks.js';

export interface Monitors {
  repo: MonitorRepository;
  service: MonitorService;
  runner: MonitorRunner;
  scheduler: MonitorScheduler;
  mailer: Mailer | undefined;
  /** Starts the check workers and the clock in this process (worker side). */
  start(): void;
  /** Housekeeping: lost queue entries, retention. */
  housekeeping(): Promise<void>;
  stop(): void;
}

export interface MonitorDeps {
  config: Config;
  log: Logger;
  store: Store;
  queues: QueueFactory;
  scraper: Scraper;
  crawls: CrawlService;
  crawlRepo: CrawlRepository;
  webhooks: WebhookDispatcher;
  guard: UrlGuard;
  /** Runs search targets' queries. */
  search?: MonitorSearch;
  /** The language model, when one is configured: goals are judged with it. */
  model?: ModelAccess;
  /** Charges each checked page. */
  ledger?: MonitorLedger;
}

export function createMonitors(d: MonitorDeps): Monitors {
  const repo = new MonitorRepository(d.store.db);
  const queue = d.queues.queue<MonitorTask>('monitor');
  const service = new MonitorService({
    repo,
    queue,
    guard: d.guard,
    modelConfigured: d.config.model !== undefined,
    refuseUnavailable: (o, prefix) => d.scraper.refuseUnavailable(o, prefix),
  });
  const mailer = d.config.smtpUrl ? createMailer(d.config.smtpUrl, d.config.smtpFrom) : undefined;
  const runner = new MonitorRunner({
    repo,
    scraper: d.scraper,
    crawls: d.crawls,
    crawlRepo: d.crawlRepo,
    queue,
    webhooks: d.webhooks,
    mailer,
    log: d.log,
    publicUrl: d.config.publicUrl ?? '',
    ...(d.search ? { search: d.search } : {}),
    ...(d.model ? { model: d.model } : {}),
    ...(d.ledger ? { ledger: d.ledger } : {}),
  });
  const scheduler = new MonitorScheduler({ repo, service, queue, log: d.log, tickMs: d.config.monitorTickMs });
  let started = false;
  return {
    repo,
    service,
    runner,
    scheduler,
    mailer,
    start() {
      if (started) return;
      started = true;
      queue.process((job, signal) => runner.handle(job, signal), { concurrency: d.config.monitorConcurrency });
      scheduler.start();
    },
    async housekeeping() {
      await scheduler.requeueStale();
      await repo.purgeExpired(Date.now());
    },
    stop() {
      void scheduler.stop();
      mailer?.close();
    },
  };
}
