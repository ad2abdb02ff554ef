/**
 * Start-up failures an operator can fix, each told in one line that names the setting to change.
 * A process that cannot do its job must not linger half-started: a server that failed to listen
 * went on running its workers, taking jobs, for as long as nobody looked. The entry point prints
 * a StartupError's message and exits non-zero.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Redis } from 'ioredis';

export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}

const codeOf = (e: unknown): string | undefined => (e as { code?: unknown })?.code as string | undefined;
const reasonOf = (e: unknown): string => {
  const code = codeOf(e);
  const message = (e as Error)?.message ?? String(e);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
};

/** A connection URL as it may be printed: no user name or password. */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/** The data directory exists (made if needed) and takes a file, or a StartupError says why. */
export function ensureWritableDataDir(dir: string): void {
  const probe = path.join(dir, `.write-test-${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (e) {
    throw new StartupError(`the data directory ${dir} is not writable (${codeOf(e) ?? reasonOf(e)}): set DATA_DIR to a directory this user can write`, { cause: e });
  }
}

/** Opening the store failed: which store, and what to check. */
export function storeFailure(e: unknown, store: { databaseUrl?: string; dataDir: string }): StartupError {
  if (e instanceof StartupError) return e;
  const reason = reasonOf(e).replace(/^database migration failed: (Error: )?/, '');
  if (store.databaseUrl) {
    return new StartupError(`cannot use the PostgreSQL database at ${redactUrl(store.databaseUrl)} (${reason}): check DATABASE_URL and that the server is running`, { cause: e });
  }
  return new StartupError(`cannot open the SQLite database in ${store.dataDir} (${reason}): check DATA_DIR`, { cause: e });
}

/**
 * Connects to Redis and waits until it answers, or fails with a StartupError: an unreachable
 * Redis otherwise leaves the queue retrying in the background while the process looks healthy.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: true, connectTimeout: 5000 });
  let lastError: unknown;
  redis.on('error', (e: unknown) => (lastError = e));
  try {
    await redis.connect();
    await redis.ping();
  } catch (e) {
    redis.disconnect();
    throw new StartupError(`cannot reach Redis at ${redactUrl(url)} (${reasonOf(lastError ?? e)}): check REDIS_URL and that Redis is running`, { cause: e });
  }
  return redis;
}

/** `listen()` failed: the one line that says what to change. */
export function listenFailure(e: unknown, host: string, port: number): StartupError {
  switch (codeOf(e)) {
    case 'EADDRINUSE':
      return new StartupError(`port ${port} on ${host} is already in use: stop the process holding it or set PORT to a free port`, { cause: e });
    case 'EACCES':
      return new StartupError(`not allowed to listen on ${host}:${port}: set PORT to 1024 or above`, { cause: e });
    case 'EADDRNOTAVAIL':
      return new StartupError(`${host} is not an address of this machine: set HOST (127.0.0.1 for this machine only, 0.0.0.0 for every interface)`, { cause: e });
    default:
      return new StartupError(`cannot listen on ${host}:${port} (${reasonOf(e)}): check HOST and PORT`, { cause: e });
  }
}
