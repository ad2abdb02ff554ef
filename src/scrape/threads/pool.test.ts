import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.js';
import { AddressPolicy, SsrfGuard } from '../../security/ssrf.js';
import { HttpEngine } from '../engines/http.js';
import { ThreadedHttpEngine } from '../engines/threaded-http.js';
import { transformPage } from '../../transform/index.js';
import type { FetchRequest, TransformOptions, TransformWants } from '../types.js';
import { createFetchingThreads, createTransformer } from './pool.js';

const opts: TransformOptions = { baseUrl: 'https://example.com/a', onlyMainContent: true, includeTags: [], excludeTags: [], removeBase64Images: true };
const wants: TransformWants = { markdown: true, html: false, links: true, images: false };
const page = (n: number) => `<html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1><p>Body of page ${n}, long enough to be content. <a href="/p${n}">next</a></p></main></body></html>`;

describe('the page threads, transforming', () => {
  const pool = createTransformer(2);
  afterAll(() => pool.close());

  it('gives what the inline transform gives', async () => {
    expect(await pool.transform(page(1), opts, wants)).toEqual(transformPage(page(1), opts, wants));
  });

  it('answers each of many concurrent pages with its own result', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => pool.transform(page(i), opts, wants)));
    results.forEach((r, i) => {
      expect(r.metadata.title).toBe(`Page ${i}`);
      expect(r.links).toEqual([`https://example.com/p${i}`]);
    });
  });

  it('hands a failing page its error and goes on with the next', async () => {
    await expect(pool.transform(null as unknown as string, opts, wants)).rejects.toThrow();
    expect((await pool.transform(page(2), opts, wants)).metadata.title).toBe('Page 2');
  });

  it('refuses a page it cannot hand to a thread, and goes on with the next', async () => {
    const uncopyable = { ...opts, baseUrl: (() => 'x') as unknown as string };
    await expect(pool.transform(page(3), uncopyable, wants)).rejects.toThrow();
    expect((await pool.transform(page(4), opts, wants)).metadata.title).toBe('Page 4');
  });

  it('refuses work once closed', async () => {
    const closing = createTransformer(1);
    await closing.close();
    await expect(closing.transform(page(1), opts, wants)).rejects.toThrow(/closed/);
  });
});

describe('the page threads, fetching', () => {
  let site: http.Server;
  let base: string;
  const loopback = ['127.0.0.0/8'];
  const threads = createFetchingThreads(1, { allowedCidrs: loopback, maxResponseBytes: 1_000_000 })!;
  const strict = createFetchingThreads(1, { allowedCidrs: [], maxResponseBytes: 1_000_000 })!;
  const guard = new SsrfGuard(new AddressPolicy(loopback));
  const request = (path: string, extra: Partial<FetchRequest> = {}): FetchRequest => ({
    url: `${base}${path}`,
    headers: {},
    timeoutMs: 10_000,
    skipTlsVerification: false,
    mobile: false,
    waitForMs: 0,
    guard,
    ...extra,
  });

  const big = 'x'.repeat(50_000) + 'end';
  const SHELL = '<html><head><title>App</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>';

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      if (req.url === '/moved') return void res.writeHead(302, { location: '/page/7' }).end();
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 5_000).unref();
      if (req.url === '/shell') return void res.writeHead(200, { 'content-type': 'text/html' }).end(SHELL);
      if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(big);
      const n = Number(/\/page\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag: `"p${n}"` }).end(page(n));
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all([threads.close(), strict.close()]);
    site.closeAllConnections();
    await new Promise((r) => site.close(r));
  });

  it('answers as the engine on the main thread does, with the page transformed against its final URL', async () => {
    const onMain = new HttpEngine({ guard, maxResponseBytes: 1_000_000 });
    const transform = { opts, wants, keepText: true, checkJavaScript: false };
    const [here, there] = await Promise.all([onMain.fetch(request('/moved')), new ThreadedHttpEngine(threads).fetch(request('/moved', { transform }))]);
    await onMain.close();
    expect(there.url).toBe(`${base}/page/7`);
    // The two answers may come a second apart, so their Date headers may differ.
    const apartFromClock = (r: typeof here) => ({ ...r, timings: undefined, transformed: undefined, headers: { ...r.headers, date: undefined } });
    expect(apartFromClock(there)).toEqual(apartFromClock(here));
    expect(Buffer.isBuffer(there.body)).toBe(true);
    expect(there.transformed).toEqual(transformPage(here.text!, { ...transform.opts, baseUrl: `${base}/page/7` }, wants));
  });

  it('leaves the text out after the transform unless asked to keep it, and answers the script-shell check there', async () => {
    const engine = new ThreadedHttpEngine(threads);
    const transform = { opts, wants, keepText: false, checkJavaScript: true };
    const [plain, shell] = await Promise.all([engine.fetch(request('/page/8', { transform })), engine.fetch(request('/shell', { transform }))]);
    expect(plain.text).toBeUndefined();
    expect(plain.body.toString()).toBe(page(8));
    expect(plain.transformed?.metadata.title).toBe('Page 8');
    expect([plain.needsJavaScript, shell.needsJavaScript]).toEqual([false, true]);
    const unchecked = await engine.fetch(request('/shell', { transform: { ...transform, keepText: true, checkJavaScript: false } }));
    expect(unchecked.text).toBe(SHELL);
    expect(unchecked.needsJavaScript).toBeUndefined();
  });

  it('hands over large and small bodies intact, one after the other', async () => {
    const engine = new ThreadedHttpEngine(threads);
    for (let i = 0; i < 3; i++) {
      const [large, small] = await Promise.all([engine.fetch(request('/big')), engine.fetch(request(`/page/${i}`))]);
      expect(large.body.toString()).toBe(big);
      expect(small.body.toString()).toBe(page(i));
    }
  });

  it('fetches without a transform when none is asked for', async () => {
    const r = await new ThreadedHttpEngine(threads).fetch(request('/page/3'));
    expect(r.text).toBe(page(3));
    expect(r.transformed).toBeUndefined();
  });

  it("keeps the guard's policy and a catalog error's code across the thread", async () => {
    const refused = new ThreadedHttpEngine(strict).fetch(request('/page/1'));
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ code: 'URL_BLOCKED', status: 403 });
  });

  it('stops a fetch when the caller aborts, and goes on with the next', async () => {
    const abort = new AbortController();
    const slow = new ThreadedHttpEngine(threads).fetch(request('/slow', { signal: abort.signal }));
    setTimeout(() => abort.abort(), 100);
    await expect(slow).rejects.toMatchObject({ code: 'SCRAPE_TIMEOUT', message: 'Scrape was cancelled' });
    expect((await new ThreadedHttpEngine(threads).fetch(request('/page/5'))).text).toBe(page(5));
  });

  it('times a fetch out on the thread', async () => {
    await expect(new ThreadedHttpEngine(threads).fetch(request('/slow', { timeoutMs: 200 }))).rejects.toMatchObject({ code: 'SCRAPE_TIMEOUT' });
  });
});
