/**
 * The plain HTTP engine run on the page threads (src/scrape/threads): the same HttpEngine, with
 * the same guard policy, one thread away. A request that says how its page will be transformed
 * gets the transform back with the page.
 */
import type { FetchingThreads } from '../threads/pool.js';
import type { Engine, FetchRequest, FetchResult, UrlGuard } from '../types.js';

/**
 * For requests whose guard is not the one the threads enforce (a team's threat rules): the
 * same engine on this thread, where that guard can see the first hop and every redirect.
 */
export interface InlineFallback {
  shared: UrlGuard;
  engine: Engine;
}

export class ThreadedHttpEngine implements Engine {
  readonly name = 'http' as const;

  /**
   * The threads check every address against the policy they were started with, which must be
   * the one behind every request's `guard` (the runtime's): a guard cannot cross threads.
   */
  constructor(
    private readonly threads: FetchingThreads,
    private readonly inline?: InlineFallback,
  ) {}

  fetch(req: FetchRequest): Promise<FetchResult> {
    if (this.inline && req.guard !== this.inline.shared) return this.inline.engine.fetch(req);
    return this.threads.fetch(
      {
        url: req.url,
        headers: req.headers,
        timeoutMs: req.timeoutMs,
        skipTlsVerification: req.skipTlsVerification,
        ...(req.proxyUrl ? { proxyUrl: req.proxyUrl } : {}),
        ...(req.transform ? { transform: req.transform } : {}),
      },
      req.signal,
    );
  }

  /** The threads belong to the runtime, which closes them; the inline engine is this one's. */
  async close(): Promise<void> {
    await this.inline?.engine.close();
  }
}
