/** Target URL checks at the edge of the pipeline. */
import { ApiError } from '../errors.js';

/**
 * Accepts an absolute http(s) URL, or a bare host/path (which gets `http://`, as users type
 * `example.com`). Anything else is a 400 `Invalid URL`.
 */
export function normaliseTargetUrl(raw: string): string {
  const trimmed = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^[^:/]+:\d+(\/|$)/.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw invalid(raw, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(raw, `scheme ${url.protocol} is not http or https`);
  if (!url.hostname) throw invalid(raw, 'no host');
  if (url.username || url.password) throw invalid(raw, 'credentials in URLs are not accepted');
  return url.toString();
}

const invalid = (url: string, reason: string) =>
  new ApiError('INVALID_URL', { details: [{ code: 'invalid_url', path: ['url'], message: `Invalid URL: ${reason}` }] });
