/**
 * The crawl part of the fixture site: robots.txt, a sitemap index (one plain, one gzip file), a
 * small link tree under /crawl with every discovery edge case, and two separate areas
 * (/crawl/slow, /crawl/big) that nothing under /crawl links to and no sitemap lists.
 *
 *   /robots.txt            User-agent: * / Disallow: /crawl/private/ / Sitemap: <origin>/sitemap.xml
 *   /sitemap.xml           <sitemapindex>: /sitemaps/crawl.xml, /sitemaps/more.xml.gz
 *   /sitemaps/crawl.xml    /crawl, /crawl/a, /crawl/orphan-1
 *   /sitemaps/more.xml.gz  (gzip file) /crawl/orphan-2, /crawl/private/hidden
 *   /crawl                 -> /crawl/a, /crawl/b, /crawl/b?ref=1, /crawl/b?ref=2, /crawl/private/secret,
 *                             /crawl/a#section, http://localhost:<port>/crawl/external, /article,
 *                             mailto:, javascript:
 *   /crawl/a -> /crawl/a/1 -> /crawl/a/1/deep -> /crawl (cycle);  /crawl/b -> /crawl/a
 *   /crawl/slow            -> /crawl/slow/1 .. /crawl/slow/5 (each answers after 300 ms)
 *   /crawl/big             -> /crawl/big/1 .. /crawl/big/60
 *
 * Tests import the expected outcomes below instead of restating them.
 */
import type http from 'node:http';
import zlib from 'node:zlib';

/** What a default crawl of `/crawl` returns (sitemap included, no external links, no subdomains). */
export const CRAWL_TREE: readonly string[] = [
  '/crawl',
  '/crawl/a',
  '/crawl/a/1',
  '/crawl/a/1/deep',
  '/crawl/b',
  '/crawl/b?ref=1',
  '/crawl/b?ref=2',
  '/crawl/orphan-1',
  '/crawl/orphan-2',
];

/** The same crawl with `ignoreQueryParameters: true`. */
export const CRAWL_TREE_NO_QUERY: readonly string[] = [
  '/crawl',
  '/crawl/a',
  '/crawl/a/1',
  '/crawl/a/1/deep',
  '/crawl/b',
  '/crawl/orphan-1',
  '/crawl/orphan-2',
];

/** Found by that crawl (a link and a sitemap entry) but disallowed by robots.txt. */
export const ROBOTS_BLOCKED: readonly string[] = ['/crawl/private/secret', '/crawl/private/hidden'];

/** Page URLs the sitemaps list, in sitemap order (index order, then file order). */
export const SITEMAP_PATHS: readonly string[] = ['/crawl', '/crawl/a', '/crawl/orphan-1', '/crawl/orphan-2', '/crawl/private/hidden'];

/** Links of `/crawl/slow` and `/crawl/big`, and how long a slow page takes. */
export const SLOW_PAGES = 5;
export const SLOW_PAGE_MS = 300;
export const BIG_PAGES = 60;

const page = (title: string, body: string, links: string[] = []) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<meta name="description" content="${title}: a page of the crawl fixture."></head><body><main>` +
  `<h1>${title}</h1><p>${body}</p>` +
  (links.length ? `<ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul>` : '') +
  `</main></body></html>`;

const urlset = (origin: string, paths: readonly string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
  paths.map((p) => `  <url><loc>${origin}${p}</loc><lastmod>2026-01-15</lastmod></url>\n`).join('') +
  `</urlset>\n`;

function staticPage(path: string, origin: string): string | undefined {
  const port = new URL(origin).port;
  switch (path) {
    case '/crawl':
      return page('Crawl root', 'The root of the crawl fixture. It links to children, duplicates and places a crawl must not go.', [
        '/crawl/a',
        '/crawl/b',
        '/crawl/b?ref=1',
        '/crawl/b?ref=2',
        '/crawl/private/secret',
        '/crawl/a#section',
        `http://localhost:${port}/crawl/external`,
        '/article',
        'mailto:x@example.com',
        'javascript:void(0)',
      ]);
    case '/crawl/a':
      return page('Crawl A', 'Section A of the crawl fixture, one level down.', ['/crawl/a/1']);
    case '/crawl/a/1':
      return page('Crawl A1', 'Page one inside section A, two levels down.', ['/crawl/a/1/deep']);
    case '/crawl/a/1/deep':
      return page('Crawl A1 deep', 'The deepest page; it links back to the root, closing a cycle.', ['/crawl']);
    case '/crawl/b':
      return page('Crawl B', 'Section B of the crawl fixture; query strings lead here too.', ['/crawl/a']);
    case '/crawl/orphan-1':
      return page('Crawl orphan 1', 'Nothing links here; only the plain sitemap lists this page.');
    case '/crawl/orphan-2':
      return page('Crawl orphan 2', 'Nothing links here; only the gzip sitemap lists this page.');
    case '/crawl/private/secret':
      return page('Crawl private secret', 'robots.txt disallows this page; a polite crawler never fetches it.');
    case '/crawl/private/hidden':
      return page('Crawl private hidden', 'robots.txt disallows this page, which only a sitemap lists.');
    case '/crawl/external':
      return page('Crawl external', 'Reached through another host name of the same server.');
    case '/crawl/slow':
      return page(
        'Crawl slow',
        'Each linked page answers after a delay.',
        Array.from({ length: SLOW_PAGES }, (_, i) => `/crawl/slow/${i + 1}`),
      );
    case '/crawl/big':
      return page(
        'Crawl big',
        'Many small pages, for limits and pagination.',
        Array.from({ length: BIG_PAGES }, (_, i) => `/crawl/big/${i + 1}`),
      );
  }
  const big = /^\/crawl\/big\/(\d+)$/.exec(path);
  if (big && Number(big[1]) >= 1 && Number(big[1]) <= BIG_PAGES) return page(`Crawl big ${big[1]}`, `Small page number ${big[1]} of the big area.`);
  return undefined;
}

/**
 * Serves the crawl fixture's paths; returns false for any other path so the main handler goes on.
 * `origin` is the site's own origin (links and sitemaps name it, whatever host the request used).
 */
export function serveCrawlTree(path: string, origin: string, res: http.ServerResponse): boolean {
  switch (path) {
    case '/robots.txt':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`User-agent: *\nDisallow: /crawl/private/\n\nSitemap: ${origin}/sitemap.xml\n`);
      return true;
    case '/sitemap.xml':
      res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
          `  <sitemap><loc>${origin}/sitemaps/crawl.xml</loc></sitemap>\n` +
          `  <sitemap><loc>${origin}/sitemaps/more.xml.gz</loc></sitemap>\n` +
          `</sitemapindex>\n`,
      );
      return true;
    case '/sitemaps/crawl.xml':
      res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
      res.end(urlset(origin, SITEMAP_PATHS.slice(0, 3)));
      return true;
    case '/sitemaps/more.xml.gz':
      // A compressed file, not a compressed transfer: no Content-Encoding header.
      res.writeHead(200, { 'content-type': 'application/x-gzip' });
      res.end(zlib.gzipSync(urlset(origin, SITEMAP_PATHS.slice(3))));
      return true;
  }
  const slow = /^\/crawl\/slow\/(\d+)$/.exec(path);
  if (slow && Number(slow[1]) >= 1 && Number(slow[1]) <= SLOW_PAGES) {
    const n = slow[1];
    const timer = setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page(`Crawl slow ${n}`, `Slow page ${n}, answered after ${SLOW_PAGE_MS} ms.`));
    }, SLOW_PAGE_MS);
    res.on('close', () => clearTimeout(timer));
    return true;
  }
  const html = staticPage(path, origin);
  if (html === undefined) return false;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
  return true;
}
