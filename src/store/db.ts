/**
 * Opens the database: SQLite file under the data folder by default, PostgreSQL when a URL is
 * given. Both go through one Kysely instance so repositories are written once.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import { migrationProvider } from './migrations/index.js';
import { SchemaPostgresDialect } from './schema-introspector.js';
import type { Database } from './schema.js';
import { BACKSTOP_FRAMES, WalCheckpointer } from './wal-checkpointer.js';

/** The PostgreSQL driver, loaded only when a server uses PostgreSQL. */
async function loadPg(): Promise<typeof import('pg').default> {
  const pg = (await import('pg')).default;
  // bigint columns hold epoch milliseconds, well inside Number's exact range.
  pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
  return pg;
}

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** Resolves when the database answers a trivial query (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; absent means SQLite under `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL schema to use (created if missing); lets test runs stay apart. */
  schema?: string;
}

export async function openStore(opts: StoreOptions): Promise<Store> {
  let store: Store;
  if (opts.databaseUrl) {
    const schema = opts.schema;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`bad schema name ${schema}`);
    const pg = await loadPg();
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    const db = new Kysely<Database>({ dialect: schema ? new SchemaPostgresDialect({ pool }, schema) : new PostgresDialect({ pool }) });
    store = { db, dialect: 'postgres', ping: () => ping(db), close: () => db.destroy() };
  } else {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    const filename = path.join(opts.dataDir, 'gleaner.sqlite');
    const file = new SQLite(filename);
    file.pragma('journal_mode = WAL');
    file.pragma('synchronous = NORMAL');
    file.pragma('busy_timeout = 5000');
    file.pragma('foreign_keys = ON');
    // Checkpoints run on a thread of their own (see wal-checkpointer.ts); this connection's own
    // threshold only bounds the log should that thread fall behind.
    file.pragma(`wal_autocheckpoint = ${BACKSTOP_FRAMES}`);
    const checkpointer = new WalCheckpointer(filename);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(file) }) });
    store = {
      db,
      dialect: 'sqlite',
      ping: () => ping(db),
      close: async () => {
        await checkpointer.close();
        await db.destroy();
      },
    };
  }
  await migrate(store, opts.databaseUrl ? opts.schema : undefined);
  return store;
}

async function ping(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * Kysely prepares a statement for every query, and better-sqlite3 compiles SQL on each prepare:
 * on busy paths that compile was the largest cost of a query. Statements are reusable, so keep
 * the recent ones by their text. (Nothing here streams results, which would pin a statement.)
 */
function cachingStatements(file: SQLite.Database, max = 512): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => file.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text);
      } else {
        statement = file.prepare(text);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

async function migrate(store: Store, schema: string | undefined): Promise<void> {
  // The migration bookkeeping lives in the store's own schema, so parallel runs in separate
  // schemas never contend for one lock table.
  const migrator = new Migrator({
    db: store.db,
    provider: migrationProvider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}

/** Drops a PostgreSQL schema; used by tests to clean up after themselves. */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const pg = await loadPg();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await pool.end();
  }
}

export { sql };
