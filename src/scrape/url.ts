/** Target URL checks at the edge of the pipeline. */
import { ApiError } from '../errors.js';

// What a host name can be once the URL parser has lower-cased it and turned an international
// name into punycode: dot-separated labels of letters, digits, hyphens and underscores (some
// real hosts use them). Anything else (`ht!tp`, `a..b`) could never resolve, so it is an
// invalid URL to refuse now, not a DNS failure to discover later.
const HOST_LABEL = /^[a-z0-9_-]{1,63}$/;
const MAX_HOST_LENGTH = 253;

function hostProblem(hostname: string): string | undefined {
  if (!hostname) return 'no host';
  if (hostname.startsWith('[')) return undefined; // IPv6 literal, already checked by the parser
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name.length > MAX_HOST_LENGTH) return 'host name too long';
  if (!name.split('.').every((label) => HOST_LABEL.test(label))) return `host ${hostname} is not a valid host name`;
  return undefined;
}

/**
 * Accepts an absolute http(s) URL, or a bare host/path (which gets `http://`, as users type
 * `example.com`). Anything else is a 400 `Invalid URL`.
 */
export function normaliseTargetUrl(raw: string): string {
  const trimmed = raw.trim();
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^[^:/]+:\d+(\/|$)/.test(trimmed);
  // `ht!tp://x` is a mistyped scheme, not a bare host named `ht!tp`.
  if (!hasScheme && /^[^/?#]*:\/\//.test(trimmed)) throw invalid(raw, 'the scheme is not valid');
  const withScheme = hasScheme ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw invalid(raw, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(raw, `scheme ${url.protocol} is not http or https`);
  const problem = hostProblem(url.hostname);
  if (problem) throw invalid(raw, problem);
  if (url.username || url.password) throw invalid(raw, 'credentials in URLs are not accepted');
  return url.toString();
}

const invalid = (url: string, reason: string) =>
  new ApiError('INVALID_URL', { details: [{ code: 'invalid_url', path: ['url'], message: `Invalid URL: ${reason}` }] });
