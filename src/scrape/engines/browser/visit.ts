/** A visit: everything one fetch knows while it drives its page, and the time it has left. */
import type { Download, Page, Response as PwResponse } from 'playwright-core';
import type { FetchRequest } from '../../types.js';
import type { Lease } from './lease.js';
import type { PooledContext } from './pooled-context.js';

export interface VisitInit {
  req: FetchRequest;
  pc: PooledContext;
  lease: Lease;
  page: Page;
  /** Aborts at the deadline or when the caller cancels. */
  signal: AbortSignal;
  /** `performance.now()` when the fetch began; the deadline counts from here. */
  started: number;
  maxResponseBytes: number;
}

export class Visit {
  readonly req: FetchRequest;
  readonly pc: PooledContext;
  readonly lease: Lease;
  readonly page: Page;
  readonly signal: AbortSignal;
  readonly maxResponseBytes: number;
  /** The main frame's document responses, redirect hops included, as they arrived. */
  readonly navResponses: PwResponse[] = [];
  /** The download the page started, if any; a timeout cancels it from outside. */
  download: Download | undefined;
  private readonly started: number;
  private readonly deadline: number;

  constructor(init: VisitInit) {
    this.req = init.req;
    this.pc = init.pc;
    this.lease = init.lease;
    this.page = init.page;
    this.signal = init.signal;
    this.maxResponseBytes = init.maxResponseBytes;
    this.started = init.started;
    this.deadline = init.started + init.req.timeoutMs;
  }

  remaining(): number {
    return this.deadline - performance.now();
  }

  /** The time left as a Playwright timeout, which must be positive; at most `cap`. */
  timeout(cap = Infinity): number {
    return Math.max(1, Math.min(cap, this.remaining()));
  }

  elapsed(): number {
    return performance.now() - this.started;
  }

  /** The main frame's last document response that was not a redirect. */
  lastDocumentResponse(): PwResponse | undefined {
    for (let i = this.navResponses.length - 1; i >= 0; i--) {
      const r = this.navResponses[i];
      if (r && !r.request().redirectedTo()) return r;
    }
    return undefined;
  }
}
