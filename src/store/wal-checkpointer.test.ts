import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CheckpointStats, WalCheckpointer } from './wal-checkpointer.js';

describe('the WAL checkpointer', () => {
  let dir: string;
  let file: string;
  let writer: SQLite.Database;
  let checkpointer: WalCheckpointer | undefined;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-wal-'));
    file = path.join(dir, 'db.sqlite');
    writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    // The writer never checkpoints on its own here: whatever is copied back, the thread copied.
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table t (id integer primary key, body text not null)');
  });
  afterEach(async () => {
    await checkpointer?.close();
    checkpointer = undefined;
    if (writer.open) writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const write = (rows: number) => {
    const insert = writer.prepare('insert into t (body) values (?)');
    writer.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run('x'.repeat(2000));
    })();
  };

  /** Waits (a few seconds at most) for the thread's figures to satisfy `check`. */
  async function until(check: (s: CheckpointStats) => boolean): Promise<CheckpointStats> {
    for (let i = 0; i < 200 && !check(checkpointer!.stats()); i++) await new Promise((r) => setTimeout(r, 25));
    return checkpointer!.stats();
  }

  it('copies everything the writer logged back into the database file', async () => {
    checkpointer = new WalCheckpointer(file, { intervalMs: 20 });
    write(500);
    const s = await until((x) => x.checkpoints > 0 && x.checkpointed === x.log);
    // 500 rows of 2 KB fill some 250 pages of 4 KB.
    expect(s.log).toBeGreaterThan(250);
    expect(s.checkpointed).toBe(s.log);
  });

  it('keeps up while the writer goes on writing, so the writer starts the log over instead of growing it', async () => {
    checkpointer = new WalCheckpointer(file, { intervalMs: 20 });
    let first: number | undefined;
    for (let round = 0; round < 5; round++) {
      const before = checkpointer.stats().checkpoints;
      write(200);
      const s = await until((x) => x.checkpoints > before && x.checkpointed === x.log);
      first ??= s.log;
      // The log holds this round's frames only: it was rewound after the last round's copy.
      expect(s.log).toBeLessThanOrEqual(first + 2);
      expect(s.checkpointed).toBe(s.log);
    }
  });

  it('does nothing while nothing is written', async () => {
    checkpointer = new WalCheckpointer(file, { intervalMs: 10 });
    write(10);
    const settled = await until((x) => x.checkpoints > 0 && x.checkpointed === x.log);
    await new Promise((r) => setTimeout(r, 200));
    expect(checkpointer.stats()).toEqual(settled);
  });

  it('closes its connection, so the writer is the last one and removes the log when it closes', async () => {
    checkpointer = new WalCheckpointer(file, { intervalMs: 20 });
    write(50);
    await checkpointer.close();
    checkpointer = undefined;
    writer.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    writer = new SQLite(file);
    expect(writer.prepare('select count(*) as n from t').get()).toEqual({ n: 50 });
  });

  it('finishes closing when nothing else keeps the process alive (a command that opens the store and ends)', () => {
    const module = new URL('./wal-checkpointer.ts', import.meta.url).href;
    const script = `const { WalCheckpointer } = await import(${JSON.stringify(module)});
      const c = new WalCheckpointer(${JSON.stringify(file)});
      await c.close();
      console.log('closed');`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stdout.trim()).toBe('closed');
    expect(r.status).toBe(0);
  });
});
