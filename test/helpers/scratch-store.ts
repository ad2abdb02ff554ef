/**
 * A store of a test's own: SQLite in a temporary folder, or, given a PostgreSQL URL, a schema of
 * its own there, so test files and parallel runs never meet. `remove` drops it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropSchema, openStore, type Store } from '../../src/store/db.js';

export interface ScratchStore {
  /** Opens the store, migrated; each call is a connection of its own to the same data. */
  open(): Promise<Store>;
  /** The test's own folder: the SQLite file's, with room for what else a test keeps on disk (blobs). */
  folder(): string;
  /** Drops the schema and deletes the folder (close the connections first). */
  remove(): Promise<void>;
}

export function scratchStore(name: string, databaseUrl: string | undefined): ScratchStore {
  const schema = `t_${name}_${randomBytes(4).toString('hex')}`;
  let dataDir: string | undefined;
  const folder = () => (dataDir ??= fs.mkdtempSync(path.join(os.tmpdir(), `gleaner-${name}-`)));
  return {
    open: () => openStore({ dataDir: folder(), ...(databaseUrl ? { databaseUrl, schema } : {}) }),
    folder,
    async remove() {
      if (databaseUrl) await dropSchema(databaseUrl, schema);
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
