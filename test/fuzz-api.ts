/**
 * Throws random, malformed and hostile requests at every JSON endpoint of a real Gleaner and
 * lists each answer outside the contract: a 5xx other than a catalogued scrape failure (those
 * carry SCRAPE_* codes by design), a non-2xx body without the error envelope, or no answer.
 * Not part of `npm test`: it is random by nature. Replay a run with its seed.
 *
 *   node --import tsx test/fuzz-api.ts [--seconds 60] [--seed N]
 */
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startGleaner } from './helpers/gleaner.js';

const { values } = parseArgs({ options: { seconds: { type: 'string' }, seed: { type: 'string' } } });
const seconds = Number(values.seconds ?? 60);
let seed = Number(values.seed ?? Date.now() % 2 ** 31);
console.log(`seed ${seed}`);

/** mulberry32: small, seedable, good enough to pick cases. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

const id = '6f1c1f0e-8e7a-4f57-9a4e-2b7b8f8e1a11';
const ROUTES: ReadonlyArray<[string, string]> = [
  ['POST', '/v2/scrape'], ['POST', '/v2/crawl'], ['POST', '/v2/batch/scrape'], ['POST', '/v2/map'], ['POST', '/v2/search'],
  ['POST', '/v2/monitor'], ['PATCH', `/v2/monitor/${id}`], ['POST', '/v2/browser'], ['POST', `/v2/browser/${id}/execute`],
  ['POST', `/v2/scrape/${id}/interact`], ['POST', '/v2/extract'], ['POST', '/v2/agent'], ['POST', '/v2/parse'],
  ['GET', '/v2/crawl/xyz'], ['GET', `/v2/crawl/${id}?skip=-1&limit=abc`], ['GET', `/v2/batch/scrape/${id}/errors`],
  ['GET', '/v2/monitor?limit=-5&offset=x'], ['GET', `/v2/monitor/${id}/checks?limit=99999999999999999999`],
  ['GET', '/v2/files/..%2f..%2fetc%2fpasswd'], ['DELETE', '/v2/crawl/not-a-uuid'], ['GET', '/v2/scrape/%00'], ['GET', `/v2/monitor/${id}/checks/%ff`],
];
const ATOMS: readonly unknown[] = [
  null, true, false, 0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, '', 'x', 'https://', 'http://127.0.0.1:1/', 'ftp://x',
  'javascript:alert(1)', '\u0000', '\ud800', 'a'.repeat(70_000), [], {}, '__proto__', 'constructor',
];
const KEYS: readonly string[] = [
  'url', 'urls', 'formats', 'limit', 'timeout', 'waitFor', 'actions', 'headers', 'location', 'scrapeOptions', 'webhook',
  'maxAge', 'proxy', 'includePaths', 'excludePaths', 'sitemap', 'targets', 'schedule', 'code', 'language', 'ttl',
  'activityTtl', 'profile', 'type', 'selector', 'query', 'search', 'delay', 'maxConcurrency', '__proto__', 'constructor',
  'prototype', 'changeTracking', 'onlyMainContent', 'includeTags', 'parsers', 'mobile', 'fullPage', 'quality', 'viewport',
  'cron', 'timezone', 'name', 'status', 'notification', 'email', 'metadata', 'events', 'prompt',
];

function value(depth: number): unknown {
  const r = random();
  if (depth > 3 || r < 0.5) return pick(ATOMS);
  if (r < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 5); i > 0; i--) o[pick(KEYS)] = value(depth + 1);
  return o;
}

function body(): string {
  const shapes = [
    () => '{"url": "http://127.0.0.1:1/"',
    () => '[1,2,3]',
    () => '"str"',
    () => '{"__proto__": {"admin": true}, "url": "http://127.0.0.1:1/"}',
    () => JSON.stringify({ url: 'http://127.0.0.1:1/', ...(value(0) as object) }),
    () => JSON.stringify(value(0)),
    () => JSON.stringify(value(0)),
  ];
  return pick(shapes)();
}

// With DATABASE_URL / REDIS_URL set, the store and queue are PostgreSQL and Redis.
const gleaner = await startGleaner({ env: { RATE_LIMIT_PER_MINUTE: '100000000' } });
const problems = new Set<string>();
let sent = 0;
const until = Date.now() + seconds * 1000;
try {
  while (Date.now() < until) {
    const [method, path] = pick(ROUTES);
    const payload = method === 'GET' || method === 'DELETE' ? undefined : body();
    const headers: Record<string, string> = { authorization: `Bearer ${gleaner.key}` };
    if (payload !== undefined) headers['content-type'] = random() < 0.1 ? 'text/plain' : 'application/json';
    const what = `${method} ${path} ${payload?.slice(0, 200) ?? ''}`;
    sent++;
    try {
      const res = await request(gleaner.url + path, { method: method as 'GET', headers, body: payload, headersTimeout: 20_000, bodyTimeout: 20_000 });
      const text = await res.body.text();
      if (res.statusCode < 400) continue;
      let envelope = false;
      try {
        const json = JSON.parse(text) as { success?: unknown; error?: unknown; code?: unknown };
        envelope = json.success === false && typeof json.error === 'string';
        if (res.statusCode >= 500 && envelope && typeof json.code === 'string' && json.code.startsWith('SCRAPE_')) continue;
      } catch {
        /* not JSON: reported below */
      }
      if (res.statusCode >= 500 || !envelope) problems.add(`${res.statusCode} ${what} -> ${text.slice(0, 200)}`);
    } catch (e) {
      problems.add(`no answer: ${what} -> ${(e as Error).message}`);
    }
  }
} finally {
  await gleaner.close();
}
console.log(`${sent} requests, ${problems.size} outside the contract`);
for (const p of [...problems].slice(0, 40)) console.log(p);
process.exitCode = problems.size > 0 ? 1 : 0;
