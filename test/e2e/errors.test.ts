/**
 * Bad input and bad callers: every failure answers with the catalog's status and envelope, as
 * the SDK surfaces it, and never a 500.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

let site: FixtureSite;
let gleaner: TestGleaner;
let fc: Firecrawl;

beforeAll(async () => {
  site = await startFixtureSite();
  gleaner = await startGleaner({ embedded: true, env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
});
afterAll(async () => {
  await gleaner?.close();
  await site?.close();
});

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${gleaner.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gleaner.key}`, 'content-type': 'application/json', ...headers },
    body,
  });

describe('validation', () => {
  it('answers 400 with per-field details for out-of-bounds options', async () => {
    const err = await sdkError(fc.scrape(`${site.url}/article`, { timeout: 10, waitFor: 70_000, maxAge: -5 }));
    expect(err.status).toBe(400);
    expect(err.code).toBe('BAD_REQUEST');
    const paths = (err.details as { path: string[] }[]).map((d) => d.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['timeout', 'waitFor', 'maxAge']));
  });

  it('refuses waitFor above half the timeout', async () => {
    const err = await sdkError(fc.scrape(`${site.url}/article`, { timeout: 2000, waitFor: 1500 }));
    expect(err.status).toBe(400);
    expect((err.details as { path: string[] }[])[0]!.path).toEqual(['waitFor']);
  });

  it('refuses an unknown format and a second screenshot', async () => {
    const unknown = await sdkError(fc.scrape(`${site.url}/article`, { formats: ['markdownish' as 'markdown'] }));
    expect(unknown.status).toBe(400);
    expect((unknown.details as { path: unknown[] }[])[0]!.path.slice(0, 2)).toEqual(['formats', 0]);
    const two = await sdkError(fc.scrape(`${site.url}/article`, { formats: ['screenshot', { type: 'screenshot', fullPage: true }] }));
    expect(two.status).toBe(400);
  });

  it('names each not-yet-supported option or format instead of ignoring it', async () => {
    const audio = await sdkError(fc.scrape(`${site.url}/article`, { formats: ['audio'] }));
    expect(audio.status).toBe(400);
    expect(audio.code).toBe('UNSUPPORTED_OPTION');
    expect(audio.message).toContain("'audio' format");
    const several = await sdkError(fc.scrape(`${site.url}/article`, { formats: ['video'], domainTools: true }));
    expect(several.message).toContain("'video' format");
    expect(several.message).toContain("'domainTools' option");
  });

  it('answers 400 Invalid URL for a URL that is not http(s)', async () => {
    for (const url of ['ftp://example.com/file', 'javascript:alert(1)', 'http://']) {
      const err = await sdkError(fc.scrape(url));
      expect(err.status, url).toBe(400);
      expect(err.message).toBe('Invalid URL');
    }
  });

  it('accepts unknown keys such as origin and integration', async () => {
    const res = await post('/v2/scrape', JSON.stringify({ url: `${site.url}/article`, origin: 'test', integration: 'anything', futureKey: 1, maxAge: 0 }));
    expect(res.status).toBe(200);
  });

  it('answers malformed JSON with 400 BAD_REQUEST_INVALID_JSON', async () => {
    const res = await post('/v2/scrape', '{"url": "http://x", ');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error: 'Bad request, malformed JSON', code: 'BAD_REQUEST_INVALID_JSON' });
  });

  it('answers a missing body with 400 naming the url field', async () => {
    const res = await post('/v2/scrape', '{}');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { details: { path: string[] }[] };
    expect(body.details[0]!.path).toEqual(['url']);
  });

  it('answers hostile nesting and wrong types with 400, not 500', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    for (const body of [`{"url": ${deep}}`, '[]', '"just a string"', '{"url": {"$ne": 1}}', '{"url":"http://a.b","formats":{"0":"markdown"}}', '{"url":"http://a.b","headers":{"X\\r\\nInjected":"1"}}']) {
      const res = await post('/v2/scrape', body);
      expect(res.status, body.slice(0, 40)).toBe(400);
      expect(((await res.json()) as { success: boolean }).success).toBe(false);
    }
  });

  it('refuses NUL characters anywhere in a body with 400 naming the field (PostgreSQL cannot store them)', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/v2/scrape', { url: `${site.url}/article?q=a\u0000b` }, 'url'],
      ['/v2/map', { url: site.url, search: 'a\u0000b' }, 'search'],
      ['/v2/monitor', { name: 'a\u0000b', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: [`${site.url}/article`] }] }, 'name'],
      ['/v2/scrape', { url: `${site.url}/article`, headers: { 'a\u0000b': 'x' } }, 'headers.a\u0000b'],
    ];
    for (const [path, body, field] of cases) {
      const res = await post(path, JSON.stringify(body));
      expect(res.status, path).toBe(400);
      const json = (await res.json()) as { code: string; details: Array<{ path: string[] }> };
      expect(json.code).toBe('BAD_REQUEST');
      expect(json.details.map((d) => d.path.join('.'))).toContain(field);
    }
  });

  it('answers bodies over the limit with 413', async () => {
    const huge = JSON.stringify({ url: `${site.url}/article`, padding: 'x'.repeat(11 * 1024 * 1024) });
    const res = await post('/v2/scrape', huge);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, error: 'Payload Too Large' });
  });

  it('answers unknown routes with 404 in the envelope', async () => {
    const res = await fetch(`${gleaner.url}/v2/nope`, { headers: { authorization: `Bearer ${gleaner.key}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, error: 'Not Found' });
  });

  it('answers a path with broken percent-encoding with 400 in the envelope', async () => {
    for (const path of ['/v2/scrape/%ff', '/v2/crawl/%E0%A4%A', '/v2/monitor/%c0%af/checks']) {
      const res = await fetch(`${gleaner.url}${path}`, { headers: { authorization: `Bearer ${gleaner.key}` } });
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('percent-encoded') });
    }
  });
});

describe('authentication', () => {
  it('answers 401 for a missing, malformed or unknown key', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer' }, { authorization: 'Bearer fc-unknown' }] as Record<string, string>[]) {
      const res = await fetch(`${gleaner.url}/v2/scrape`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ url: `${site.url}/article` }),
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ success: false, error: 'Unauthorized: Invalid token' });
    }
    const err = await sdkError(new Firecrawl({ apiKey: 'fc-wrong', apiUrl: gleaner.url }).scrape(`${site.url}/article`));
    expect(err.status).toBe(401);
  });

  it('stops accepting a key once it is revoked', async () => {
    const teamId = await gleaner.rt.keys.ensureTeam('revocation');
    const { id, key } = await gleaner.rt.keys.create({ teamId, name: 'short-lived' });
    const client = new Firecrawl({ apiKey: key, apiUrl: gleaner.url });
    await client.scrape(`${site.url}/article`);
    expect(await gleaner.rt.keys.revoke(id)).toBe(true);
    const err = await sdkError(client.scrape(`${site.url}/article`));
    expect(err.status).toBe(401);
    expect(err.message).toBe('Unauthorized: Invalid token');
  });

  it('answers 403 Forbidden when the key lacks the scope', async () => {
    const teamId = await gleaner.rt.keys.ensureTeam('scoped');
    const { key } = await gleaner.rt.keys.create({ teamId, name: 'map-only', scopes: ['map'] });
    const err = await sdkError(new Firecrawl({ apiKey: key, apiUrl: gleaner.url }).scrape(`${site.url}/article`));
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/^Forbidden/);
  });

  it('stores keys only as hashes', async () => {
    const rows = await gleaner.rt.store.db.selectFrom('api_keys').select(['key_hash', 'prefix']).execute();
    expect(rows.some((r) => r.key_hash.includes(gleaner.key))).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.key_hash))).toBe(true);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After once a team passes its plan limit', async () => {
    const limited = await startGleaner({ embedded: true, env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const call = () =>
        fetch(`${limited.url}/v2/scrape`, {
          method: 'POST',
          headers: { authorization: `Bearer ${limited.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: `${site.url}/article` }),
        });
      for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
      const res = await call();
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await res.json()) as { error: string; details: { retryAfterSeconds: number } };
      expect(body.error).toMatch(/^Rate limit exceeded/);
      expect(body.details.retryAfterSeconds).toBeGreaterThan(0);
      const err = await sdkError(new Firecrawl({ apiKey: limited.key, apiUrl: limited.url }).scrape(`${site.url}/article`));
      expect(err.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('service endpoints', () => {
  it('serves /health, /ready and the OpenAPI document without a key', async () => {
    expect(await (await fetch(`${gleaner.url}/health`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${gleaner.url}/ready`)).json()).toEqual({ status: 'ready' });
    const doc = (await (await fetch(`${gleaner.url}/v2/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> } } }>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const body = doc.paths['/v2/scrape']!.post!.requestBody!.content['application/json']!.schema;
    expect(body.required).toContain('url');
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['formats', 'timeout', 'waitFor', 'maxAge', 'proxy']));
  });

  it('echoes a valid x-request-id and makes one up otherwise', async () => {
    const given = await fetch(`${gleaner.url}/health`, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await fetch(`${gleaner.url}/health`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
