/**
 * Starts a real Gleaner for tests: its own data folder, its own PostgreSQL schema when
 * DATABASE_URL is set, an ephemeral port, and a fresh API key. `close()` removes what it made.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { startWorkers } from '../../src/workers.js';
import { createLogger } from '../../src/log.js';
import { bootstrapKey, createRuntime, type Runtime } from '../../src/runtime.js';
import { dropSchema } from '../../src/store/db.js';

export interface TestGleaner {
  url: string;
  key: string;
  teamId: string;
  /** PostgreSQL schema and Redis prefix of this instance, for processes that join it. */
  dbSchema: string | undefined;
  redisPrefix: string;
  rt: Runtime;
  app: FastifyInstance;
  dataDir: string;
  close(): Promise<void>;
}

export interface TestGleanerOptions {
  env?: Record<string, string>;
  overrides?: Partial<Config>;
  /** Use the embedded SQLite store even when DATABASE_URL is set. */
  embedded?: boolean;
  /** Run the background workers in the same process, as `gleaner serve` does (default true). */
  workers?: boolean;
}

export async function startGleaner(opts: TestGleanerOptions = {}): Promise<TestGleaner> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-test-'));
  const runId = `t_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ALLOW_PRIVATE_ADDRESSES: '127.0.0.0/8',
    DATABASE_URL: opts.embedded ? undefined : process.env.DATABASE_URL,
    REDIS_URL: opts.embedded ? undefined : process.env.REDIS_URL,
    CHROMIUM_PATH: process.env.CHROMIUM_PATH,
    ...opts.env,
  };
  const config = loadConfig(env, opts.overrides);
  const rt = await createRuntime(config, createLogger(config), { dbSchema: config.databaseUrl ? runId : undefined, redisPrefix: `gleaner-test:${runId}` });
  const key = `fc-test-${randomBytes(16).toString('hex')}`;
  const teamId = await rt.keys.ensureTeam(`team-${runId}`);
  await rt.keys.create({ teamId, name: 'test', key });
  const workers = opts.workers === false ? undefined : startWorkers(rt);
  const app = await buildApp(rt);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    teamId,
    dbSchema: config.databaseUrl ? runId : undefined,
    redisPrefix: `gleaner-test:${runId}`,
    rt,
    app,
    dataDir,
    async close() {
      await app.close();
      workers?.stop();
      await rt.close();
      if (config.databaseUrl) await dropSchema(config.databaseUrl, runId);
      if (config.redisUrl) {
        const { Redis } = await import('ioredis');
        const r = new Redis(config.redisUrl);
        const keys = await r.keys(`gleaner-test:${runId}*`);
        if (keys.length) await r.del(...keys);
        r.disconnect();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export { bootstrapKey };
