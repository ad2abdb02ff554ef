/**
 * Runs the transform off the main thread. Extraction and markdown are the CPU-heavy part of a
 * scrape; on the main thread they stall every other request (and a crawl's own fetches), so with
 * spare cores they go to a small pool of worker threads. With no threads configured the call runs
 * inline, which is also what a one-core machine should do.
 *
 * The pool is a few lines of its own rather than a general-purpose one: a transform is one message
 * each way, and a general pool's per-task bookkeeping (async resources, abort wiring, wake-up
 * counters) cost about three times the message itself (measured: some 80 µs of CPU per task
 * against 25), on every page of a crawl.
 */
import { Worker } from 'node:worker_threads';
import type { TransformOptions, TransformResult, TransformWants } from '../types.js';
import { transformPage } from './index.js';
import type { TransformReply, TransformRequest } from './worker.js';

export interface Transformer {
  transform(html: string, opts: TransformOptions, wants: TransformWants): Promise<TransformResult>;
  close(): Promise<void>;
}

export function createTransformer(threads: number): Transformer {
  if (threads <= 0) {
    return {
      transform: (html, opts, wants) => Promise.resolve(transformPage(html, opts, wants)),
      close: () => Promise.resolve(),
    };
  }
  return new TransformPool(threads);
}

interface Waiter {
  resolve(r: TransformResult): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  waiting: Map<number, Waiter>;
  /** Whether the thread ever answered: one that dies before that is not restarted on the spot. */
  answered: boolean;
}

class TransformPool implements Transformer {
  private readonly slots: Slot[] = [];
  private nextId = 0;
  private closed = false;

  constructor(private readonly threads: number) {
    for (let i = 0; i < threads; i++) this.slots.push(this.start());
  }

  transform(html: string, opts: TransformOptions, wants: TransformWants): Promise<TransformResult> {
    if (this.closed) return Promise.reject(new Error('The transform pool is closed'));
    // Threads that died before ever answering come back one page at a time, not in a loop.
    if (this.slots.length < this.threads) this.slots.push(this.start());
    // The least busy thread; its message queue holds what it cannot start yet.
    let slot = this.slots[0]!;
    for (const s of this.slots) if (s.waiting.size < slot.waiting.size) slot = s;
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      // First, as it throws for what cannot be copied to a thread; the answer comes later.
      slot.worker.postMessage({ id, html, opts, wants } satisfies TransformRequest);
      // A thread with work keeps the process alive; an idle one must not.
      if (slot.waiting.size === 0) slot.worker.ref();
      slot.waiting.set(id, { resolve, reject });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
    for (const s of slots) failAll(s, new Error('The transform pool closed before the page was transformed'));
  }

  private start(): Slot {
    const worker = fromSource ? new Worker(sourceEntry(), { eval: true }) : new Worker(new URL('./worker.js', import.meta.url));
    worker.unref();
    const slot: Slot = { worker, waiting: new Map(), answered: false };
    worker.on('message', (m: TransformReply) => {
      slot.answered = true;
      const waiter = slot.waiting.get(m.id);
      if (!waiter) return;
      slot.waiting.delete(m.id);
      if (slot.waiting.size === 0) worker.unref();
      if ('error' in m) waiter.reject(m.error);
      else waiter.resolve(m.result);
    });
    const lost = (e: Error) => this.replace(slot, e);
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`A transform thread stopped (exit code ${code})`)));
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
