import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './chromium.js';
import { BrowserEngine } from './engine.js';
import type { SessionContext } from './session-context.js';
import { alive, chromiumProcessTree, waitFor } from './testing/processes.js';
import {
  DOWNLOAD_BYTES,
  echoedHeaders,
  envOf,
  escapeHtml,
  failure,
  isJpeg,
  isPng,
  loopbackRefusingGuard,
  page,
  PathGuard,
  PDF_BYTES,
  pngSize,
  request,
  startSite,
  type Site,
} from './testing/site.js';
import { startSocks5Server } from './testing/socks5-server.js';

const chromiumPath = findChromium(process.env.CHROMIUM_PATH);
if (!chromiumPath) {
  console.warn('engine.test.ts: no Chromium found (set CHROMIUM_PATH or install the "chromium" package): skipping browser engine tests');
}

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

      const download = await engine.fetch(request(`${site.base}/download`));
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
      // /slow answers after 5 s: a timeout error, not its page, shows the budget was kept.
      const err = await failure(engine.fetch(request(`${site.base}/slow`, { timeoutMs: 1_500 })));
      expect(err.key).toBe('SCRAPE_TIMEOUT');
      expect(await waitFor(() => engine.stats().pagesOpen === 0, 2_000)).toBe(true);
    });

    it('returns what arrived when a subresource keeps the load event from firing', async () => {
      const res = await engine.fetch(request(`${site.base}/hanging-sub`, { timeoutMs: 5_000 }));
      expect(res.text).toContain('visible-before-load');
      expect(res.status).toBe(200);
    });

    it('stops when the caller aborts', async () => {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 300);
      // Without the abort, /slow would answer 200 after 5 s, well inside the 20 s budget.
      const err = await failure(engine.fetch(request(`${site.base}/slow`, { signal: ac.signal })));
      expect(err.key).toBe('SCRAPE_TIMEOUT');
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
      const socks = await startSocks5Server();
      const proxyUrl = `socks5://alice:pa%40ss@127.0.0.1:${socks.port}`;
      try {
        const res = await engine.fetch(request(`${site.base}/js`, { proxyUrl }));
        expect(res.text).toContain('rendered-by-script');
        expect(socks.seen.length).toBeGreaterThan(0);
        expect(socks.seen[0]).toEqual({ user: 'alice', pass: 'pa@ss', target: `127.0.0.1:${site.port}` });
      } finally {
        await socks.close();
      }
    });
  });

  describe('context pool', () => {
    it('reuses one context across sequential fetches without leaking pages', async () => {
      const pool = new BrowserEngine({ executablePath: chromiumPath ?? '', maxContexts: 4 });
      try {
        for (let i = 0; i < 6; i++) {
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

    it('hands a kept page over as it is, and serves the next fetch from a new context', async () => {
      const pool = new BrowserEngine({ executablePath: chromiumPath ?? '', maxContexts: 1 });
      const guard = new PathGuard();
      let kept: SessionContext | undefined;
      try {
        const first = await pool.fetch({ ...request(`${site.base}/storage`, { guard }), keepPage: (p) => (kept = p) });
        expect(first.text).toContain('prev=none;cookie=none');
        expect(pool.stats().contextsOpen).toBe(0);
        // Not reset: the page, its cookies and storage are the fetch's.
        expect(kept!.page.url()).toBe(`${site.base}/storage`);
        expect(await kept!.page.evaluate(() => [document.cookie, localStorage.getItem('k')])).toEqual(['c=1', 'set']);
        // The pool's only slot is free again: a fresh context, with nothing of the kept one.
        const next = await pool.fetch(request(`${site.base}/storage`));
        expect(next.text).toContain('prev=none;cookie=none');
        expect(pool.stats().contextsOpen).toBe(1);
        // Still behind the guard's request routing.
        const refused = await kept!.page.goto(`${site.base}/blocked/x`).then(() => 'loaded', () => 'refused');
        expect(refused).toBe('refused');
        expect(guard.refused).toEqual([`${site.base}/blocked/x`]);
      } finally {
        await kept?.close();
        await pool.close();
      }
      expect(kept!.page.isClosed()).toBe(true);
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

