import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../errors.js';
import { AddressPolicy, SsrfGuard } from '../../security/ssrf.js';
import { HttpEngine } from './http.js';

const guard = new SsrfGuard(new AddressPolicy(['127.0.0.0/8']));
const engine = new HttpEngine({ guard, maxResponseBytes: 64 * 1024 });
const fetchPage = (url: string, opts: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
  engine.fetch({ url, headers: {}, timeoutMs: opts.timeoutMs ?? 5000, skipTlsVerification: false, mobile: false, waitForMs: 0, guard, signal: opts.signal });
const failure = (p: Promise<unknown>) => p.then(() => expect.fail('the fetch succeeded'), (e: ApiError) => e);

const page = '<html><body><p>' + 'Words of the page. '.repeat(200) + '</p></body></html>';
/** The first half of a gzip stream, flushed so the client can inflate it before the rest comes. */
const halfGzip = zlib.gzipSync(page).subarray(0, 300);

let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    switch (req.url) {
      case '/plain':
        return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      case '/gzip':
        return void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(zlib.gzipSync(page));
      case '/big':
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('x'.repeat(200 * 1024));
      case '/bomb':
        return void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20)));
      case '/gzip-stalls':
        // Half a compressed body, then nothing: the deadline must end the read.
        return void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).write(halfGzip);
      case '/gzip-resets':
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).write(halfGzip);
        return void setTimeout(() => res.socket?.destroy(), 50);
      case '/slow-headers':
        return void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(page), 2000);
      default:
        return void res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await engine.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('HttpEngine', () => {
  it('reads plain and gzip-encoded bodies to the same text', async () => {
    const plain = await fetchPage(`${base}/plain`);
    const gzip = await fetchPage(`${base}/gzip`);
    expect(plain.status).toBe(200);
    expect(plain.text).toBe(page);
    expect(gzip.text).toBe(page);
  });

  it('refuses a body over the size limit, raw or once inflated', async () => {
    for (const path of ['/big', '/bomb']) {
      const e = await failure(fetchPage(`${base}${path}`));
      expect(e.key).toBe('SCRAPE_SITE_ERROR');
      expect(e.message).toMatch(/larger than the 65536-byte limit/);
    }
  });

  it('times out a compressed body that stops coming, instead of waiting for it forever', async () => {
    const e = await failure(fetchPage(`${base}/gzip-stalls`, { timeoutMs: 300 }));
    expect(e.key).toBe('SCRAPE_TIMEOUT');
  });

  it('fails a compressed body whose connection is cut halfway', async () => {
    const e = await failure(fetchPage(`${base}/gzip-resets`));
    expect(e.key).toBe('SCRAPE_SITE_ERROR');
  });

  it('times out when the headers are late, and stops when the caller cancels', async () => {
    expect((await failure(fetchPage(`${base}/slow-headers`, { timeoutMs: 200 }))).key).toBe('SCRAPE_TIMEOUT');
    const caller = new AbortController();
    setTimeout(() => caller.abort(), 100);
    const cancelled = await failure(fetchPage(`${base}/slow-headers`, { signal: caller.signal }));
    expect(cancelled.key).toBe('SCRAPE_TIMEOUT');
    expect(cancelled.message).toBe('Scrape was cancelled');
    // A caller that gave up before the fetch began gets the same answer at once.
    expect((await failure(fetchPage(`${base}/plain`, { signal: AbortSignal.abort() }))).message).toBe('Scrape was cancelled');
  });
});
