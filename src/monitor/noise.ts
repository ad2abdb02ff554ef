/**
 * Noise rules: what may differ between two fetches of a page without counting as a change.
 * Both versions are rewritten with the same masks before their hashes are compared, so a page
 * whose only difference is a clock, a rotating token or a cache-busting link is "same".
 *
 * 1. Times of day and date-times: `2025-01-02T10:11:12Z`, `10:11`, `10:11:12 pm`, and RFC 1123
 *    dates (`Thu, 02 Jan 2025 10:11:12 GMT`). Calendar dates alone are kept: a new "published"
 *    date is usually news.
 * 2. Relative times: `5 minutes ago`, `an hour ago`, `just now`.
 * 3. Unix timestamps: 10- or 13-digit numbers starting with 1 (the years 2001 to 2286).
 * 4. Tokens: runs of 24+ letters, digits, `-` and `_` that mix letters and digits (CSRF tokens,
 *    nonces, session ids, build hashes), and UUIDs.
 * 5. Cache-busting query parameters in links and image sources (`v`, `ver`, `t`, `ts`, `cb`,
 *    `_`, `cache`, `cachebust`, `nocache`, `rev`, `hash`, `timestamp`, `utm_*`, `fbclid`, `gclid`).
 * 6. Whitespace: runs collapse to one space; blank lines and trailing spaces do not count.
 */

const BUSTING_PARAMS = /^(v|ver|version|t|ts|_|cb|cache|cachebust|cachebuster|nocache|bust|rev|hash|timestamp|time|rand|random|_t|utm_[a-z]+|fbclid|gclid|mc_eid)$/i;
const LINK_URL = /\]\(([^)\s]+)(\s+"[^"]*")?\)/g;
const ISO_DATETIME = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g;
const RFC1123 = /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} (?:GMT|UTC|[+-]\d{4})\b/g;
const TIME_OF_DAY = /\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s?[ap]\.?m\.?)?\b/gi;
const RELATIVE = /\b(?:(?:\d+|an?|one|a few) (?:second|sec|minute|min|hour|hr|day)s? ago|just now|moments? ago)\b/gi;
const UNIX_TS = /\b1\d{9}(?:\d{3})?\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const TOKEN = /[A-Za-z0-9_-]{24,}/g;

function stripBustingParams(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const kept = query.split('&').filter((pair) => pair && !BUSTING_PARAMS.test(decodeSafe(pair.split('=')[0] ?? '')));
  return url.slice(0, q) + (kept.length ? `?${kept.join('&')}` : '') + (hash < 0 ? '' : url.slice(hash));
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const isToken = (s: string) => /[0-9]/.test(s) && /[A-Za-z]/.test(s);

/** The markdown with every noise rule applied; compare these, never show them. */
export function denoise(markdown: string): string {
  return markdown
    .replace(LINK_URL, (_m, url: string, title: string | undefined) => `](${stripBustingParams(url)}${title ?? ''})`)
    .replace(ISO_DATETIME, '<datetime>')
    .replace(RFC1123, '<datetime>')
    .replace(RELATIVE, '<ago>')
    .replace(TIME_OF_DAY, '<time>')
    .replace(UUID, '<id>')
    .replace(UNIX_TS, '<ts>')
    .replace(TOKEN, (m) => (isToken(m) ? '<token>' : m))
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l.length > 0)
    .join('\n');
}
