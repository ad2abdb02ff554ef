/**
 * The project's own local website: every edge case the scrape pipeline must handle, served on
 * loopback. Tests start it on an ephemeral port; `node --import tsx test/fixture-site/server.ts`
 * serves it standalone for manual poking and benches.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import iconv from 'iconv-lite';
import { serveBrowserPages } from './browser-pages.js';
import { serveCrawlTree } from './crawl-tree.js';
import { serveDocument } from './documents.js';
import { serveFlaky } from './flaky.js';
import { serveHostile } from './hostile.js';
import { manualPages } from './manual-pages.js';
import { serveModelPages } from './model-pages.js';
import { serveWatched } from './monitor-pages.js';
import { pages } from './pages.js';
import { serveSearchEngine } from './search-engine.js';

export interface FixtureSite {
  url: string;
  port: number;
  /** Requests seen, per path (without query). */
  hits: Map<string, number>;
  /** Remote address of the last request per path. */
  lastPeer: Map<string, string>;
  close(): Promise<void>;
}

/** Address the "enhanced" test proxy connects from; the guarded pages let only it through. */
export const ENHANCED_PEER = '127.0.0.2';

const html = (res: http.ServerResponse, body: string, status = 200, extra: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...extra });
  res.end(body);
};

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export const BINARY_BYTES = randomBytes(4096);
// A tiny valid PNG (1x1, transparent).
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

function handle(req: http.IncomingMessage, res: http.ServerResponse, site: FixtureSite): void {
  const url = new URL(req.url ?? '/', site.url);
  const path = url.pathname;
  site.hits.set(path, (site.hits.get(path) ?? 0) + 1);
  site.lastPeer.set(path, req.socket.remoteAddress ?? '');

  const page = pages[path] ?? manualPages[path];
  if (page) return html(res, page(site.url));
  if (serveCrawlTree(path, site.url, res)) return;
  if (serveBrowserPages(req, path, res)) return;
  if (serveDocument(path, res)) return;
  if (serveWatched(req, path, res)) return;
  if (serveFlaky(path, site.hits, res)) return;
  if (serveHostile(url, res)) return;
  if (serveSearchEngine(url, site.url, res)) return;
  if (serveModelPages(path, res)) return;

  switch (path) {
    case '/redirect/1':
    case '/redirect/2':
    case '/redirect/3': {
      const n = Number(path.at(-1));
      res.writeHead(n === 2 ? 301 : 302, { location: n < 3 ? `/redirect/${n + 1}` : '/article' });
      return void res.end();
    }
    case '/redirect-loop/a':
      res.writeHead(302, { location: '/redirect-loop/b' });
      return void res.end();
    case '/redirect-loop/b':
      res.writeHead(302, { location: '/redirect-loop/a' });
      return void res.end();
    case '/redirect-to': {
      // Open redirect, for SSRF probes: /redirect-to?url=http://10.0.0.1/
      res.writeHead(302, { location: url.searchParams.get('url') ?? '/' });
      return void res.end();
    }
    case '/status/404':
      return html(res, '<html><head><title>Not here</title></head><body><h1>Page not found</h1><p>Nothing lives at this address.</p></body></html>', 404);
    case '/status/500':
      return html(res, '<html><head><title>Broken</title></head><body><h1>Server error</h1><p>Something failed on our side.</p></body></html>', 500);
    case '/slow': {
      const ms = Math.min(Number(url.searchParams.get('ms') ?? 5000), 60_000);
      const timer = setTimeout(() => html(res, `<html><body><h1>Slow page</h1><p>Answered after ${ms} ms.</p></body></html>`), ms);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    case '/windows-1252': {
      const body = `<html><head><title>Café crème</title></head><body><article><h1>Café crème — naïve façade</h1><p>Prices in € and “smart quotes” survive the trip: 5 € for a crème brûlée.</p></article></body></html>`;
      res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
      return void res.end(iconv.encode(body, 'windows-1252'));
    }
    case '/latin1-meta': {
      const body = `<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><title>Señor</title></head><body><article><h1>Señor Müller’s menu</h1><p>Smörgåsbord and jalapeño, all for 9 €.</p></article></body></html>`;
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end(iconv.encode(body, 'windows-1252'));
    }
    case '/large': {
      const paragraphs = Array.from({ length: 6000 }, (_, i) => `<p>Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(18)}</p>`).join('\n');
      return html(res, `<html><head><title>Large page</title></head><body><main><h1>Large page</h1>${paragraphs}<p>THE-END-MARKER</p></main></body></html>`);
    }
    case '/binary':
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void res.end(BINARY_BYTES);
    case '/image.png':
      res.writeHead(200, { 'content-type': 'image/png' });
      return void res.end(PNG_BYTES);
    case '/data.json':
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ name: 'gleaner', items: [1, 2, 3] }));
    case '/plain.txt':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('Just some plain text.\nSecond line.');
    case '/gzip': {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' });
      return void res.end(zlib.gzipSync('<html><head><title>Compressed</title></head><body><article><h1>Compressed page</h1><p>This body travelled gzip-encoded.</p></article></body></html>'));
    }
    case '/headers': {
      const rows = Object.entries(req.headers)
        .map(([k, v]) => `<li><code>${escapeHtml(k)}</code>: <span class="v">${escapeHtml(String(v))}</span></li>`)
        .join('');
      return html(res, `<html><head><title>Request headers</title></head><body><main><h1>Request headers</h1><ul>${rows}</ul></main></body></html>`);
    }
    case '/guarded':
      // Stands in for an anti-bot wall: only the enhanced proxy's address gets the page.
      if (req.socket.remoteAddress !== ENHANCED_PEER) {
        return html(res, '<html><head><title>Access denied</title></head><body>Blocked</body></html>', 403);
      }
      return html(res, '<html><head><title>Guarded</title></head><body><article><h1>Guarded content</h1><p>You came through the enhanced proxy.</p></article></body></html>');
    case '/challenge':
      if (req.socket.remoteAddress !== ENHANCED_PEER) {
        return html(res, '<html><head><title>Just a moment...</title></head><body><div id="cf-chl-widget">Checking your browser</div></body></html>');
      }
      return html(res, '<html><head><title>Past the challenge</title></head><body><article><h1>Real content</h1><p>The challenge page was bypassed.</p></article></body></html>');
    default:
      return html(res, '<html><head><title>Not found</title></head><body><h1>404</h1></body></html>', 404);
  }
}

export async function startFixtureSite(port = 0, host = '127.0.0.1'): Promise<FixtureSite> {
  const site = { url: '', port: 0, hits: new Map<string, number>(), lastPeer: new Map<string, string>() } as FixtureSite;
  const server = http.createServer((req, res) => handle(req, res, site));
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  site.port = (server.address() as AddressInfo).port;
  site.url = `http://${host}:${site.port}`;
  site.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return site;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = await startFixtureSite(Number(process.env.PORT ?? 8089));
  process.stdout.write(`fixture site on ${site.url}\n`);
}
