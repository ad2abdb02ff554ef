/**
 * The SQLite index's writes, on a thread of their own with a connection of their own: tokenizing
 * a page's text into FTS5 costs about half a millisecond, which on the main thread slowed a crawl
 * of the PostgreSQL manual by half. The index lives in a file of its own too, so these writes
 * never wait for, or hold up, the store's.
 *
 * Pages and removals are buffered and sent in batches (every FLUSH_MS, or FLUSH_AT writes), each
 * batch one transaction; a batch that fails is written again write by write, so one that fails
 * fails alone. A crawl's pages thus reach the thread in few messages and few commits (FTS5 writes
 * a segment per commit: on the PostgreSQL manual's text, 0.13 ms a page in commits of 256, 0.15
 * in 64, 0.18 in 16). A crash loses the buffered writes, which the next fetch of those pages
 * makes again; reads call `settle` first, so a page is found as soon as its scrape has answered.
 * A page whose text is unchanged since it was indexed (same hash) only has its date renewed, not
 * its text tokenized again; a `renew` does only that, for a page its caller knows unchanged
 * (sqlite-index.ts).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { PageText } from './page-text.js';

export type WriteOp =
  | { op: 'upsert'; teamId: string; page: PageText; indexedAt: number; sourceHash?: string }
  /** Renews the date of the page if it still holds the source with this hash. */
  | { op: 'renew'; teamId: string; url: string; sourceHash: string; indexedAt: number }
  | { op: 'remove'; teamId: string; url: string }
  | { op: 'purge'; before: number; max: number }
  /** Does nothing: answered once every write sent before it is done. */
  | { op: 'settle' };

/** How long a buffered write may wait, and how many make a batch that goes at once. */
export const FLUSH_MS = 500;
export const FLUSH_AT = 256;

// Plain JavaScript, so it runs the same from source and from a build.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
// 8 MB of page cache rather than 2: FTS5's segment merges reread what the last batches wrote.
db.pragma('cache_size = -8000');
const find = db.prepare('SELECT id, text_hash FROM search_pages WHERE team_id = ? AND url = ?');
const touch = db.prepare('UPDATE search_pages SET indexed_at = ?, source_hash = ? WHERE id = ?');
const renew = db.prepare('UPDATE search_pages SET indexed_at = ? WHERE team_id = ? AND url = ? AND source_hash = ?');
const dropText = db.prepare('DELETE FROM search_fts WHERE rowid = ?');
const dropPage = db.prepare('DELETE FROM search_pages WHERE id = ?');
const update = db.prepare('UPDATE search_pages SET host = ?, title = ?, description = ?, body = CAST(? AS TEXT), published_at = ?, indexed_at = ?, text_hash = ?, source_hash = ? WHERE id = ?');
const insert = db.prepare('INSERT INTO search_pages (team_id, url, host, title, description, body, published_at, indexed_at, text_hash, source_hash) VALUES (?, ?, ?, ?, ?, CAST(? AS TEXT), ?, ?, ?, ?)');
const insertText = db.prepare('INSERT INTO search_fts (rowid, title, url, headings, description, body) VALUES (?, ?, ?, ?, ?, CAST(? AS TEXT))');
const oldest = db.prepare('SELECT id FROM search_pages WHERE indexed_at < ? ORDER BY indexed_at LIMIT ?');
// Prepared once: parsing these again for every write cost as much as a renewal itself.
const savepoint = db.prepare('SAVEPOINT unit');
const release = db.prepare('RELEASE unit');
const rollback = db.prepare('ROLLBACK TO unit');
function run(m) {
  if (m.op === 'renew') {
    renew.run(m.indexedAt, m.teamId, m.url, m.sourceHash);
    return null;
  }
  if (m.op === 'upsert') {
    const p = m.page;
    const prev = find.get(m.teamId, p.url);
    const source = m.sourceHash ?? null;
    // The text's hash spares a page held already from being tokenized again when only its source
    // changed. A new page with a source hash goes without one (a later change of source then
    // tokenizes it again): hashing its text cost a tenth of the write.
    const hash = prev || !source ? createHash('sha1').update(JSON.stringify([p.host, p.title, p.description, p.headings, p.urlWords, p.publishedAt ?? null])).update(p.body).digest('base64') : null;
    let id;
    if (prev && prev.text_hash === hash) {
      touch.run(m.indexedAt, source, prev.id);
      return null;
    }
    if (prev) {
      id = prev.id;
      dropText.run(id);
      update.run(p.host, p.title, p.description, p.body, p.publishedAt ?? null, m.indexedAt, hash, source, id);
    } else {
      id = insert.run(m.teamId, p.url, p.host, p.title, p.description, p.body, p.publishedAt ?? null, m.indexedAt, hash, source).lastInsertRowid;
    }
    insertText.run(id, p.title, p.urlWords, p.headings, p.description, p.body);
    return null;
  }
  if (m.op === 'remove') {
    const prev = find.get(m.teamId, m.url);
    if (prev) { dropText.run(prev.id); dropPage.run(prev.id); }
    return null;
  }
  if (m.op === 'settle') return null;
  const rows = oldest.all(m.before, m.max);
  for (const r of rows) { dropText.run(r.id); dropPage.run(r.id); }
  return rows.length;
}
let queue = [];
let scheduled = false;
// The whole batch in one transaction. FTS5 writes out the terms it holds at every savepoint, so a
// savepoint per write made each page a segment of its own and cost as much as the rest of the
// write; only when the batch fails is it run again write by write, each in its own savepoint,
// so that one that fails fails alone.
const all = db.transaction((batch) => batch.map((m) => ({ id: m.id, value: run(m) })));
const each = db.transaction((batch) => batch.map((m) => {
  savepoint.run();
  try {
    const value = run(m);
    release.run();
    return { id: m.id, value };
  } catch (e) {
    rollback.run();
    release.run();
    return { id: m.id, error: String((e && e.message) || e) };
  }
}));
function flush() {
  scheduled = false;
  const batch = queue;
  queue = [];
  let results;
  try {
    results = all(batch);
  } catch {
    try {
      results = each(batch);
    } catch (e) {
      results = batch.map((m) => ({ id: m.id, error: String((e && e.message) || e) }));
    }
  }
  parentPort.postMessage(results);
}
parentPort.on('message', (m) => {
  if (m === 'close') {
    if (queue.length) flush();
    db.close();
    parentPort.close();
    return;
  }
  for (const op of m) queue.push(op);
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
});
`;

interface Waiting {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

type Upsert = Extract<WriteOp, { op: 'upsert' }>;

/**
 * A write as it goes to the thread: a page's body as UTF-8 bytes, handed over rather than copied.
 * Sent as a string, the body was copied into the message and read back into a string on the
 * thread, and a batch's strings stayed on the main heap until it went. On a crawl of the
 * PostgreSQL manual the main thread then spent 548 µs a page and V8's helper threads 164; with
 * the bytes handed over, 527 and 142.
 */
type Sent = (Exclude<WriteOp, Upsert> | (Omit<Upsert, 'page'> & { page: Omit<PageText, 'body'> & { body: Uint8Array } })) & { id: number };

const utf8 = new TextEncoder();

export class IndexWriter {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private pending: Sent[] = [];
  private transfer: ArrayBuffer[] = [];
  private timer: NodeJS.Timeout | undefined;
  private seq = 0;
  private readonly exited: Promise<void>;

  /** `onError` hears of buffered writes that failed: their callers were answered already. */
  constructor(
    file: string,
    private readonly onError: (err: Error) => void = () => {},
  ) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { file, driver } });
    // Held only while a write is waiting: an idle process may exit without closing the index.
    this.worker.unref();
    this.worker.on('message', (results: Array<{ id: number; value?: unknown; error?: string }>) => {
      for (const r of results) {
        const w = this.waiting.get(r.id);
        this.waiting.delete(r.id);
        if (r.error !== undefined) w?.reject(new Error(r.error));
        else w?.resolve(r.value);
      }
      if (this.waiting.size === 0) this.worker.unref();
    });
    this.worker.on('error', (err) => this.failAll(err));
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', () => {
        this.failAll(new Error('the search index writer stopped'));
        resolve();
      }),
    );
  }

  /**
   * Buffers a write; it reaches the index within FLUSH_MS. Resolves once it is done or has
   * failed (failures go to `onError`).
   */
  buffer(op: WriteOp): Promise<void> {
    const done = this.enqueue(op).then(
      () => undefined,
      (err: Error) => this.onError(err),
    );
    if (this.pending.length >= FLUSH_AT) this.send();
    else this.timer ??= setTimeout(() => this.send(), FLUSH_MS);
    return done;
  }

  /** Writes now, with whatever is buffered before it, and answers with the write's result. */
  write(op: WriteOp): Promise<unknown> {
    const done = this.enqueue(op);
    this.send();
    return done;
  }

  /** Resolves once every write made so far is in the index (at once when none is on its way). */
  async settle(): Promise<void> {
    if (this.waiting.size === 0) return;
    await this.write({ op: 'settle' });
  }

  async close(): Promise<void> {
    this.send();
    this.worker.ref();
    this.worker.postMessage('close');
    await this.exited;
  }

  private enqueue(op: WriteOp): Promise<unknown> {
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      if (op.op === 'upsert') {
        const body = utf8.encode(op.page.body);
        this.transfer.push(body.buffer as ArrayBuffer);
        this.pending.push({ ...op, page: { ...op.page, body }, id });
      } else {
        this.pending.push({ ...op, id });
      }
    });
  }

  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    const transfer = this.transfer;
    this.pending = [];
    this.transfer = [];
    this.worker.ref();
    this.worker.postMessage(batch, transfer);
  }

  private failAll(err: Error): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.transfer = [];
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}
