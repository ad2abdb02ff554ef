/**
 * PDF page threads: a long document's pages are read in parallel, each thread opening the
 * document and reading a run of consecutive pages, and the request's thread reading the first
 * run itself. Reading the text layer is nearly all of a text-layer PDF's cost and a page needs
 * little from the pages before it (font weights already seen, whether a ruled table goes on),
 * so the runs are independent but for a seam the caller mends (see parsePdf).
 *
 * A run is worth a thread only when it is a few pages long: each thread parses the document's
 * cross-reference table and the fonts of its pages again.
 */
import { Worker } from 'node:worker_threads';
import type { PagesRead } from './read.js';

export interface ThreadTask {
  id: number;
  bytes: Uint8Array;
  first: number;
  last: number;
  deadline: number;
  afterRuled: boolean;
}

export type ThreadAnswer = { id: number; read: PagesRead } | { id: number; error: string };

/** Fewer pages than this in a run and the thread's start costs more than it saves. */
export const MIN_PAGES_PER_RUN = 3;

interface Waiter {
  resolve(r: PagesRead): void;
  reject(e: Error): void;
}

export class PdfThreads {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, Waiter>();
  private nextId = 0;
  private turn = 0;

  /** `size` threads, started on first use. */
  constructor(readonly size: number) {}

  /** Pages `first`..`last` of the document, read on a thread; rejects if the thread fails. */
  read(bytes: Uint8Array, first: number, last: number, deadline: number): Promise<PagesRead> {
    const worker = this.worker();
    const id = ++this.nextId;
    return new Promise<PagesRead>((resolve, reject) => {
      worker.postMessage({ id, bytes, first, last, deadline, afterRuled: false } satisfies ThreadTask);
      worker.ref();
      this.waiting.set(id, { resolve, reject });
    });
  }

  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
    this.failAll(new Error('The PDF threads closed'));
  }

  private worker(): Worker {
    if (this.workers.length < this.size) this.workers.push(this.start());
    return this.workers[this.turn++ % this.workers.length]!;
  }

  private start(): Worker {
    const worker = fromSource ? new Worker(sourceEntry(), { eval: true }) : new Worker(new URL('./thread.js', import.meta.url));
    // An idle thread must not keep the process alive.
    worker.unref();
    worker.on('message', (m: ThreadAnswer) => {
      const waiter = this.waiting.get(m.id);
      if (!waiter) return;
      this.waiting.delete(m.id);
      if (this.waiting.size === 0) for (const w of this.workers) w.unref();
      if ('error' in m) waiter.reject(new Error(m.error));
      else waiter.resolve(m.read);
    });
    const lost = (e: Error) => {
      const i = this.workers.indexOf(worker);
      if (i >= 0) this.workers.splice(i, 1);
      // The runs in flight on any thread are read again by the caller; simplest is to fail them all.
      this.failAll(e);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`A PDF thread stopped (exit code ${code})`)));
    return worker;
  }

  private failAll(e: Error): void {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }
}

const fromSource = import.meta.url.endsWith('.ts');

/** Source runs (tests, benches) compile thread.ts on the fly: the entry registers tsx first. */
function sourceEntry(): string {
  const tsx = import.meta.resolve('tsx/esm/api');
  const thread = new URL('./thread.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(thread)}); });`;
}
