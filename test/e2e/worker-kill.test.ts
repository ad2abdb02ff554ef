/**
 * A killed worker loses nothing: the API runs here, crawl work runs in `gleaner worker` child
 * processes on PostgreSQL and Redis. One worker is killed (SIGKILL) in the middle of a crawl; a
 * fresh one finishes it, and every page is in the results exactly once. Runs when DATABASE_URL
 * and REDIS_URL are set (CI sets both).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

vi.setConfig({ testTimeout: 240_000 });

const distributed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const root = path.resolve(import.meta.dirname, '../..');

describe.skipIf(!distributed)('a worker killed mid-crawl', () => {
  let site: FixtureSite;
  let gleaner: TestGleaner;
  let hooks: WebhookReceiver;
  const children: ChildProcess[] = [];

  const startWorker = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: gleaner.dataDir,
        DATABASE_SCHEMA: gleaner.dbSchema,
        REDIS_PREFIX: gleaner.redisPrefix,
        ALLOW_PRIVATE_ADDRESSES: '127.0.0.0/8',
        LOG_LEVEL: 'warn',
        DISABLE_BROWSER: 'true',
        WORKER_CONCURRENCY: '2',
        // A dead worker's tasks are handed to another once their lease lapses.
        JOB_LEASE_MS: '3000',
      },
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 120_000;
    while (!out.includes('workers running')) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`worker did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return child;
  };

  beforeAll(async () => {
    site = await startFixtureSite();
    hooks = await startWebhookReceiver();
    gleaner = await startGleaner({ workers: false, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await gleaner?.close();
    await hooks?.close();
    await site?.close();
  });

  it('finishes the crawl on another worker with every page exactly once', async () => {
    const first = await startWorker();
    const fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
    const started = await fc.startCrawl(`${site.url}/crawl/big`, { sitemap: 'skip', delay: 0.05, webhook: hooks.url });

    // Let the first worker get part of the way, then kill it without warning.
    while ((await fc.getCrawlStatus(started.id, { autoPaginate: false })).completed < 15) await new Promise((r) => setTimeout(r, 100));
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const atKill = (await fc.getCrawlStatus(started.id, { autoPaginate: false })).completed;
    expect(atKill).toBeLessThan(61);

    await startWorker();
    const deadline = Date.now() + 120_000;
    let status = await fc.getCrawlStatus(started.id);
    while (status.status === 'scraping' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      status = await fc.getCrawlStatus(started.id);
    }
    expect(status.status).toBe('completed');
    const urls = status.data.map((d) => d.metadata?.sourceURL);
    expect(urls).toHaveLength(61);
    expect(new Set(urls).size).toBe(61);
    expect(status.completed).toBe(61);
    expect(status.creditsUsed).toBe(61);

    // Webhooks are at least once; each page event is recorded once, whatever was redelivered.
    const got = await hooks.waitFor((ds) => ds.some((d) => d.body.type === 'crawl.completed' && d.body.id === started.id), 60_000);
    const pageEvents = new Map<string, string>();
    for (const d of got) if (d.body.type === 'crawl.page' && d.body.id === started.id) pageEvents.set(d.body.webhookId!, (d.body.data[0] as { metadata: { sourceURL: string } }).metadata.sourceURL);
    expect(pageEvents.size).toBe(61);
    expect(new Set(pageEvents.values()).size).toBe(61);
  });
});
