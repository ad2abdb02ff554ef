/**
 * Random, malformed and hostile requests for every endpoint that takes input, and the contract
 * every answer must keep: no 5xx but a catalogued scrape failure (those carry SCRAPE_* codes by
 * design), the error envelope on every non-2xx answer, and an answer at all. Seeded, so a run
 * can be replayed; used by the fuzz suite test and by `test/fuzz-api.ts` for longer runs.
 */
import { request } from 'undici';

export interface FuzzRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: string;
  contentType?: string;
}

const id = '6f1c1f0e-8e7a-4f57-9a4e-2b7b8f8e1a11';
const ROUTES: ReadonlyArray<[FuzzRequest['method'], string]> = [
  ['POST', '/v2/scrape'], ['POST', '/v2/crawl'], ['POST', '/v2/batch/scrape'], ['POST', '/v2/map'], ['POST', '/v2/search'],
  ['POST', '/v2/monitor'], ['PATCH', `/v2/monitor/${id}`], ['POST', '/v2/browser'], ['POST', `/v2/browser/${id}/execute`],
  ['POST', `/v2/scrape/${id}/interact`], ['POST', '/v2/extract'], ['POST', '/v2/agent'], ['POST', '/v2/parse'],
  ['POST', `/v2/monitor/${id}/run`],
  ['GET', '/v2/crawl/xyz'], ['GET', `/v2/crawl/${id}?skip=-1&limit=abc`], ['GET', `/v2/batch/scrape/${id}/errors`],
  ['GET', '/v2/monitor?limit=-5&offset=x'], ['GET', `/v2/monitor/${id}/checks?limit=99999999999999999999`],
  ['GET', '/v2/files/..%2f..%2fetc%2fpasswd'], ['DELETE', '/v2/crawl/not-a-uuid'], ['GET', '/v2/scrape/%00'], ['GET', `/v2/monitor/${id}/checks/%ff`],
];
const ATOMS: readonly unknown[] = [
  null, true, false, 0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, '', 'x', 'https://', 'http://127.0.0.1:1/', 'ftp://x',
  'javascript:alert(1)', '\u0000', '\ud800', 'a'.repeat(70_000), [], {}, '__proto__', 'constructor', '(a+)+(?=b)', '[',
];
const KEYS: readonly string[] = [
  'url', 'urls', 'formats', 'limit', 'timeout', 'waitFor', 'actions', 'headers', 'location', 'scrapeOptions', 'webhook',
  'maxAge', 'proxy', 'includePaths', 'excludePaths', 'sitemap', 'targets', 'schedule', 'code', 'language', 'ttl',
  'activityTtl', 'profile', 'type', 'selector', 'query', 'search', 'delay', 'maxConcurrency', '__proto__', 'constructor',
  'prototype', 'changeTracking', 'onlyMainContent', 'includeTags', 'parsers', 'mobile', 'fullPage', 'quality', 'viewport',
  'cron', 'timezone', 'name', 'status', 'notification', 'email', 'metadata', 'events', 'prompt',
];

const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const filePart = (b: string) => `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello`;

export function createFuzzer(seed: number): { next(): FuzzRequest } {
  let state = seed | 0;
  /** mulberry32: small, seedable, good enough to pick cases. */
  const random = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

  const value = (depth: number): unknown => {
    const r = random();
    if (depth > 3 || r < 0.5) return pick(ATOMS);
    if (r < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(random() * 5); i > 0; i--) o[pick(KEYS)] = value(depth + 1);
    return o;
  };

  const jsonBody = (): string =>
    pick([
      () => '{"url": "http://127.0.0.1:1/"',
      () => '[1,2,3]',
      () => '"str"',
      () => '{"__proto__": {"admin": true}, "url": "http://127.0.0.1:1/"}',
      () => `{"url": "http://127.0.0.1:1/", "${pick(KEYS)}": ${deep(2000 + Math.floor(random() * 4000))}}`,
      () => JSON.stringify({ url: 'http://127.0.0.1:1/', ...(value(0) as object) }),
      () => JSON.stringify(value(0)),
      () => JSON.stringify(value(0)),
    ])();

  const multipart = (): Pick<FuzzRequest, 'body' | 'contentType'> =>
    pick([
      () => ({ contentType: 'multipart/form-data', body: `${filePart('x')}\r\n--x--\r\n` }),
      () => ({ contentType: 'multipart/form-data; boundary=y', body: `${filePart('x')}\r\n--x--\r\n` }),
      () => ({ contentType: 'multipart/form-data; boundary=x', body: filePart('x') }),
      () => ({ contentType: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="file"' }),
      () => ({ contentType: 'multipart/form-data; boundary=x', body: `--x\r\nContent-Disposition: form-data; name="options"\r\n\r\n${jsonBody()}\r\n${filePart('x')}\r\n--x--\r\n` }),
      () => ({ contentType: 'multipart/form-data; boundary=x', body: 'garbage' }),
    ])();

  return {
    next(): FuzzRequest {
      const [method, path] = pick(ROUTES);
      if (method === 'GET' || method === 'DELETE') return { method, path };
      if (path === '/v2/parse' && random() < 0.7) return { method, path, ...multipart() };
      return { method, path, body: jsonBody(), contentType: random() < 0.1 ? 'text/plain' : 'application/json' };
    },
  };
}

/** Sends one request; returns what is outside the contract about its answer, or undefined. */
export async function breach(baseUrl: string, key: string, r: FuzzRequest): Promise<string | undefined> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (r.contentType) headers['content-type'] = r.contentType;
  const what = `${r.method} ${r.path} ${r.body?.slice(0, 200) ?? ''}`;
  try {
    const res = await request(baseUrl + r.path, { method: r.method, headers, body: r.body, headersTimeout: 30_000, bodyTimeout: 30_000 });
    const text = await res.body.text();
    if (res.statusCode < 400) return undefined;
    let envelope = false;
    try {
      const json = JSON.parse(text) as { success?: unknown; error?: unknown; code?: unknown };
      envelope = json.success === false && typeof json.error === 'string';
      if (res.statusCode >= 500 && envelope && typeof json.code === 'string' && json.code.startsWith('SCRAPE_')) return undefined;
    } catch {
      /* not JSON: reported below */
    }
    return res.statusCode >= 500 || !envelope ? `${res.statusCode} ${what} -> ${text.slice(0, 200)}` : undefined;
  } catch (e) {
    return `no answer: ${what} -> ${(e as Error).message}`;
  }
}
