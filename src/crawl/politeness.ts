/**
 * Per-host politeness: at most N requests in flight to one host for one job, and at least
 * `intervalMs` between the starts of two requests. Waiters are served first come, first served.
 * The gate lives in the worker process; with several workers each keeps its own share.
 */
import { sleep } from '../core/sleep.js';

interface Lane {
  active: number;
  lastStart: number;
  waiters: Array<() => void>;
}

export interface GateLimits {
  concurrency: number;
  intervalMs: number;
}

export class HostGate {
  private readonly lanes = new Map<string, Lane>();

  /** Resolves with a release function once the request may start. */
  async acquire(key: string, limits: GateLimits, signal?: AbortSignal): Promise<() => void> {
    const lane = this.lanes.get(key) ?? { active: 0, lastStart: 0, waiters: [] };
    this.lanes.set(key, lane);
    if (lane.active >= limits.concurrency || lane.waiters.length > 0) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const i = lane.waiters.indexOf(go);
          if (i >= 0) lane.waiters.splice(i, 1);
          reject(signal!.reason ?? new Error('aborted'));
        };
        const go = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        lane.waiters.push(go);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    } else {
      lane.active++;
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = lane.waiters.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next) next();
      else lane.active--;
    };
    const wait = lane.lastStart + limits.intervalMs - Date.now();
    lane.lastStart = Math.max(Date.now(), lane.lastStart + limits.intervalMs);
    if (wait > 0) {
      try {
        await sleep(wait, signal);
      } catch (e) {
        release();
        throw e;
      }
    }
    if (this.lanes.size > 1000) this.prune();
    return release;
  }

  /** Forgets idle lanes whose interval has passed; they would start fresh anyway. */
  private prune(): void {
    const now = Date.now();
    for (const [key, lane] of this.lanes) {
      if (lane.active === 0 && lane.waiters.length === 0 && now - lane.lastStart > 60_000) this.lanes.delete(key);
    }
  }
}
