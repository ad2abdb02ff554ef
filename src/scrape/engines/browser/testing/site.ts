/**
 * The engine tests' world: a local site with one page per behaviour under test, guards that
 * refuse in known ways, and readers for what the pages report back.
 */
import http from 'node:http';
import type net from 'node:net';
import { expect } from 'vitest';
import { ApiError } from '../../../../errors.js';
import type { FetchRequest, UrlGuard } from '../../../types.js';

// Guards

export const permissive: UrlGuard = {
  async checkUrl() {},
  checkAddress() {},
};

/** Refuses any URL whose path starts with /blocked, and remembers what it refused. */
export class PathGuard implements UrlGuard {
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
export const loopbackRefusingGuard: UrlGuard = {
  async checkUrl() {},
  checkAddress(ip: string, url: string) {
    if (ip === '127.0.0.1') throw new ApiError('URL_BLOCKED', { message: `test guard: ${ip} refused`, details: { url, address: ip } });
  },
};

// The site

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unescapeHtml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

export const DOWNLOAD_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
export const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

export const page = (body: string, head = '') => `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

export interface Site {
  base: string;
  port: number;
  hits: Map<string, number>;
  /** Request headers seen per path. */
  seen: Map<string, http.IncomingHttpHeaders>;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
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

export function request(url: string, over: Partial<FetchRequest> = {}): FetchRequest {
  return { url, headers: {}, timeoutMs: 20_000, skipTlsVerification: false, mobile: false, waitForMs: 0, guard: permissive, ...over };
}

export async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected the fetch to fail');
}

export function envOf(text: string | undefined): Record<string, unknown> {
  const m = /<div id="env">(.*?)<\/div>/s.exec(text ?? '');
  if (!m?.[1]) throw new Error('no env block in the page');
  return JSON.parse(unescapeHtml(m[1])) as Record<string, unknown>;
}

export function echoedHeaders(text: string | undefined): Record<string, string> {
  const m = /<pre id="headers">(.*?)<\/pre>/s.exec(text ?? '');
  if (!m?.[1]) throw new Error('no headers block in the page');
  return JSON.parse(unescapeHtml(m[1])) as Record<string, string>;
}

export const pngSize = (b: Buffer) => ({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });
export const isPng = (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
export const isJpeg = (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
