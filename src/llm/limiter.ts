/**
 * At most N model calls in flight per team: one team's crawl with a json format cannot take
 * every slot of a shared model server. A wait ends at the caller's deadline.
 */
import { ModelUnavailableError } from './types.js';

export class TeamLimiter {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly perTeam: number) {}

  async run<T>(teamId: string, deadline: number, work: () => Promise<T>): Promise<T> {
    await this.acquire(teamId, deadline);
    try {
      return await work();
    } finally {
      this.release(teamId);
    }
  }

  private acquire(teamId: string, deadline: number): Promise<void> {
    const n = this.active.get(teamId) ?? 0;
    if (n < this.perTeam) {
      this.active.set(teamId, n + 1);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(teamId) ?? [];
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const i = queue.indexOf(wake);
        if (i >= 0) queue.splice(i, 1);
        reject(new ModelUnavailableError('Timed out waiting for a free model slot for this team (MODEL_CONCURRENCY)', 'timeout'));
      }, Math.max(0, deadline - Date.now()));
      queue.push(wake);
      this.waiting.set(teamId, queue);
    });
  }

  private release(teamId: string): void {
    const next = this.waiting.get(teamId)?.shift();
    // The slot passes straight to the next waiter; the count stays as it is.
    if (next) return next();
    const n = (this.active.get(teamId) ?? 1) - 1;
    if (n <= 0) this.active.delete(teamId);
    else this.active.set(teamId, n);
  }
}
