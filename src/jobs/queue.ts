/**
 * The one queue interface. Two implementations share a test suite: embedded (jobs persisted in
 * the store, processed in this process; a restart resumes them) and distributed (BullMQ on Redis).
 *
 * Delivery is at least once: a job whose worker died is run again once its lease runs out, so
 * handlers must be idempotent (crawl pages are, by their unique keys in the store).
 */

export interface QueueJob<T> {
  /** The id given at `add` (or a generated one). */
  id: string;
  teamId: string;
  data: T;
  /** 1 on the first run, 2 on the first retry... */
  attempt: number;
  /**
   * Whether this is the last attempt. A retryable failure thrown now fails the job for good, so
   * a handler that owns a result (a crawl page) records the failure there instead.
   */
  final: boolean;
}

export interface EnqueueOptions {
  /**
   * Deduplication key: adding a job whose id is still waiting, delayed or active is a no-op.
   * Ids may be reused once the earlier job has finished.
   */
  id?: string;
  /** Run no sooner than this many milliseconds from now. */
  delayMs?: number;
  /**
   * Total runs before the job is given up as failed (default 1: no retry). A failure the error
   * catalog does not call retryable ends the job at once (see jobs/catalog.ts).
   */
  attempts?: number;
  /** Exponential backoff base between attempts (default 1000 ms). */
  backoffMs?: number;
}

export interface EnqueueItem<T> {
  teamId: string;
  data: T;
  opts?: EnqueueOptions;
}

export interface ProcessOptions {
  /** Jobs this process runs at once from this queue. */
  concurrency: number;
  /** Jobs one team may have running at once across all processes; undefined means no cap. */
  teamConcurrency?: (teamId: string) => number;
}

/** What a handler receives besides the job: aborted when the queue closes without draining. */
export type JobHandler<T> = (job: QueueJob<T>, signal: AbortSignal) => Promise<void>;

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export interface JobQueue<T> {
  readonly name: string;
  add(teamId: string, data: T, opts?: EnqueueOptions): Promise<void>;
  addBulk(items: readonly EnqueueItem<T>[]): Promise<void>;
  /** Starts workers in this process. Call at most once per queue object. */
  process(handler: JobHandler<T>, opts: ProcessOptions): void;
  counts(): Promise<QueueCounts>;
  /**
   * Stops taking jobs. Running handlers get `drainMs` to finish; after that their signals abort and
   * their jobs are handed back (left for another worker or the next start), never lost.
   */
  close(drainMs?: number): Promise<void>;
}

/** Makes queues by name; one per process, chosen by configuration. */
export interface QueueFactory {
  readonly kind: 'embedded' | 'distributed';
  queue<T>(name: string): JobQueue<T>;
  close(drainMs?: number): Promise<void>;
}
