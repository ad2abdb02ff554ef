/**
 * Pages built to hurt a crawler, for the hardening tests:
 *
 *   /hostile/redos          -> /hostile/redos/aaaa, /hostile/redos/a{10000}, /hostile/redos/a{10000}!
 *                              (a path that costs a backtracking `(a+)+…$` pattern forever)
 *   /hostile/redos/*        a small page linking nowhere
 *   /hostile/links?n=N      a page with N distinct on-site links (to /hostile/links/0 .. N-1)
 *   /hostile/links/*        a small page linking nowhere
 */
import type http from 'node:http';

export const REDOS_RUN = 10_000;
export const REDOS_LINKS = [`/hostile/redos/aaaa`, `/hostile/redos/${'a'.repeat(REDOS_RUN)}`, `/hostile/redos/${'a'.repeat(REDOS_RUN)}!`];

const page = (res: http.ServerResponse, title: string, hrefs: Iterable<string>) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  let body = `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>A page for crawler tests.</p>`;
  for (const h of hrefs) body += `<a href="${h}">x</a>\n`;
  res.end(`${body}</body></html>`);
};

function* numbered(n: number): Generator<string> {
  for (let i = 0; i < n; i++) yield `/hostile/links/${i}`;
}

export function serveHostile(url: URL, res: http.ServerResponse): boolean {
  const path = url.pathname;
  if (path === '/hostile/redos') page(res, 'Redos', REDOS_LINKS);
  else if (path === '/hostile/links') page(res, 'Links', numbered(Math.min(Number(url.searchParams.get('n') ?? 10), 1_000_000)));
  else if (path.startsWith('/hostile/redos/') || path.startsWith('/hostile/links/')) page(res, 'Leaf', []);
  else return false;
  return true;
}
