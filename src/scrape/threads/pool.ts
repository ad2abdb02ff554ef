/**
 * Runs the transform, and plain HTTP fetches, off the main thread. Extraction and markdown are the
 * CPU-heavy part of a scrape; on the main thread they stall every other request (and a crawl's own
 * fetches), so with spare cores they go to a small pool of page threads. A thread started with
 * HTTP settings also fetches, and transforms what it fetched where it stands: the main thread,
 * which stores and queues a crawl's pages, then spends nothing on sockets, decoding, or handing
 * the page to a thread. With no threads configured the transform runs inline, which is also what
 * a one-core machine should do.
 *
 * The pool is a few lines of its own rather than a general-purpose one: a transform is one message
 * each way, and a general pool's per-task bookkeeping (async resources, abort wiring, wake-up
 * counters) cost about three times the message itself (measured: some 80 µs of CPU per task
 * against 25), on every page of a crawl.
 */
import { Buffer } from 'node:buffer';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../../errors.js';
import { transformPage } from '../../transform/index.js';
import type { FetchResult, TransformOptions, TransformResult, TransformWants } from '../types.js';
import { fromThreadError, type ThreadFetchRequest, type ThreadHttpSettings, type ThreadReply, type ThreadRequest } from './messages.js';

export interface Transformer {
  transform(html: string, opts: TransformOptions, wants: TransformWants): Promise<TransformResult>;
  close(): Promise<void>;
}

/** Page threads that fetch as well (see ThreadedHttpEngine). */
export interface FetchingThreads extends Transformer {
  fetch(req: ThreadFetchRequest, signal?: AbortSignal): Promise<FetchResult>;
}

export function createTransformer(threads: number): Transformer {
  if (threads <= 0) {
    return {
      transform: (html, opts, wants) => Promise.resolve(transformPage(html, opts, wants)),
      close: () => Promise.resolve(),
    };
  }
  return new PageThreads(threads);
}

/** Threads that fetch and transform; undefined when there are no threads to give the work to. */
export function createFetchingThreads(threads: number, http: ThreadHttpSettings): FetchingThreads | undefined {
  return threads > 0 ? new PageThreads(threads, http) : undefined;
}

interface Waiter {
  resolve(r: unknown): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  waiting: Map<number, Waiter>;
  /** Whether the thread ever answered: one that dies before that is not restarted on the spot. */
  answered: boolean;
}

class PageThreads implements FetchingThreads {
  private readonly slots: Slot[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly threads: number,
    private readonly http?: ThreadHttpSettings,
  ) {
    for (let i = 0; i < threads; i++) this.slots.push(this.start());
  }

  transform(html: string, opts: TransformOptions, wants: TransformWants): Promise<TransformResult> {
    return this.send((id) => ({ kind: 'transform', id, html, opts, wants }));
  }

  async fetch(req: ThreadFetchRequest, signal?: AbortSignal): Promise<FetchResult> {
    if (signal?.aborted) throw new ApiError('SCRAPE_TIMEOUT', { message: 'Scrape was cancelled' });
    let slot: Slot | undefined;
    let id = 0;
    const onAbort = () => slot?.worker.postMessage({ kind: 'abort', id } satisfies ThreadRequest);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await this.send<FetchResult>((n, s) => {
        id = n;
        slot = s;
        return { kind: 'fetch', id: n, req };
      });
      // A Buffer arrives as a plain Uint8Array over the same bytes.
      result.body = Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
      return result;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private send<T>(message: (id: number, slot: Slot) => ThreadRequest): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The page threads are closed'));
    // Threads that died before ever answering come back one page at a time, not in a loop.
    if (this.slots.length < this.threads) this.slots.push(this.start());
    // The least busy thread; its message queue holds what it cannot start yet.
    let slot = this.slots[0]!;
    for (const s of this.slots) if (s.waiting.size < slot.waiting.size) slot = s;
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      // First, as it throws for what cannot be copied to a thread; the answer comes later.
      slot.worker.postMessage(message(id, slot));
      // A thread with work keeps the process alive; an idle one must not.
      if (slot.waiting.size === 0) slot.worker.ref();
      slot.waiting.set(id, { resolve: resolve as (r: unknown) => void, reject });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
    for (const s of slots) failAll(s, new Error('The page threads closed before the page was done'));
  }

  private start(): Slot {
    const options = { workerData: this.http };
    const worker = fromSource ? new Worker(sourceEntry(), { ...options, eval: true }) : new Worker(new URL('./worker.js', import.meta.url), options);
    worker.unref();
    const slot: Slot = { worker, waiting: new Map(), answered: false };
    worker.on('message', (m: ThreadReply) => {
      slot.answered = true;
      const waiter = slot.waiting.get(m.id);
      if (!waiter) return;
      slot.waiting.delete(m.id);
      if (slot.waiting.size === 0) worker.unref();
      if ('error' in m) waiter.reject(fromThreadError(m.error));
      else waiter.resolve(m.result);
    });
    const lost = (e: Error) => this.replace(slot, e);
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`A page thread stopped (exit code ${code})`)));
    return slot;
  }

  /**
   * A thread that died takes only its own pages with it; a new one takes its place, at once if
   * the dead one had worked, else with the next page (a thread that cannot even start must not
   * be restarted in a tight loop).
   */
  private replace(slot: Slot, e: Error): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    if (this.closed || !slot.answered) this.slots.splice(i, 1);
    else this.slots[i] = this.start();
    failAll(slot, e);
  }
}

const fromSource = import.meta.url.endsWith('.ts');

/**
 * Built code runs worker.js. Source runs (tests, benches) need worker.ts compiled on the fly, and
 * a thread's entry cannot be TypeScript even with tsx preloaded, so the entry registers tsx first.
 */
function sourceEntry(): string {
  const tsx = import.meta.resolve('tsx/esm/api');
  const worker = new URL('./worker.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(worker)}); });`;
}

function failAll(slot: Slot, e: Error): void {
  for (const w of slot.waiting.values()) w.reject(e);
  slot.waiting.clear();
}
