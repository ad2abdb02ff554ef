/** What becomes of the caller's request headers: which reach the site, and which the browser owns. */

/** Headers the browser (or the connection) owns; a caller's value would be wrong or dangerous. */
const BROWSER_OWNED_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-connection',
  'user-agent',
  'cookie',
]);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** The caller's headers meant for the target site, minus what the browser must own. */
export function siteHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    if (BROWSER_OWNED_HEADERS.has(name) || !HEADER_NAME.test(k) || !HEADER_VALUE.test(String(v))) continue;
    out[name] = String(v);
  }
  return out;
}

/** A `Cookie` header as cookies set on the context, so the browser sends them its own way. */
export function cookiesFromHeader(header: string | undefined, url: string): { name: string; value: string; url: string }[] {
  if (!header) return [];
  const out: { name: string; value: string; url: string }[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (name) out.push({ name, value: part.slice(eq + 1).trim(), url });
  }
  return out;
}
