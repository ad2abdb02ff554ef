/**
 * Pages that fail before they work, for the retry rules of crawl and batch pages. Each test
 * crawls an area of its own (`/retry/<name>`), so the site's request counts (`hits`, by path)
 * tell how often each page was asked for.
 *
 *   /retry/<name>               links to the four pages below
 *   /retry/<name>/unstable      503 to its first two requests, then the page
 *   /retry/<name>/hang          no answer to its first request (the scrape times out), then the page
 *   /retry/<name>/missing       always 404
 *   /retry/<name>/private       redirects to a private address the server refuses (URL_BLOCKED)
 *   /retry/<name>/down          always 503 (not linked from the area's page)
 *
 * And a page that answers when a test says so:
 *
 *   /hold/<name>                held open until /hold/<name>/release is asked for; then the page
 */
import type http from 'node:http';

/** Requests a page of the area fails before it answers. */
export const RETRY_FAILURES = { unstable: 2, hang: 1 } as const;

const page = (title: string, body: string) => `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/** Held answers by name, and the names already released. */
const held = new Map<string, Array<() => void>>();
const released = new Set<string>();

function serveHeld(path: string, res: http.ServerResponse): boolean {
  const m = /^\/hold\/([\w-]+)(\/release)?$/.exec(path);
  if (!m) return false;
  const [, name, release] = m as unknown as [string, string, string | undefined];
  const answer = () => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page('Held page', `<p>The page ${name} was released.</p>`));
  };
  if (release) {
    released.add(name);
    for (const send of held.get(name) ?? []) send();
    held.delete(name);
    answer();
  } else if (released.has(name)) answer();
  else held.set(name, [...(held.get(name) ?? []), answer]);
  return true;
}

export function serveFlaky(path: string, hits: ReadonlyMap<string, number>, res: http.ServerResponse): boolean {
  if (serveHeld(path, res)) return true;
  const m = /^\/retry\/([\w-]+)(?:\/(unstable|hang|missing|private|down))?$/.exec(path);
  if (!m) return false;
  const [, name, leaf] = m;
  const send = (status: number, html: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  };
  const seen = hits.get(path) ?? 0;
  switch (leaf) {
    case undefined: {
      const links = ['unstable', 'hang', 'missing', 'private'].map((l) => `<li><a href="/retry/${name}/${l}">${l}</a></li>`).join('');
      send(200, page('Retry area', `<p>Pages that fail before they work.</p><ul>${links}</ul>`));
      return true;
    }
    case 'unstable':
      if (seen <= RETRY_FAILURES.unstable) send(503, page('Unavailable', '<p>Try again later.</p>'));
      else send(200, page('Unstable page', `<p>Answered at request ${seen}.</p>`));
      return true;
    case 'hang':
      // Held open until the client gives up; the socket closes with it.
      if (seen <= RETRY_FAILURES.hang) return true;
      send(200, page('Hanging page', `<p>Answered at request ${seen}.</p>`));
      return true;
    case 'down':
      send(503, page('Unavailable', '<p>Down for good.</p>'));
      return true;
    case 'missing':
      send(404, page('Not here', '<p>Nothing lives at this address.</p>'));
      return true;
    default:
      res.writeHead(302, { location: 'http://10.255.255.1/' });
      res.end();
      return true;
  }
}
