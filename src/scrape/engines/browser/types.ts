/** The browser engine's public shapes: its options, its requests, its stats and the logger it reports to. */
import type { FetchRequest } from '../../types.js';
import type { SessionContext } from './session-context.js';

export interface BrowserEngineLogger {
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

export interface BrowserEngineOptions {
  executablePath: string;
  /** Browser contexts kept open at most (busy + idle). */
  maxContexts?: number;
  /** A context is closed and replaced after this many fetches, so leaks in it cannot grow. */
  maxUsesPerContext?: number;
  /** Largest main resource kept when the browser downloads it instead of rendering it. */
  maxResponseBytes?: number;
  logger?: BrowserEngineLogger;
}

export interface BrowserEngineStats {
  contextsOpen: number;
  contextsIdle: number;
  pagesOpen: number;
  launched: boolean;
}

/** What only the browser engine reads of a request; other engines ignore it. */
export interface BrowserFetchRequest extends FetchRequest {
  /**
   * `keepAlive`: called after a successful capture with the page, which then leaves the pool
   * and belongs to the callee (who must close it).
   */
  keepPage?: (page: SessionContext) => void;
}
