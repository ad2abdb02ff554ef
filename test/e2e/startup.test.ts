/**
 * A start-up that cannot succeed ends the process: a non-zero exit and one line naming the
 * setting to change, never a half-started server (its workers taking jobs) that nobody notices.
 * The real command, as an operator runs it; every address involved is on loopback.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The command compiles its TypeScript on the fly: seconds per start on a busy machine.
vi.setConfig({ testTimeout: 240_000 });

const root = path.resolve(import.meta.dirname, '../..');
let dataDir: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-startup-'));
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `gleaner serve`; a process that never exits is killed by the guard and has no status. */
function serve(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', 'serve'],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 180_000,
        env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', GLEANER_API_KEY: '', ...env },
      },
      (_err, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
    );
  });
}

/** The last line the command wrote to stderr, and that no stack trace came with it. */
function failureLine(r: Run): string {
  const lines = r.stderr.trim().split('\n');
  expect(lines.filter((l) => /^\s+at /.test(l))).toEqual([]);
  return lines.at(-1) ?? '';
}

describe('start-up failures', () => {
  it('exits 1 when the port is taken, saying so and naming PORT, without starting workers', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const r = await serve({ PORT: String(port) });
      expect(r.status).toBe(1);
      expect(failureLine(r)).toBe(`gleaner: port ${port} on 127.0.0.1 is already in use: stop the process holding it or set PORT to a free port`);
      expect(r.stdout).not.toMatch(/workers running|listening/);
    } finally {
      holder.close();
    }
  });

  it('exits 1 when the data directory cannot be written, naming DATA_DIR', async () => {
    const file = path.join(dataDir, 'a-file');
    fs.writeFileSync(file, '');
    const r = await serve({ DATA_DIR: path.join(file, 'data') });
    expect(r.status).toBe(1);
    expect(failureLine(r)).toMatch(/^gleaner: the data directory .*a-file\/data is not writable \(ENOTDIR\): set DATA_DIR/);
  });

  it('exits 1 when PostgreSQL cannot be reached, naming DATABASE_URL without its password', async () => {
    const r = await serve({ DATABASE_URL: 'postgres://gleaner:s3cret-pw@127.0.0.1:1/test' });
    expect(r.status).toBe(1);
    const line = failureLine(r);
    expect(line).toMatch(/^gleaner: cannot use the PostgreSQL database at postgres:\/\/127\.0\.0\.1:1\/test \(.*ECONNREFUSED.*\): check DATABASE_URL/);
    expect(r.stderr).not.toContain('s3cret-pw');
  });

  it('exits 1 when Redis cannot be reached, naming REDIS_URL', async () => {
    const r = await serve({ REDIS_URL: 'redis://127.0.0.1:1' });
    expect(r.status).toBe(1);
    expect(failureLine(r)).toMatch(/^gleaner: cannot reach Redis at redis:\/\/127\.0\.0\.1:1 \(.*ECONNREFUSED.*\): check REDIS_URL/);
    expect(r.stdout).not.toMatch(/workers running|listening/);
  });

  it('exits 1 when HOST is not an address of this machine, naming HOST', async () => {
    // Binding to an address no interface has fails locally; nothing is sent anywhere.
    const r = await serve({ HOST: '192.0.2.1' });
    expect(r.status).toBe(1);
    expect(failureLine(r)).toMatch(/^gleaner: 192\.0\.2\.1 is not an address of this machine: set HOST/);
  });
});
