/**
 * Pages whose content tests change between monitor checks: `/watch/<name>` serves what
 * `setWatchedPage` last stored, with an ETag (honouring If-None-Match with 304);
 * `/watch-plain/<name>` serves the same without validators; `/watch-noisy/<name>` adds a fresh
 * clock, token and cache-busting link on every request.
 */
import { createHash, randomBytes } from 'node:crypto';
import type http from 'node:http';

const pages = new Map<string, string>();
const requests = new Map<string, { total: number; notModified: number }>();

export function setWatchedPage(name: string, body: string): void {
  pages.set(name, body);
}

export function removeWatchedPage(name: string): void {
  pages.delete(name);
}

export function watchedRequests(name: string): { total: number; notModified: number } {
  return requests.get(name) ?? { total: 0, notModified: 0 };
}

const page = (title: string, body: string, extra = '') =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}${extra}</main></body></html>`;

export function serveWatched(req: http.IncomingMessage, path: string, res: http.ServerResponse): boolean {
  const m = /^\/(watch|watch-plain|watch-noisy)\/([A-Za-z0-9_-]+)$/.exec(path);
  if (!m) return false;
  const [, kind, name] = m as unknown as [string, string, string];
  const stats = requests.get(name) ?? { total: 0, notModified: 0 };
  requests.set(name, stats);
  stats.total++;
  const body = pages.get(name);
  if (body === undefined) {
    res.writeHead(404, { 'content-type': 'text/html' }).end(page('Gone', '<p>No such page.</p>'));
    return true;
  }
  if (kind === 'watch-noisy') {
    const token = randomBytes(20).toString('hex');
    const noise = `<p>Rendered at ${new Date().toISOString()} (${new Date().toLocaleTimeString('en-US')}), request token ${token}.</p><p><a href="/style.css?v=${Date.now()}">styles</a></p>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(name, body, noise));
    return true;
  }
  const html = page(name, body);
  if (kind === 'watch') {
    const etag = `"${createHash('sha1').update(html).digest('hex')}"`;
    if (req.headers['if-none-match'] === etag) {
      stats.notModified++;
      res.writeHead(304, { etag }).end();
      return true;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(html);
    return true;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  return true;
}
