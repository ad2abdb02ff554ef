/**
 * The operator's side of threat protection and zero data retention: `gleaner teams
 * threat-policy` and `gleaner teams zdr` store a team's settings (each change an audit event),
 * and a server on the same data, classifying with the operator's domain lists
 * (THREAT_DOMAIN_LISTS), applies them through the official SDK.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

vi.setConfig({ testTimeout: 240_000 });

const root = path.resolve(import.meta.dirname, '../..');
let dataDir: string;
let site: FixtureSite;
let server: TestGleaner | undefined;

const gleaner = (...args: string[]) => {
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', GLEANER_API_KEY: '' };
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-threat-cli-'));
  site = await startFixtureSite();
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('gleaner teams threat-policy and gleaner teams zdr', () => {
  it('set a policy the server then applies with the domain-list classifier', async () => {
    // One team for both settings: each command is a process start, the slow part of this test.
    expect(gleaner('teams', 'create', 'acme').status).toBe(0);
    const key = gleaner('keys', 'create', '--team', 'acme').stdout.trim();
    expect(gleaner('audit', 'enable', 'acme').status).toBe(0);

    const set = gleaner('teams', 'threat-policy', 'acme', 'enabled=true', 'mode=normal', 'riskScoreThreshold=80', 'failurePolicy=closed');
    expect(set.status).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ enabled: true, mode: 'normal', riskScoreThreshold: 80, failurePolicy: 'closed' });
    const zscaler = gleaner('teams', 'threat-policy', 'acme', 'mode=zscaler');
    expect(zscaler.status).not.toBe(0);
    expect(zscaler.stderr).toMatch(/zscaler.*not supported/);
    expect(gleaner('teams', 'zdr', 'acme', 'on').stdout.trim()).toBe('zdr on');

    const events = gleaner('audit', 'list', 'acme').stdout.trim().split('\n').map((l) => (JSON.parse(l) as { action: string }).action);
    expect(events).toEqual(['audit enable', 'teams threat-policy enabled mode riskScoreThreshold failurePolicy', 'teams zdr on']);

    const lists = path.join(dataDir, 'threat-domains.txt');
    fs.writeFileSync(lists, '# the operator list\n127.0.0.1 95 malware\n');
    server = await startGleaner({ embedded: true, env: { DATA_DIR: dataDir, THREAT_DOMAIN_LISTS: lists } });
    const fc = new Firecrawl({ apiKey: key, apiUrl: server.url });
    const err = await sdkError(fc.scrape(`${site.url}/article`));
    expect([err.status, err.code]).toEqual([403, 'URL_BLOCKED']);
    expect(err.message).toMatch(/domain-list classifier rates 127\.0\.0\.1 95\/100 \(malware\)/);
    // The policy is not enforced, so a request may raise its own threshold above the score.
    const doc = await fc.scrape(`${site.url}/article`, { threatProtection: { riskScoreThreshold: 96 } } as never);
    expect(doc.metadata?.creditsUsed).toBe(3);

    // Zero data retention: the scrape's id leads nowhere.
    const read = await fetch(`${server.url}/v2/scrape/${doc.metadata!.scrapeId}`, { headers: { authorization: `Bearer ${key}` } });
    expect([read.status, ((await read.json()) as { code: string }).code]).toEqual([400, 'ZDR_NOT_SUPPORTED']);
  });

  it('a domain list that does not parse stops the start-up naming the setting', () => {
    const bad = path.join(dataDir, 'bad-domains.txt');
    fs.writeFileSync(bad, 'fine.example 10\nnot a domain!\n');
    const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', THREAT_DOMAIN_LISTS: bad, PORT: '0' };
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'teams', 'list'], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/bad-domains\.txt:2.*THREAT_DOMAIN_LISTS/);
  });
});
