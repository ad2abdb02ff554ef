/**
 * The job catalog as both queue backends read it: which kind a queued payload is, what a
 * queue's lease is, when a run is stopped, and which failures another attempt may mend.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../errors.js';
import { isRetryable, kindOfPayload, leaseOf, TaskPayloadError, taskItem, tasks, TaskTimeoutError, timedOut } from './catalog.js';
import { runAsKind } from './common.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the job catalog', () => {
  it('tells the kinds of one queue apart by their payloads', () => {
    expect(kindOfPayload('crawl', { kind: 'kickoff', crawlId: 'c' })).toBe(tasks.crawlKickoff);
    expect(kindOfPayload('crawl', { kind: 'page', crawlId: 'c', urlKey: 'k' })).toBe(tasks.crawlPage);
    expect(kindOfPayload('crawl', { kind: 'batch-page', crawlId: 'c', urlKey: 'k' })).toBe(tasks.batchPage);
    expect(kindOfPayload('monitor', { checkId: 'x' })).toBe(tasks.monitorCheck);
    expect(kindOfPayload('crawl', { kind: 'page', crawlId: 'c' })).toBeUndefined();
    expect(kindOfPayload('no-such-queue', {})).toBeUndefined();
  });

  it("gives a queue the longest lease of its kinds, and a queue it does not list none", () => {
    expect(leaseOf('crawl')).toBe(Math.max(tasks.crawlKickoff.leaseMs, tasks.crawlPage.leaseMs, tasks.batchPage.leaseMs));
    expect(leaseOf('no-such-queue')).toBeUndefined();
  });

  it("builds queue items with the kind's attempts and backoff, and refuses a payload of another shape", () => {
    const item = taskItem(tasks.crawlPage, 'team', { kind: 'page', crawlId: 'c', urlKey: 'k' }, { id: 'page.c.k' });
    expect(item).toEqual({ teamId: 'team', data: { kind: 'page', crawlId: 'c', urlKey: 'k' }, opts: { id: 'page.c.k', attempts: tasks.crawlPage.attempts, backoffMs: tasks.crawlPage.backoffMs } });
    expect(() => taskItem(tasks.crawlPage, 'team', { kind: 'page', crawlId: 'c' } as never)).toThrow();
  });

  it("retries what the error catalog calls retryable, and unknown failures; not refusals or bad payloads", () => {
    expect(isRetryable(new ApiError('SCRAPE_TIMEOUT'))).toBe(true);
    expect(isRetryable(new ApiError('SCRAPE_SITE_ERROR'))).toBe(true);
    expect(isRetryable(new ApiError('URL_BLOCKED'))).toBe(false);
    expect(isRetryable(new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR'))).toBe(false);
    expect(isRetryable(new Error('connection reset', { cause: new ApiError('INVALID_URL') }))).toBe(false);
    expect(isRetryable(new Error('connection reset'))).toBe(true);
    expect(isRetryable(new TaskPayloadError('crawl'))).toBe(false);
  });
});

describe('running a job under its kind', () => {
  it('refuses a payload no kind of its queue accepts, without running it', async () => {
    const run = vi.fn(async () => undefined);
    await expect(runAsKind('crawl', { kind: 'page' }, new AbortController().signal, run)).rejects.toBeInstanceOf(TaskPayloadError);
    expect(run).not.toHaveBeenCalled();
  });

  it("aborts the run at its kind's timeout, and says so", async () => {
    vi.useFakeTimers();
    let seen: AbortSignal | undefined;
    const done = runAsKind('monitor', { checkId: 'x' }, new AbortController().signal, (signal) => {
      seen = signal;
      return new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
    });
    const outcome = expect(done).rejects.toBeInstanceOf(TaskTimeoutError);
    await vi.advanceTimersByTimeAsync(tasks.monitorCheck.timeoutMs - 1);
    expect(seen!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(timedOut(seen!)).toBe(true);
  });

  it("passes the queue's own abort (closing) through with its reason", async () => {
    const queue = new AbortController();
    const reason = new Error('closing');
    const done = runAsKind('crawl', { kind: 'kickoff', crawlId: 'c' }, queue.signal, (signal) => new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))));
    queue.abort(reason);
    await expect(done).rejects.toBe(reason);
  });

  it('runs jobs of a queue the catalog does not list as they are', async () => {
    const signal = new AbortController().signal;
    let got: AbortSignal | undefined;
    await runAsKind('no-such-queue', { anything: true }, signal, async (s) => {
      got = s;
    });
    expect(got).toBe(signal);
  });
});
