/** What crosses between the main thread and a page thread. */
import { ApiError, isApiError, type ErrorKey } from '../../errors.js';
import type { FetchResult, FetchTransform, TransformOptions, TransformResult, TransformWants } from '../types.js';

/** Settings a thread needs to fetch; absent, it only transforms. */
export interface ThreadHttpSettings {
  allowedCidrs: string[];
  maxResponseBytes: number;
}

/** What a thread can fetch: a FetchRequest without what cannot cross threads (guard, signal). */
export interface ThreadFetchRequest {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  skipTlsVerification: boolean;
  proxyUrl?: string;
  transform?: FetchTransform;
}

export type ThreadRequest =
  | { kind: 'transform'; id: number; html: string; opts: TransformOptions; wants: TransformWants }
  | { kind: 'fetch'; id: number; req: ThreadFetchRequest }
  | { kind: 'abort'; id: number };

/** An error as it crosses threads: catalog errors keep their key, others their message. */
export type ThreadError = { key: ErrorKey; message: string; details: unknown } | { message: string; stack?: string | undefined };

export type ThreadReply = { id: number; result: TransformResult | FetchResult } | { id: number; error: ThreadError };

export function toThreadError(e: unknown): ThreadError {
  if (isApiError(e)) return { key: e.key, message: e.message, details: e.details };
  const err = e instanceof Error ? e : new Error(String(e));
  return { message: err.message, stack: err.stack };
}

export function fromThreadError(e: ThreadError): Error {
  if ('key' in e) return new ApiError(e.key, { message: e.message, ...(e.details !== undefined ? { details: e.details } : {}) });
  const err = new Error(e.message);
  if (e.stack) err.stack = e.stack;
  return err;
}
