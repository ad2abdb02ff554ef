import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.js';
import type { FetchRequest, UrlGuard } from '../types.js';
import { BrowserEngine } from './browser.js';
import { findChromium } from './chromium.js';

const chromiumPath = findChromium(process.env.CHROMIUM_PATH);
if (!chromiumPath) {
  console.warn('browser.test.ts: no Chromium found (set CHROMIUM_PATH or install the "chromium" package): skipping browser engine tests');
}

// ---------------------------------------------------------------------------------------------
// Guards

const permissive: UrlGuard = {
  async checkUrl() {},
  checkAddress() {},
};

/** Refuses any URL whose path starts with /blocked, and remembers what it refused. */
class PathGuard implements UrlGuard {
  readonly refused: string[] = [];
  async checkUrl(url: string): Promise<void> {
    if (new URL(url).pathname.startsWith('/blocked')) {
      this.refused.push(url);
      throw new ApiError('URL_BLOCKED', { message: 'test guard: /blocked is off limits', details: { url } });
    }
  }
  checkAddress(): void {}
}

/** Accepts every URL but refuses the loopback address once it is actually connected to. */
const loopbackRefusingGuard: UrlGuard = {
  async checkUrl() {},
  checkAddress(ip: string, url: string) {
    if (ip === '127.0.0.1') throw new ApiError('URL_BLOCKED', { message: `test guard: ${ip} refused`, details: { url, address: ip } });
  },
};

// ---------------------------------------------------------------------------------------------
// The site

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unescapeHtml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

const DOWNLOAD_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

const page = (body: string, head = '') => `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

interface Site {
  base: string;
  port: number;
  hits: Map<string, number>;
  /** Request headers seen per path. */
  seen: Map<string, http.IncomingHttpHeaders>;
  close(): Promise<void>;
}

async function startSite(): Promise<Site> {
  const hits = new Map<string, number>();
  const seen = new Map<string, http.IncomingHttpHeaders>();
  const timers = new Set<NodeJS.Timeout>();
  let port = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    seen.set(url.pathname, req.headers);
    const html = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'x-site': 'test' });
      res.end(body);
    };
    switch (url.pathname) {
      case '/js':
        return html(
          200,
          page(
            '<div id="root">loading</div><script>window.addEventListener("load", () => setTimeout(() => { document.getElementById("root").textContent = "rendered-by-script"; }, 100));</script>',
            '<title>js page</title>',
          ),
        );
      case '/late':
        return html(200, page('<div id="root">early</div><script>setTimeout(() => { document.getElementById("root").textContent = "late-content"; }, 1500);</script>'));
      case '/echo':
        return html(
          200,
          page(
            `<pre id="headers">${escapeHtml(JSON.stringify(req.headers))}</pre><div id="env"></div>` +
              '<img src="/same-origin-sub.png">' +
              `<img src="http://localhost:${port}/cross-origin-sub.png">` +
              '<script>document.getElementById("env").textContent = JSON.stringify({ language: navigator.language, languages: navigator.languages, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, userAgent: navigator.userAgent, width: window.innerWidth, touch: navigator.maxTouchPoints, dpr: window.devicePixelRatio });</script>',
            '<meta name="viewport" content="width=device-width, initial-scale=1"><style>pre{white-space:pre-wrap;word-break:break-all}</style>',
          ),
        );
      case '/geo':
        return html(
          200,
          page(
            '<div id="geo">pending</div><script>navigator.geolocation.getCurrentPosition((p) => { document.getElementById("geo").textContent = p.coords.latitude + "," + p.coords.longitude; }, (e) => { document.getElementById("geo").textContent = "error:" + e.message; });</script>',
          ),
        );
      case '/slow': {
        const t = setTimeout(() => {
          timers.delete(t);
          html(200, page('slow'));
        }, 5_000);
        timers.add(t);
        return;
      }
      case '/with-blocked-sub':
        return html(
          200,
          page('<p>main-content</p><img src="/blocked/pixel.png"><script src="/blocked/script.js"></script><script>fetch("/blocked/api").catch(() => {});</script>'),
        );
      case '/redirect':
        res.writeHead(302, { location: '/js' });
        return res.end();
      case '/redirect-to-blocked':
        res.writeHead(302, { location: '/blocked/page' });
        return res.end();
      case '/tall':
        return html(200, page('<div style="height:4000px;background:linear-gradient(#c00,#00c)">tall</div>', '<style>body{margin:0}</style>'));
      case '/storage':
        return html(
          200,
          page(
            '<div id="out"></div><script>const prev = localStorage.getItem("k"); const prevCookie = document.cookie; localStorage.setItem("k", "set"); document.cookie = "c=1; path=/"; document.getElementById("out").textContent = "prev=" + (prev ?? "none") + ";cookie=" + (prevCookie || "none");</script>',
          ),
        );
      case '/popup':
        return html(200, page('<p>opener</p><script>window.open("/js", "_blank");</script>'));
      case '/download':
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="bytes.bin"' });
        return res.end(DOWNLOAD_BYTES);
      case '/pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return res.end(PDF_BYTES);
      case '/empty-404':
        res.writeHead(404);
        return res.end();
      case '/hanging-sub':
        return html(200, page('<p>visible-before-load</p><img src="/slow">'));
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"a":1}');
      default:
        if (url.pathname.startsWith('/blocked')) return html(200, 'secret');
        if (url.pathname.endsWith('.png')) {
          res.writeHead(404);
          return res.end();
        }
        return html(404, page('not found'));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    hits,
    seen,
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function request(url: string, over: Partial<FetchRequest> = {}): FetchRequest {
  return { url, headers: {}, timeoutMs: 20_000, skipTlsVerification: false, mobile: false, waitForMs: 0, guard: permissive, ...over };
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected the fetch to fail');
}

function envOf(text: string | undefined): Record<string, unknown> {
  const m = /<div id="env">(.*?)<\/div>/s.exec(text ?? '');
  if (!m?.[1]) throw new Error('no env block in the page');
  return JSON.parse(unescapeHtml(m[1])) as Record<string, unknown>;
}

function echoedHeaders(text: string | undefined): Record<string, string> {
  const m = /<pre id="headers">(.*?)<\/pre>/s.exec(text ?? '');
  if (!m?.[1]) throw new Error('no headers block in the page');
  return JSON.parse(unescapeHtml(m[1])) as Record<string, string>;
}

const pngSize = (b: Buffer) => ({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });
const isPng = (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
const isJpeg = (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

/** Chromium processes started by this test process (roots), and everything they spawned. */
function chromiumProcessTree(): { roots: number[]; all: number[] } {
  if (!readdirSync('/').includes('proc')) return { roots: [], all: [] };
  const parents = new Map<number, number>();
  const commands = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      parents.set(Number(entry), Number(fields[1]));
      commands.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8'));
    } catch {
      // The process exited while being read.
    }
  }
  const roots = [...parents].filter(([pid, ppid]) => ppid === process.pid && /chrom/i.test(commands.get(pid) ?? '')).map(([pid]) => pid);
  const tree = new Set(roots);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return { roots, all: [...tree] };
}

const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
};

async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

// ---------------------------------------------------------------------------------------------

describe.skipIf(!chromiumPath)('BrowserEngine', () => {
  let site: Site;
  let engine: BrowserEngine;

  beforeAll(async () => {
    site = await startSite();
    engine = new BrowserEngine({ executablePath: chromiumPath ?? '', maxContexts: 2 });
  });

  afterAll(async () => {
    await engine?.close();
    await site?.close();
  });

  describe('rendering', () => {
    it('returns the DOM after scripts ran, with the document response', async () => {
      const res = await engine.fetch(request(`${site.base}/js`));
      expect(res.engine).toBe('browser');
      expect(res.status).toBe(200);
      expect(res.url).toBe(`${site.base}/js`);
      expect(res.text).toContain('rendered-by-script');
      expect(res.text).not.toContain('>loading<');
      // The body is what the server sent, before any script ran.
      expect(res.body.toString()).toContain('>loading<');
      expect(res.contentType).toBe('text/html; charset=utf-8');
      expect(res.headers['x-site']).toBe('test');
      for (const k of Object.keys(res.headers)) expect(k).toBe(k.toLowerCase());
      expect(res.remoteAddress).toBe('127.0.0.1');
      expect(res.timings.totalMs).toBeGreaterThan(0);
      expect(engine.stats().pagesOpen).toBe(0);
    });

    it('follows redirects and reports the final URL', async () => {
      const res = await engine.fetch(request(`${site.base}/redirect`));
      expect(res.url).toBe(`${site.base}/js`);
      expect(res.status).toBe(200);
      expect(res.text).toContain('rendered-by-script');
    });

    it('waits waitForMs before reading the DOM', async () => {
      const early = await engine.fetch(request(`${site.base}/late`));
      expect(early.text).toContain('early');
      const late = await engine.fetch(request(`${site.base}/late`, { waitForMs: 2_000 }));
      expect(late.text).toContain('late-content');
    });

    it('returns non-HTML text as sent, downloads and PDFs as bytes', async () => {
      const json = await engine.fetch(request(`${site.base}/json`));
      expect(json.text).toBe('{"a":1}');
      expect(json.contentType).toBe('application/json');

      const pdf = await engine.fetch(request(`${site.base}/pdf`));
      expect(pdf.status).toBe(200);
      expect(pdf.contentType).toBe('application/pdf');
      expect(pdf.body.equals(PDF_BYTES)).toBe(true);
      expect(pdf.text).toBeUndefined();

      const started = Date.now();
      const download = await engine.fetch(request(`${site.base}/download`));
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(download.body.equals(DOWNLOAD_BYTES)).toBe(true);
      expect(download.contentType).toBe('application/octet-stream');
      expect(download.text).toBeUndefined();
      expect(engine.stats().pagesOpen).toBe(0);
    });
  });

  describe('request shaping', () => {
    it('sends caller headers to the site, the user agent through the browser', async () => {
      const res = await engine.fetch(
        request(`${site.base}/echo`, { headers: { 'X-Custom': 'hello', 'User-Agent': 'GleanerTest/1.0', Cookie: 'session=abc' } }),
      );
      const sent = echoedHeaders(res.text);
      expect(sent['x-custom']).toBe('hello');
      expect(sent['user-agent']).toBe('GleanerTest/1.0');
      expect(sent.cookie).toContain('session=abc');
      expect(envOf(res.text).userAgent).toBe('GleanerTest/1.0');
      // Same-origin subresources get the caller's headers, third parties do not.
      expect(site.seen.get('/same-origin-sub.png')?.['x-custom']).toBe('hello');
      expect(site.seen.get('/cross-origin-sub.png')).toBeDefined();
      expect(site.seen.get('/cross-origin-sub.png')?.['x-custom']).toBeUndefined();
    });

    it('does not announce headless Chrome by default', async () => {
      const res = await engine.fetch(request(`${site.base}/echo`));
      const env = envOf(res.text);
      expect(env.userAgent).not.toContain('Headless');
      expect(env.width).toBe(1920);
    });

    it('emulates a phone', async () => {
      const res = await engine.fetch(request(`${site.base}/echo`, { mobile: true }));
      const env = envOf(res.text);
      expect(env.userAgent).toMatch(/Android.*Mobile/);
      expect(env.width).toBe(412);
      expect(env.touch).toBeGreaterThan(0);
      expect(env.dpr).toBeGreaterThan(2);
      expect(echoedHeaders(res.text)['user-agent']).toMatch(/Mobile/);
    });

    it('applies location: locale, Accept-Language, timezone and geolocation', async () => {
      const res = await engine.fetch(request(`${site.base}/echo`, { location: { country: 'DE', languages: ['de-DE', 'en'] } }));
      const env = envOf(res.text);
      expect(env.language).toBe('de-DE');
      expect(env.timeZone).toBe('Europe/Berlin');
      expect(echoedHeaders(res.text)['accept-language']).toBe('de-DE,en;q=0.9');

      const jp = await engine.fetch(request(`${site.base}/echo`, { location: { country: 'JP' } }));
      expect(envOf(jp.text).language).toBe('ja-JP');
      expect(envOf(jp.text).timeZone).toBe('Asia/Tokyo');

      const geo = await engine.fetch(request(`${site.base}/geo`, { location: { country: 'DE' } }));
      const coords = /<div id="geo">([^<]*)<\/div>/.exec(geo.text ?? '')?.[1] ?? '';
      const [lat, lon] = coords.split(',').map(Number);
      expect(lat).toBeCloseTo(52.52, 1);
      expect(lon).toBeCloseTo(13.405, 1);
    });
  });

  describe('screenshots', () => {
    it('takes a PNG of the 1920x1080 viewport by default', async () => {
      const res = await engine.fetch(request(`${site.base}/tall`, { screenshot: { fullPage: false } }));
      expect(res.screenshot?.mime).toBe('image/png');
      const data = res.screenshot?.data ?? Buffer.alloc(0);
      expect(isPng(data)).toBe(true);
      expect(pngSize(data)).toEqual({ width: 1920, height: 1080 });
    });

    it('honours viewport and fullPage', async () => {
      const viewport = { width: 800, height: 600 };
      const part = await engine.fetch(request(`${site.base}/tall`, { screenshot: { fullPage: false, viewport } }));
      expect(pngSize(part.screenshot?.data ?? Buffer.alloc(24))).toEqual(viewport);
      const full = await engine.fetch(request(`${site.base}/tall`, { screenshot: { fullPage: true, viewport } }));
      const size = pngSize(full.screenshot?.data ?? Buffer.alloc(24));
      expect(size.width).toBe(800);
      expect(size.height).toBeGreaterThanOrEqual(4000);
    });

    it('takes a JPEG at the asked quality', async () => {
      const low = await engine.fetch(request(`${site.base}/tall`, { screenshot: { fullPage: false, quality: 5 } }));
      const high = await engine.fetch(request(`${site.base}/tall`, { screenshot: { fullPage: false, quality: 95 } }));
      expect(low.screenshot?.mime).toBe('image/jpeg');
      expect(isJpeg(low.screenshot?.data ?? Buffer.alloc(3))).toBe(true);
      expect(isJpeg(high.screenshot?.data ?? Buffer.alloc(3))).toBe(true);
      expect(low.screenshot?.data.length ?? 0).toBeLessThan(high.screenshot?.data.length ?? 0);
    });
  });

  describe('SSRF guard', () => {
    it('throws the guard error when the main navigation is refused, without reaching the site', async () => {
      const guard = new PathGuard();
      const err = await failure(engine.fetch(request(`${site.base}/blocked/page`, { guard })));
      expect(err.key).toBe('URL_BLOCKED');
      expect(err.message).toBe('test guard: /blocked is off limits');
      expect(site.hits.get('/blocked/page')).toBeUndefined();
    });

    it('aborts refused subresources and still returns the page', async () => {
      const guard = new PathGuard();
      const res = await engine.fetch(request(`${site.base}/with-blocked-sub`, { guard }));
      expect(res.text).toContain('main-content');
      expect(guard.refused.map((u) => new URL(u).pathname).sort()).toEqual(['/blocked/api', '/blocked/pixel.png', '/blocked/script.js']);
      for (const p of ['/blocked/pixel.png', '/blocked/script.js', '/blocked/api']) expect(site.hits.get(p)).toBeUndefined();
    });

    it('refuses a redirect hop to a refused URL before it reaches the site', async () => {
      const guard = new PathGuard();
      const err = await failure(engine.fetch(request(`${site.base}/redirect-to-blocked`, { guard })));
      expect(err.key).toBe('URL_BLOCKED');
      expect(site.hits.get('/blocked/page')).toBeUndefined();
    });

    it('checks the address actually connected to', async () => {
      const before = site.hits.get('/echo') ?? 0;
      const err = await failure(engine.fetch(request(`${site.base}/echo`, { guard: loopbackRefusingGuard })));
      expect(err.key).toBe('URL_BLOCKED');
      expect(err.message).toBe('test guard: 127.0.0.1 refused');
      expect(site.hits.get('/echo') ?? 0).toBe(before);
    });

    it('refuses schemes other than http and https', async () => {
      const err = await failure(engine.fetch(request('file:///etc/passwd')));
      expect(err.key).toBe('URL_BLOCKED');
    });
  });

  describe('failures', () => {
    it('times out quickly with SCRAPE_TIMEOUT and leaves no page open', async () => {
      const started = Date.now();
      const err = await failure(engine.fetch(request(`${site.base}/slow`, { timeoutMs: 1_500 })));
      expect(err.key).toBe('SCRAPE_TIMEOUT');
      expect(Date.now() - started).toBeLessThan(3_500);
      expect(await waitFor(() => engine.stats().pagesOpen === 0, 2_000)).toBe(true);
    });

    it('returns what arrived when a subresource keeps the load event from firing', async () => {
      const started = Date.now();
      const res = await engine.fetch(request(`${site.base}/hanging-sub`, { timeoutMs: 3_000 }));
      expect(res.text).toContain('visible-before-load');
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    it('stops when the caller aborts', async () => {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 300);
      const started = Date.now();
      const err = await failure(engine.fetch(request(`${site.base}/slow`, { signal: ac.signal })));
      expect(err.key).toBe('SCRAPE_TIMEOUT');
      expect(Date.now() - started).toBeLessThan(2_500);
    });

    it('returns an error status with an empty body as the site answered it', async () => {
      const res = await engine.fetch(request(`${site.base}/empty-404`));
      expect(res.status).toBe(404);
      expect(res.body.length).toBe(0);
      expect(res.url).toBe(`${site.base}/empty-404`);
    });

    it('maps DNS failures and refused connections onto the catalog', async () => {
      const dnsErr = await failure(engine.fetch(request('http://gleaner-no-such-host.invalid/')));
      expect(dnsErr.key).toBe('SCRAPE_DNS_RESOLUTION_ERROR');

      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as net.AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const refused = await failure(engine.fetch(request(`http://127.0.0.1:${port}/`)));
      expect(refused.key).toBe('SCRAPE_SITE_ERROR');
      expect(refused.message).toMatch(/ECONNREFUSED/);
    });

    it.runIf(hasOpenssl())('maps certificate errors to SCRAPE_SSL_ERROR unless verification is skipped', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-tls-'));
      try {
        execFileSync('openssl', [
          'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
          '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
        ], { stdio: 'ignore' });
        const server = https.createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) }, (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(page('<p>secure-page</p>'));
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const url = `https://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
        try {
          const err = await failure(engine.fetch(request(url)));
          expect(err.key).toBe('SCRAPE_SSL_ERROR');
          const ok = await engine.fetch(request(url, { skipTlsVerification: true }));
          expect(ok.text).toContain('secure-page');
          expect(ok.remoteAddress).toBe('127.0.0.1');
        } finally {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('proxies', () => {
    it('goes through an http:// proxy with credentials', async () => {
      const seenAuth: string[] = [];
      const proxy = http.createServer((req, res) => {
        const auth = req.headers['proxy-authorization'] ?? '';
        seenAuth.push(auth);
        if (auth !== `Basic ${Buffer.from('bob:s3cret').toString('base64')}`) {
          res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' });
          return res.end();
        }
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(page(`<p>proxied:${escapeHtml(req.url ?? '')}</p>`));
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const proxyUrl = `http://bob:s3cret@127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
      try {
        const res = await engine.fetch(request('http://example.test/page', { proxyUrl }));
        expect(res.text).toContain('proxied:http://example.test/page');
        expect(res.remoteAddress).toBeUndefined();
      } finally {
        proxy.closeAllConnections();
        await new Promise<void>((resolve) => proxy.close(() => resolve()));
      }
    });

    it('goes through a socks5:// proxy with credentials', async () => {
      const seen: { user: string; pass: string; target: string }[] = [];
      const socks = net.createServer((client) => void socksSession(client, seen));
      await new Promise<void>((resolve) => socks.listen(0, '127.0.0.1', resolve));
      const proxyUrl = `socks5://alice:pa%40ss@127.0.0.1:${(socks.address() as net.AddressInfo).port}`;
      try {
        const res = await engine.fetch(request(`${site.base}/js`, { proxyUrl }));
        expect(res.text).toContain('rendered-by-script');
        expect(seen.length).toBeGreaterThan(0);
        expect(seen[0]).toEqual({ user: 'alice', pass: 'pa@ss', target: `127.0.0.1:${site.port}` });
      } finally {
        await new Promise<void>((resolve) => socks.close(() => resolve()));
      }
    });
  });

  describe('context pool', () => {
    it('reuses one context across sequential fetches without leaking pages', async () => {
      const pool = new BrowserEngine({ executablePath: chromiumPath ?? '', maxContexts: 4 });
      try {
        for (let i = 0; i < 20; i++) {
          const res = await pool.fetch(request(`${site.base}/js`));
          expect(res.text).toContain('rendered-by-script');
          const s = pool.stats();
          expect(s.pagesOpen).toBe(0);
          expect(s.contextsOpen).toBe(1);
          expect(s.contextsIdle).toBe(1);
        }
      } finally {
        await pool.close();
      }
    });

    it('resets cookies and storage between uses and closes popups', async () => {
      const pool = new BrowserEngine({ executablePath: chromiumPath ?? '', maxContexts: 1 });
      try {
        const first = await pool.fetch(request(`${site.base}/storage`));
        expect(first.text).toContain('prev=none;cookie=none');
        const second = await pool.fetch(request(`${site.base}/storage`));
        expect(second.text).toContain('prev=none;cookie=none');
        const popup = await pool.fetch(request(`${site.base}/popup`));
        expect(popup.text).toContain('opener');
        expect(pool.stats()).toMatchObject({ pagesOpen: 0, contextsOpen: 1 });
      } finally {
        await pool.close();
      }
    });

    it('bounds contexts under concurrency and across emulation settings', async () => {
      const pool = new BrowserEngine({ executablePath: chromiumPath ?? '', maxContexts: 2, maxUsesPerContext: 3 });
      let most = 0;
      const watch = setInterval(() => (most = Math.max(most, pool.stats().contextsOpen)), 10);
      try {
        const jobs = Array.from({ length: 8 }, (_, i) =>
          pool.fetch(request(`${site.base}/echo`, { mobile: i % 2 === 1, ...(i % 3 === 0 ? { location: { country: 'FR' } } : {}) })),
        );
        const results = await Promise.all(jobs);
        results.forEach((r, i) => expect(envOf(r.text).width).toBe(i % 2 === 1 ? 412 : 1920));
        expect(most).toBeLessThanOrEqual(2);
        expect(pool.stats().pagesOpen).toBe(0);
        expect(pool.stats().contextsOpen).toBeLessThanOrEqual(2);
      } finally {
        clearInterval(watch);
        await pool.close();
      }
    });
  });

  describe('lifecycle', () => {
    it('relaunches Chromium after it dies', async () => {
      const before = new Set(chromiumProcessTree().roots);
      const life = new BrowserEngine({ executablePath: chromiumPath ?? '' });
      try {
        await life.fetch(request(`${site.base}/js`));
        expect(life.stats().launched).toBe(true);
        const roots = chromiumProcessTree().roots.filter((pid) => !before.has(pid));
        expect(roots).toHaveLength(1);
        const pid = roots[0] ?? 0;
        process.kill(pid, 'SIGKILL');
        expect(await waitFor(() => !life.stats().launched, 5_000)).toBe(true);
        const again = await life.fetch(request(`${site.base}/js`));
        expect(again.text).toContain('rendered-by-script');
        expect(life.stats().launched).toBe(true);
      } finally {
        await life.close();
      }
    });

    it('close() ends the browser process, is idempotent, and refuses later fetches', async () => {
      const life = new BrowserEngine({ executablePath: chromiumPath ?? '' });
      const before = new Set(chromiumProcessTree().all);
      await life.fetch(request(`${site.base}/js`));
      const mine = chromiumProcessTree().all.filter((pid) => !before.has(pid));
      expect(mine.length).toBeGreaterThan(0);
      await life.close();
      await life.close();
      expect(await waitFor(() => mine.every((pid) => !alive(pid)), 5_000)).toBe(true);
      expect(life.stats()).toMatchObject({ launched: false, contextsOpen: 0, pagesOpen: 0 });
      const err = await failure(life.fetch(request(`${site.base}/js`)));
      expect(err.key).toBe('SERVICE_UNAVAILABLE');
    });
  });
});

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A minimal SOCKS5 server (RFC 1928/1929): username/password auth, CONNECT only. */
async function socksSession(client: net.Socket, seen: { user: string; pass: string; target: string }[]): Promise<void> {
  client.on('error', () => {});
  let buf = Buffer.alloc(0);
  const waiters: (() => void)[] = [];
  client.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    waiters.splice(0).forEach((w) => w());
  });
  const take = async (n: number): Promise<Buffer> => {
    while (buf.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    const out = buf.subarray(0, n);
    buf = buf.subarray(n);
    return out;
  };
  const [, nMethods = 0] = await take(2);
  const methods = [...(await take(nMethods))];
  if (!methods.includes(2)) return void client.end(Buffer.from([5, 0xff]));
  client.write(Buffer.from([5, 2]));
  const [, ulen = 0] = await take(2);
  const user = (await take(ulen)).toString();
  const [plen = 0] = await take(1);
  const pass = (await take(plen)).toString();
  client.write(Buffer.from([1, 0]));
  const [, , , atyp] = await take(4);
  let host: string;
  if (atyp === 1) host = [...(await take(4))].join('.');
  else if (atyp === 3) host = (await take((await take(1))[0] ?? 0)).toString();
  else return void client.destroy();
  const port = (await take(2)).readUInt16BE(0);
  seen.push({ user, pass, target: `${host}:${port}` });
  const upstream = net.connect(port, host, () => {
    client.removeAllListeners('data');
    client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
    if (buf.length > 0) upstream.write(buf);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
}
