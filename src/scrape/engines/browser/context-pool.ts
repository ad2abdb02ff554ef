/**
 * The context pool: at most `maxContexts` browser contexts (busy + idle), each reused only for
 * fetches with the same emulation and retired after `maxUses` fetches. Fetches that find no
 * room wait in line; when the pool is full, the least recently used idle context makes room.
 */
import type { Browser, Page } from 'playwright-core';
import { ChromiumProcess } from './chromium-process.js';
import type { Emulation } from './emulation.js';
import { closedError } from './errors.js';
import { closeContext, closePages, openContext, resetContext, type PooledContext } from './pooled-context.js';
import type { BrowserEngineLogger, BrowserEngineStats } from './types.js';

interface Waiter {
  emulation: Emulation;
  resolve(pc: PooledContext): void;
  reject(e: unknown): void;
  detach(): void;
}

export interface ContextPoolOptions {
  executablePath: string;
  maxContexts: number;
  maxUses: number;
  logger: BrowserEngineLogger | undefined;
}

export class ContextPool {
  private readonly maxContexts: number;
  private readonly maxUses: number;
  private readonly log: BrowserEngineLogger | undefined;
  private readonly chromium: ChromiumProcess;
  private readonly contexts = new Set<PooledContext>();
  private idle: PooledContext[] = [];
  private creating = 0;
  private waiters: Waiter[] = [];
  private readonly pendingCloses = new Set<Promise<void>>();
  private stopped = false;
  private closing: Promise<void> | undefined;

  constructor(opts: ContextPoolOptions) {
    this.maxContexts = opts.maxContexts;
    this.maxUses = opts.maxUses;
    this.log = opts.logger;
    this.chromium = new ChromiumProcess(opts.executablePath, opts.logger, (browser) => this.onDisconnected(browser));
  }

  get closed(): boolean {
    return this.stopped;
  }

  stats(): BrowserEngineStats {
    let pagesOpen = 0;
    for (const pc of this.contexts) pagesOpen += pc.context.pages().length;
    return { contextsOpen: this.contexts.size, contextsIdle: this.idle.length, pagesOpen, launched: this.chromium.running };
  }

  /** The pool's Chromium, for contexts that live outside the pool (interactive sessions). */
  browser(): Promise<Browser> {
    return this.chromium.get();
  }

  acquire(em: Emulation, signal: AbortSignal): Promise<PooledContext> {
    if (this.closed) return Promise.reject(closedError());
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.waiters.length === 0) {
      const idle = this.takeIdle(em.key);
      if (idle) return Promise.resolve(idle);
      if (this.reserveSlot()) return this.createContext(em);
    }
    return new Promise<PooledContext>((resolve, reject) => {
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(signal.reason);
      };
      const waiter: Waiter = { emulation: em, resolve, reject, detach: () => signal.removeEventListener('abort', onAbort) };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Takes a context back from a fetch, reset for the next one, or closed if it cannot be. */
  async release(pc: PooledContext, page: Page | undefined, documentOrigins: ReadonlySet<string>, healthy: boolean): Promise<void> {
    let reusable = healthy && pc.state === 'busy';
    if (reusable) {
      try {
        await resetContext(pc, page, documentOrigins);
      } catch (e) {
        this.log?.warn({ err: e }, 'browser context reset failed; replacing it');
        reusable = false;
      }
    }
    // Close what the fetch opened before handing back; the context itself goes away too.
    if (!reusable) await closePages(pc);
    pc.proxy.lease = undefined;
    if (pc.state === 'busy') {
      if (!reusable || this.closed || pc.uses >= this.maxUses || !pc.browser.isConnected()) this.discard(pc);
      else {
        pc.state = 'idle';
        this.idle.push(pc);
      }
    }
    this.pump();
  }

  /**
   * Gives a busy context away for good (a page kept open after its scrape). Its slot opens at
   * once, so the pool makes a replacement on the next fetch that needs one and keeps its size;
   * the context's new owner closes it. False when the context is no longer the fetch's to give.
   */
  detach(pc: PooledContext): boolean {
    if (pc.state !== 'busy' || this.closed) return false;
    pc.state = 'kept';
    this.contexts.delete(pc);
    this.pump();
    return true;
  }

  discard(pc: PooledContext): void {
    if (pc.state === 'closed') return;
    pc.state = 'closed';
    pc.proxy.lease = undefined;
    this.contexts.delete(pc);
    this.idle = this.idle.filter((p) => p !== pc);
    const closing = closeContext(pc);
    this.pendingCloses.add(closing);
    void closing.finally(() => this.pendingCloses.delete(closing));
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private takeIdle(key: string): PooledContext | undefined {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const pc = this.idle[i];
      if (!pc || pc.emulation.key !== key) continue;
      this.idle.splice(i, 1);
      if (!pc.browser.isConnected()) {
        this.discard(pc);
        continue;
      }
      pc.state = 'busy';
      pc.uses++;
      return pc;
    }
    return undefined;
  }

  /** Claims room for one more context, evicting the least recently used idle one if full. */
  private reserveSlot(): boolean {
    if (this.contexts.size + this.creating < this.maxContexts) {
      this.creating++;
      return true;
    }
    const victim = this.idle.shift();
    if (!victim) return false;
    this.discard(victim);
    this.creating++;
    return true;
  }

  private async createContext(em: Emulation): Promise<PooledContext> {
    let ok = false;
    try {
      const pc = await openContext(await this.chromium.get(), em);
      if (this.closed) {
        void closeContext(pc);
        throw closedError();
      }
      this.contexts.add(pc);
      ok = true;
      return pc;
    } finally {
      this.creating--;
      if (!ok) this.pump();
    }
  }

  /** Hands freed capacity to queued fetches, oldest first. */
  private pump(): void {
    while (this.waiters.length > 0 && !this.closed) {
      const waiter = this.waiters[0];
      if (!waiter) break;
      const idle = this.takeIdle(waiter.emulation.key);
      if (idle) {
        this.waiters.shift();
        waiter.detach();
        waiter.resolve(idle);
        continue;
      }
      if (!this.reserveSlot()) break;
      this.waiters.shift();
      waiter.detach();
      this.createContext(waiter.emulation).then(waiter.resolve, waiter.reject);
    }
  }

  private onDisconnected(browser: Browser): void {
    for (const pc of [...this.idle]) if (pc.browser === browser) this.discard(pc);
    this.pump();
  }

  private async shutdown(): Promise<void> {
    this.stopped = true;
    this.chromium.refuseLaunches();
    for (const w of this.waiters.splice(0)) {
      w.detach();
      w.reject(closedError());
    }
    for (const pc of [...this.contexts]) this.discard(pc);
    await Promise.allSettled([...this.pendingCloses]);
    await this.chromium.close();
  }
}
