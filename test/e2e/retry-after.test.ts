/**
 * The retry rules: every 429 and every 503 tells the client when to come back with
 * `Retry-After` (seconds), whoever produced it: the rate limiter, a missing browser, the
 * readiness check, or a request that arrives while the server shuts down.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, catalog, type ErrorKey } from '../../src/errors.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner } from '../helpers/gleaner.js';

let site: FixtureSite;

beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

const retryAfter = (h: Headers) => Number(h.get('retry-after'));

describe('Retry-After', () => {
  it('every 429 and 503 row of the catalog carries one, unless the thrower gives its own', () => {
    const keys = (Object.keys(catalog) as ErrorKey[]).filter((k) => [429, 503].includes(catalog[k].status));
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(Number(new ApiError(k).headers['Retry-After']), k).toBeGreaterThan(0);
    expect(new ApiError('CONCURRENCY_LIMIT_REACHED', { headers: { 'retry-after': '3' } }).headers).toEqual({ 'retry-after': '3' });
    expect(new ApiError('BAD_REQUEST').headers).toEqual({});
  });

  it('is on the 503 for a browser session on a server without a browser', async () => {
    const g = await startGleaner({ embedded: true, env: { DISABLE_BROWSER: 'true' } });
    try {
      const res = await fetch(`${g.url}/v2/browser`, { method: 'POST', headers: { authorization: `Bearer ${g.key}`, 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(503);
      expect(retryAfter(res.headers)).toBeGreaterThan(0);
      expect(await res.json()).toMatchObject({ success: false, error: expect.stringContaining('Chromium') });
    } finally {
      await g.close();
    }
  });

  it('is on the 503 of a request that arrives while the server shuts down, in the error envelope', async () => {
    const g = await startGleaner({ embedded: true });
    let closed: Promise<void> | undefined;
    try {
      const { port } = new URL(g.url);
      const socket = net.connect(Number(port), '127.0.0.1');
      let raw = '';
      socket.on('data', (d) => (raw += d.toString('latin1')));
      const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      const body = JSON.stringify({ url: `${site.url}/slow?ms=1500`, maxAge: 0 });
      // A slow scrape holds the connection; the second request is pipelined behind it.
      socket.write(`POST /v2/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${g.key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      while (!site.hits.get('/slow')) await new Promise((r) => setTimeout(r, 20));
      closed = g.app.close();
      socket.write(`GET /v2/crawl/active HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${g.key}\r\n\r\n`);
      await ended;
      const responses = raw.split(/(?=HTTP\/1\.1 )/);
      expect(responses).toHaveLength(2);
      expect(responses[0]).toMatch(/^HTTP\/1\.1 200/);
      const refused = responses[1]!;
      expect(refused).toMatch(/^HTTP\/1\.1 503/);
      expect(refused).toMatch(/\r\nretry-after: [1-9]\d*\r\n/i);
      expect(refused).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toMatchObject({ success: false, error: expect.stringContaining('shutting down') });
    } finally {
      await closed;
      await g.close();
    }
  });
});
