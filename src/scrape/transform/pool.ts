/**
 * Runs the transform off the main thread. Extraction and markdown are the CPU-heavy part of a
 * scrape; on the main thread they stall every other request (and a crawl's own fetches), so with
 * spare cores they go to a small pool of worker threads. With no threads configured the call runs
 * inline, which is also what a one-core machine should do.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { TransformOptions, TransformResult, TransformWants } from '../types.js';
import { transformPage } from './index.js';
import type { TransformTask } from './worker.js';

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
  // Built code runs worker.js; source runs (tests, benches) load worker.ts through tsx.
  const fromSource = import.meta.url.endsWith('.ts');
  const pool = new Piscina<TransformTask, TransformResult>({
    filename: fileURLToPath(new URL(fromSource ? './worker.ts' : './worker.js', import.meta.url)),
    minThreads: threads,
    maxThreads: threads,
    // Idle threads stay: starting one costs more than most pages.
    idleTimeout: Number.POSITIVE_INFINITY,
    ...(fromSource ? { execArgv: ['--import', 'tsx'] } : {}),
  });
  return {
    transform: (html, opts, wants) => pool.run({ html, opts, wants }),
    close: () => pool.destroy(),
  };
}
