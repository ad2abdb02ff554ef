/**
 * Hostile request shapes at the HTTP edge: each gets a catalog answer (never a 500), and no
 * connection is left promising answers it will not give. Raw HTTP against a running Gleaner,
 * since the SDK never sends such bodies.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/http/json-depth.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const deepArray = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const target = 'http://127.0.0.1:1/';
const id = '6f1c1f0e-8e7a-4f57-9a4e-2b7b8f8e1a11';

describe('hostile input at the HTTP edge', () => {
  let gleaner: TestGleaner;
  beforeAll(async () => {
    gleaner = await startGleaner({ embedded: true, workers: false, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(async () => {
    await gleaner?.close();
  });

  const post = (path: string, body: string, contentType = 'application/json', method = 'POST') =>
    fetch(`${gleaner.url}${path}`, { method, headers: { authorization: `Bearer ${gleaner.key}`, 'content-type': contentType }, body });

  describe('a body nested 5,000 levels deep in a member no schema reads', () => {
    const cases: Array<[string, string, string, (string | number)[]]> = [
      ['crawl scrapeOptions', '/v2/crawl', `{"url":"${target}","scrapeOptions":{"zz":${deep(5000)}}}`, ['scrapeOptions', 'zz']],
      ['batch scrape', '/v2/batch/scrape', `{"urls":["${target}"],"zz":${deep(5000)}}`, ['zz']],
      ['scrape', '/v2/scrape', `{"url":"${target}","zz":${deepArray(5000)}}`, ['zz']],
      ['map', '/v2/map', `{"url":"${target}","zz":${deep(5000)}}`, ['zz']],
      ['monitor targets', '/v2/monitor', `{"name":"x","schedule":{"cron":"0 * * * *"},"targets":[{"type":"scrape","urls":["${target}"],"zz":${deep(5000)}}]}`, ['targets', 0, 'zz']],
      ['browser', '/v2/browser', `{"zz":${deep(5000)}}`, ['zz']],
      ['browser execute', `/v2/browser/${id}/execute`, `{"code":"1","zz":${deep(5000)}}`, ['zz']],
      ['interact', `/v2/scrape/${id}/interact`, `{"code":"1","zz":${deep(5000)}}`, ['zz']],
      ['the whole body', '/v2/crawl', deep(100_000), ['a']],
    ];
    it.each(cases)('%s: 400 naming where', async (_name, path, body, prefix) => {
      const res = await post(path, body);
      expect(res.status).toBe(400);
      const json = (await res.json()) as { code: string; details: Array<{ code: string; path: (string | number)[]; message: string }> };
      expect(json.code).toBe('BAD_REQUEST');
      expect(json.details[0]!.code).toBe('too_deep');
      expect(json.details[0]!.path.slice(0, prefix.length)).toEqual(prefix);
      expect(json.details[0]!.message).toContain(String(MAX_JSON_DEPTH));
    });

    it('also in PATCH bodies and in the options part of an upload', async () => {
      const patch = await post(`/v2/monitor/${id}`, `{"zz":${deep(5000)}}`, 'application/json', 'PATCH');
      expect(patch.status).toBe(400);
      const form = new FormData();
      form.append('options', `{"zz":${deep(5000)}}`);
      form.append('file', new Blob(['hello']), 'a.txt');
      const upload = await fetch(`${gleaner.url}/v2/parse`, { method: 'POST', headers: { authorization: `Bearer ${gleaner.key}` }, body: form });
      expect(upload.status).toBe(400);
      expect(JSON.stringify(await upload.json())).toContain('"path":["options","zz"');
    });

    it('lets a body nest as deep as the bound allows', async () => {
      const res = await post('/v2/scrape', `{"url":"${target}","formats":[{"type":"json","schema":${deep(MAX_JSON_DEPTH - 4)}}]}`);
      const json = (await res.json()) as { details?: Array<{ code: string }> };
      expect(json.details?.some((d) => d.code === 'too_deep') ?? false).toBe(false);
    });
  });

  describe('malformed multipart uploads to /v2/parse', () => {
    const part = '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello';
    const cases: Array<[string, string, string, RegExp]> = [
      ['no boundary', 'multipart/form-data', `${part}\r\n--x--\r\n`, /no boundary/i],
      ['another boundary than the body', 'multipart/form-data; boundary=y', `${part}\r\n--x--\r\n`, /not well-formed multipart/i],
      ['an unterminated part', 'multipart/form-data; boundary=x', part, /not well-formed multipart/i],
      ['unterminated part headers', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"', /not well-formed multipart/i],
      ['no parts at all', 'multipart/form-data; boundary=x', 'garbage', /not well-formed multipart/i],
    ];
    it.each(cases)('%s: 400 with a clear message', async (_name, contentType, body, message) => {
      const res = await post('/v2/parse', body, contentType);
      expect(res.status).toBe(400);
      const json = (await res.json()) as { code: string; error: string; details: Array<{ code: string }> };
      expect(json.code).toBe('BAD_REQUEST');
      expect(json.error).toMatch(message);
      expect(json.details[0]!.code).toBe('invalid_multipart');
    });

    it('still parses a well-formed upload', async () => {
      const res = await post('/v2/parse', `${part}\r\n--x--\r\n`, 'multipart/form-data; boundary=x');
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { markdown: string } }).data.markdown).toBe('hello');
    });
  });

  it('answers a refused WebSocket upgrade with Connection: close and closes the socket', async () => {
    const socket = net.connect(Number(new URL(gleaner.url).port), '127.0.0.1');
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `GET /v2/crawl/${id} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    // Without a key the upgrade is refused; the server must then end the connection itself.
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    expect(received).not.toMatch(/keep-alive/i);
  });
});
