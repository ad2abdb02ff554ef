/**
 * The SQLite index's writes, on a thread of their own with a connection of their own: tokenizing
 * a page's text into FTS5 costs about half a millisecond, which on the main thread slowed a crawl
 * of the PostgreSQL manual by half. The index lives in a file of its own too, so these writes
 * never wait for, or hold up, the store's. Writes that arrive together share a transaction, each
 * in a savepoint, so one that fails fails alone.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { PageText } from './page-text.js';

export type WriteOp =
  | { op: 'upsert'; teamId: string; page: PageText; indexedAt: number }
  | { op: 'remove'; teamId: string; url: string }
  | { op: 'purge'; before: number; max: number };

// Plain JavaScript, so it runs the same from source and from a build.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const find = db.prepare('SELECT id FROM search_pages WHERE team_id = ? AND url = ?');
const dropText = db.prepare('DELETE FROM search_fts WHERE rowid = ?');
const dropPage = db.prepare('DELETE FROM search_pages WHERE id = ?');
const update = db.prepare('UPDATE search_pages SET host = ?, title = ?, description = ?, body = ?, published_at = ?, indexed_at = ? WHERE id = ?');
const insert = db.prepare('INSERT INTO search_pages (team_id, url, host, title, description, body, published_at, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
const insertText = db.prepare('INSERT INTO search_fts (rowid, title, url, headings, description, body) VALUES (?, ?, ?, ?, ?, ?)');
const oldest = db.prepare('SELECT id FROM search_pages WHERE indexed_at < ? ORDER BY indexed_at LIMIT ?');
function run(m) {
  if (m.op === 'upsert') {
    const p = m.page;
    const prev = find.get(m.teamId, p.url);
    let id;
    if (prev) {
      id = prev.id;
      dropText.run(id);
      update.run(p.host, p.title, p.description, p.body, p.publishedAt ?? null, m.indexedAt, id);
    } else {
      id = insert.run(m.teamId, p.url, p.host, p.title, p.description, p.body, p.publishedAt ?? null, m.indexedAt).lastInsertRowid;
    }
    insertText.run(id, p.title, p.urlWords, p.headings, p.description, p.body);
    return null;
  }
  if (m.op === 'remove') {
    const prev = find.get(m.teamId, m.url);
    if (prev) { dropText.run(prev.id); dropPage.run(prev.id); }
    return null;
  }
  const rows = oldest.all(m.before, m.max);
  for (const r of rows) { dropText.run(r.id); dropPage.run(r.id); }
  return rows.length;
}
let queue = [];
let scheduled = false;
function flush() {
  scheduled = false;
  const batch = queue;
  queue = [];
  const results = [];
  try {
    db.transaction(() => {
      for (const m of batch) {
        db.exec('SAVEPOINT unit');
        try {
          results.push({ id: m.id, value: run(m) });
          db.exec('RELEASE unit');
        } catch (e) {
          db.exec('ROLLBACK TO unit');
          db.exec('RELEASE unit');
          results.push({ id: m.id, error: String((e && e.message) || e) });
        }
      }
    })();
  } catch (e) {
    results.length = 0;
    for (const m of batch) results.push({ id: m.id, error: String((e && e.message) || e) });
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
  queue.push(m);
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

export class IndexWriter {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private seq = 0;
  private readonly exited: Promise<void>;

  constructor(file: string) {
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

  write(op: WriteOp): Promise<unknown> {
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ ...op, id });
    });
  }

  async close(): Promise<void> {
    this.worker.ref();
    this.worker.postMessage('close');
    await this.exited;
  }

  private failAll(err: Error): void {
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}
