/**
 * The operator's credit commands: `gleaner teams` and `gleaner credits` set a team's plan, its
 * credits per period and top-ups, and a server on the same data answers with them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

vi.setConfig({ testTimeout: 240_000 });

const root = path.resolve(import.meta.dirname, '../..');
let dataDir: string;

const gleaner = (...args: string[]) => {
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', GLEANER_API_KEY: '' };
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
};

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-credits-cli-'));
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('gleaner teams and gleaner credits', () => {
  let server: TestGleaner | undefined;
  afterAll(async () => {
    await server?.close();
  });

  it('sets a plan, a limit and a top-up that the API then reports', async () => {
    expect(gleaner('teams', 'create', 'acme', 'free').status).toBe(0);
    const key = gleaner('keys', 'create', '--team', 'acme').stdout.trim();
    expect(key).toMatch(/^fc-/);

    const limited = gleaner('credits', 'limit', 'acme', '2');
    expect(limited.stdout).toContain('plan=free');
    expect(limited.stdout).toContain('remaining 2');
    expect(gleaner('credits', 'grant', 'acme', '3').stdout).toContain('remaining 5');
    expect(gleaner('teams', 'set-plan', 'acme', 'scale').stdout).toContain('plan=scale');

    const bad = gleaner('credits', 'grant', 'acme', '-4');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('positive whole number');
    expect(gleaner('teams', 'set-plan', 'acme', 'gold').stderr).toContain('known: free, standard, scale, self-hosted');

    // With the audit log on, operator changes become events, listed as JSON lines.
    expect(gleaner('audit', 'enable', 'acme').status).toBe(0);
    expect(gleaner('credits', 'grant', 'acme', '7').status).toBe(0);
    const lines = gleaner('audit', 'list', 'acme').stdout.trim().split('\n').map((l) => JSON.parse(l) as { action: string; outcome: string });
    expect(lines.map((e) => [e.action, e.outcome])).toEqual([['audit enable', 'ok'], ['credits grant 7', 'ok']]);

    server = await startGleaner({ embedded: true, env: { DATA_DIR: dataDir } });
    const usage = await new Firecrawl({ apiKey: key, apiUrl: server.url }).getCreditUsage();
    expect(usage.remainingCredits).toBe(12);
    expect(usage.planCredits).toBe(2);
  });
});
