/**
 * Migrations live one per file, named as the store records them, and are listed in order: an
 * existing store finds every name it applied and runs only what is new.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scratchStore } from '../../../test/helpers/scratch-store.js';
import { migrationProvider } from './index.js';

const files = fs
  .readdirSync(import.meta.dirname)
  .filter((f) => /^\d{4}_[a-z0-9_]+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''));

describe('migrations', () => {
  it('are one per file, each registered under its file name, in order', async () => {
    const names = Object.keys(await migrationProvider.getMigrations());
    expect(names).toEqual(files.sort());
    expect(names).toEqual([...names].sort());
    expect(names.map((n) => Number(n.slice(0, 4)))).toEqual(names.map((_, i) => i + 1));
  });

  it('apply once: a store opened again finds them all applied', async () => {
    const scratch = scratchStore('migrations', process.env.DATABASE_URL);
    const first = await scratch.open();
    const applied = await first.db.selectFrom('kysely_migration' as never).select('name' as never).execute();
    await first.close();
    const again = await scratch.open();
    const after = await again.db.selectFrom('kysely_migration' as never).select('name' as never).execute();
    await again.close();
    await scratch.remove();
    expect(applied.map((r) => (r as { name: string }).name)).toEqual(files.sort());
    expect(after).toEqual(applied);
  });
});
