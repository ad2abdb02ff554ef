/**
 * The `gleaner` command as an operator uses it: first start prints a key that works, keys can be
 * created, listed and revoked, `scrape` runs the pipeline, and SIGTERM shuts down cleanly.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';

// Each test starts the real command several times (TypeScript compiled on the fly), which takes
// seconds apiece on a busy two-core machine.
vi.setConfig({ testTimeout: 240_000 });

const root = path.resolve(import.meta.dirname, '../..');
let site: FixtureSite;
let dataDir: string;

const env = () => ({
  ...process.env,
  DATA_DIR: dataDir,
  ALLOW_PRIVATE_ADDRESSES: '127.0.0.0/8',
  LOG_LEVEL: 'warn',
  DATABASE_URL: '',
  REDIS_URL: '',
  GLEANER_API_KEY: '',
});
const gleaner = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: root, env: env(), encoding: 'utf8', timeout: 120_000 });

// The fixture site lives in this process, so commands that fetch from it must not block it.
const gleanerAsync = (...args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: root, env: env(), encoding: 'utf8', timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

beforeAll(async () => {
  site = await startFixtureSite();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-cli-'));
});
afterAll(async () => {
  await site?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('gleaner serve', () => {
  it('prints a first key once, serves with it, and exits cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: root, env: { ...env(), PORT: '0' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 90_000;
    while (!/listening on (http:\/\/\S+)/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    const key = /First API key[^\n]*\n\s*\n\s*(fc-[0-9a-f]+)/.exec(out)?.[1];
    expect(url, out).toBeDefined();
    expect(key, out).toBeDefined();

    const doc = await new Firecrawl({ apiKey: key!, apiUrl: url! }).scrape(`${site.url}/article`);
    expect(doc.markdown).toContain('Sourdough rewards patience');

    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    // A second start of the same installation does not make or print another key.
    const again = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: root, env: { ...env(), PORT: '0' } });
    let out2 = '';
    again.stdout.on('data', (d: Buffer) => (out2 += d.toString()));
    while (!/listening on/.test(out2) && Date.now() < deadline + 90_000) await new Promise((r) => setTimeout(r, 100));
    again.kill('SIGTERM');
    await new Promise((r) => again.on('exit', r));
    expect(out2).not.toContain('First API key');
  });
});

describe('gleaner keys', () => {
  it('creates, lists and revokes keys', () => {
    const created = gleaner('keys', 'create', '--name', 'robot', '--scopes', 'scrape,map');
    expect(created.status, created.stderr).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^fc-[0-9a-f]{48}$/);
    const listed = gleaner('keys', 'list');
    expect(listed.stdout).toContain('name=robot');
    expect(listed.stdout).toContain('scopes=scrape,map');
    expect(listed.stdout).not.toContain(key);
    expect(gleaner('keys', 'revoke', key).status).toBe(0);
    expect(gleaner('keys', 'list').stdout).toMatch(/name=robot .*revoked/);
    expect(gleaner('keys', 'revoke', key).status).toBe(1);
  });

  it('refuses unknown scopes with a usage message', () => {
    const r = gleaner('keys', 'create', '--scopes', 'everything');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('unknown scope');
  });
});

describe('gleaner scrape', () => {
  it('prints markdown, html or the JSON document', async () => {
    const md = await gleanerAsync('scrape', `${site.url}/article`);
    expect(md.status, md.stderr).toBe(0);
    expect(md.stdout).toContain('# The Quiet Art of Bread Baking');
    const json = await gleanerAsync('scrape', `${site.url}/article`, '--format', 'json');
    expect(JSON.parse(json.stdout).metadata.title).toBe('The Quiet Art of Bread Baking');
  });

  it('reports a catalog error and exits non-zero', () => {
    const r = gleaner('scrape', 'ftp://example.com/');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Invalid URL');
  });
});
