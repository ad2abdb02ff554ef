/**
 * Moves SQLite's WAL checkpoints off the thread that writes. A checkpoint copies the log back into
 * the database file and syncs both to disk; SQLite runs it inside whichever commit crosses the
 * log's size threshold, so that commit blocks its thread for milliseconds (measured on a crawl's
 * store: a median commit of 60 µs, and one in fifty that checkpoints taking 1 to 20 ms, together
 * three fifths of all commit time). On the main thread that stalls the whole server: no request is
 * answered and no queued page is handed out meanwhile.
 *
 * A thread with a connection of its own checkpoints instead, a few times a second while the log
 * grows. PASSIVE checkpoints never wait for, or block, the writer; the writing connection keeps a
 * far higher automatic threshold of its own (BACKSTOP_FRAMES), so the log stays bounded should
 * this thread fall behind or fail.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface CheckpointerOptions {
  /** How often the thread checkpoints what the log gained since it last did. */
  intervalMs?: number;
}

export interface CheckpointStats {
  /** Checkpoints this thread ran (each after new writes). */
  checkpoints: number;
  /** The last one's view: frames in the log, and how many of them are in the database file. */
  log: number;
  checkpointed: number;
}

/** What the writing connection keeps as its own threshold: a backstop, well above the thread's. */
export const BACKSTOP_FRAMES = 16_384;

// The thread's code is plain JavaScript, so it runs the same from source and from a build.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
let checkpoints = 0;
// The first tick always checkpoints: writes made before the thread started are not known to it.
let seen;
const tick = () => {
  try {
    // data_version moves when another connection commits: with no new writes, nothing to copy.
    const version = db.pragma('data_version', { simple: true });
    if (version === seen) return;
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    // One that could not copy it all (a reader still needs older frames) is tried again.
    if (r.checkpointed === r.log) seen = version;
    // A writer starting the log over moves data_version before it commits: the log it leaves
    // is empty until then, and there was nothing to copy. Its commit moves the version again.
    if (r.log === 0) return;
    checkpoints++;
    parentPort.postMessage({ checkpoints, log: r.log, checkpointed: r.checkpointed });
  } catch {
    // Busy or locked: the next tick tries again, and the writer's own threshold is the backstop.
  }
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class WalCheckpointer {
  private readonly worker: Worker;
  private latest: CheckpointStats = { checkpoints: 0, log: 0, checkpointed: 0 };
  private readonly exited: Promise<void>;

  constructor(file: string, opts: CheckpointerOptions = {}) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { file, driver, intervalMs: opts.intervalMs ?? 250 },
    });
    // An idle server must be free to exit without closing its store first.
    this.worker.unref();
    this.worker.on('message', (s: CheckpointStats) => (this.latest = s));
    // A thread that failed leaves checkpoints to the writer's own threshold.
    this.worker.on('error', () => undefined);
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  stats(): CheckpointStats {
    return this.latest;
  }

  /** Stops the thread and closes its connection; the writer's close then checkpoints what is left. */
  async close(): Promise<void> {
    // Held open until the thread is gone: a caller awaiting close must not see the process end first.
    this.worker.ref();
    this.worker.postMessage('close');
    await this.exited;
  }
}
