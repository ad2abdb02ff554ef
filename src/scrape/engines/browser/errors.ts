/** Maps what goes wrong in Chromium, Playwright and the guard proxy onto the error catalog. */
import { ApiError, isApiError } from '../../../errors.js';
import { authority, stripBrackets } from './hosts.js';
import { isPlaywrightTimeout } from './playwright.js';

/** The `net::ERR_*` code in a Chromium navigation failure, without the prefix. */
export function netErrorCode(e: unknown): string | undefined {
  return /net::(ERR_[A-Z0-9_]+)/.exec(String((e as Error | undefined)?.message ?? ''))?.[1];
}

/** Maps Playwright and Chromium failures onto the error catalog. */
export function toBrowserError(e: unknown): ApiError {
  if (isApiError(e)) return e;
  if (isPlaywrightTimeout(e)) return new ApiError('SCRAPE_TIMEOUT');
  const code = netErrorCode(e);
  if (code) {
    if (code === 'ERR_NAME_NOT_RESOLVED' || code === 'ERR_NAME_RESOLUTION_FAILED') {
      return new ApiError('SCRAPE_DNS_RESOLUTION_ERROR', { message: `DNS resolution failed (net::${code})` });
    }
    if (/^ERR_(CERT_|SSL_|BAD_SSL_)/.test(code)) return new ApiError('SCRAPE_SSL_ERROR', { message: `TLS error: net::${code}` });
    if (code === 'ERR_TIMED_OUT' || code === 'ERR_CONNECTION_TIMED_OUT') return new ApiError('SCRAPE_TIMEOUT');
    return new ApiError('SCRAPE_SITE_ERROR', { message: `Navigation failed: net::${code}` });
  }
  const message = String((e as Error | undefined)?.message ?? e).split('\n')[0] ?? '';
  if (/has been closed|crash/i.test(message)) {
    return new ApiError('SCRAPE_SITE_ERROR', { message: 'The browser page crashed or was closed', cause: e });
  }
  return new ApiError('SCRAPE_SITE_ERROR', { message: `Browser fetch failed: ${message}`, cause: e });
}

/** Why the guard proxy could not reach `host:port`, for the fetch whose page only sees a 502. */
export function connectError(host: string, port: number, e: unknown): ApiError {
  if (isApiError(e)) return e;
  const code = (e as { code?: string } | undefined)?.code;
  const detail = code ?? (e as Error | undefined)?.message ?? String(e);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new ApiError('SCRAPE_DNS_RESOLUTION_ERROR', { message: `DNS resolution failed for ${stripBrackets(host)}`, cause: e });
  }
  return new ApiError('SCRAPE_SITE_ERROR', { message: `Could not connect to ${authority(host, port)}: ${detail}`, cause: e });
}

export const closedError = (): ApiError => new ApiError('SERVICE_UNAVAILABLE', { message: 'The browser engine is shut down' });

export const schemeNotAllowed = (scheme: string, url: string): ApiError =>
  new ApiError('URL_BLOCKED', { message: `Scheme ${scheme} is not allowed`, details: { url } });
