import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpEngine } from '../scrape/engines/http.js';
import { AddressPolicy, SsrfGuard } from '../security/ssrf.js';
import { discoverSitemapUrls, maybeGunzip, parseSitemap } from './sitemap.js';

const urlset = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`;
const index = (maps: string[]) =>
  `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${maps.map((u) => `<sitemap><loc>${u}</loc></sitemap>`).join('')}</sitemapindex>`;

describe('parseSitemap', () => {
  const at = 'https://example.com/sitemap.xml';

  it('reads urlset entries with lastmod, entities, CDATA and namespace prefixes', () => {
    const xml = `<?xml version="1.0"?>
<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <sm:url><sm:loc> https://example.com/a?x=1&amp;y=2 </sm:loc><sm:lastmod>2026-01-15T10:00:00Z</sm:lastmod></sm:url>
  <sm:url><sm:loc><![CDATA[https://example.com/b]]></sm:loc>
    <image:image><image:loc>https://example.com/pic.jpg</image:loc></image:image></sm:url>
  <sm:url><sm:loc>/relative</sm:loc></sm:url>
  <sm:url><sm:loc>mailto:x@example.com</sm:loc></sm:url>
  <sm:url><sm:lastmod>2020-01-01</sm:lastmod></sm:url>
</sm:urlset>`;
    expect(parseSitemap(xml, at, 100)).toEqual({
      urls: [
        { url: 'https://example.com/a?x=1&y=2', lastmod: '2026-01-15T10:00:00Z' },
        { url: 'https://example.com/b' },
        { url: 'https://example.com/relative' },
      ],
      sitemaps: [],
    });
  });

  it('reads sitemap index entries as child sitemaps', () => {
    expect(parseSitemap(index(['https://example.com/s1.xml', 'https://example.com/s2.xml.gz']), at, 100)).toEqual({
      urls: [],
      sitemaps: ['https://example.com/s1.xml', 'https://example.com/s2.xml.gz'],
    });
  });

  it('reads plain-text sitemaps', () => {
    const text = '\uFEFFhttps://example.com/one\n\nnot a url\r\nhttp://example.com/two\njavascript:alert(1)\n';
    expect(parseSitemap(text, at, 100).urls.map((u) => u.url)).toEqual(['https://example.com/one', 'http://example.com/two']);
  });

  it('finds nothing in garbage, HTML and truncated XML, without throwing', () => {
    expect(parseSitemap('<html><body><a href="/x">x</a><p>Not found</p></body></html>', at, 100)).toEqual({ urls: [], sitemaps: [] });
    expect(parseSitemap('\u0000\u0001 binary junk <<<>>> &&&', at, 100).urls).toEqual([]);
    expect(parseSitemap('<urlset><url><loc>https://example.com/ok</loc></url><url><loc>https://exa', at, 100).urls).toEqual([{ url: 'https://example.com/ok' }]);
    expect(parseSitemap('', at, 100)).toEqual({ urls: [], sitemaps: [] });
  });

  it('caps the number of URLs and the size of a text node', () => {
    const many = urlset(Array.from({ length: 10_000 }, (_, i) => `https://example.com/p${i}`));
    const parsed = parseSitemap(many, at, 25);
    expect(parsed.urls).toHaveLength(25);
    expect(parsed.urls.at(-1)!.url).toBe('https://example.com/p24');
    const huge = `<urlset><url><loc>https://example.com/${'a'.repeat(100_000)}</loc></url></urlset>`;
    expect(parseSitemap(huge, at, 10).urls).toEqual([]);
  });
});

describe('maybeGunzip', () => {
  it('passes plain bytes through and inflates gzip', () => {
    const plain = Buffer.from('<urlset/>');
    expect(maybeGunzip(plain)).toBe(plain);
    expect(maybeGunzip(zlib.gzipSync(plain))!.toString()).toBe('<urlset/>');
  });

  it('gives up on corrupt archives and on gzip bombs', () => {
    expect(maybeGunzip(Buffer.from([0x1f, 0x8b, 1, 2, 3]))).toBeUndefined();
    const bomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(maybeGunzip(bomb, 1024 * 1024)).toBeUndefined();
  });
});

describe('discoverSitemapUrls', () => {
  const guard = new SsrfGuard(new AddressPolicy(['127.0.0.0/8']));
  const engine = new HttpEngine({ guard, maxResponseBytes: 20 * 1024 * 1024 });
  let server: http.Server;
  let origin = '';
  const hits = new Map<string, number>();
  const routes = new Map<string, (res: http.ServerResponse) => void>();
  const xml = (body: string | Buffer, type = 'application/xml') => (res: http.ServerResponse) => void res.writeHead(200, { 'content-type': type }).end(body);

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const path = req.url ?? '/';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const route = routes.get(path);
      if (route) route(res);
      else res.writeHead(404).end('not found');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const o = origin;
    routes.set('/sitemap.xml', xml(index([`${o}/s/plain.xml`, `${o}/s/packed.xml.gz`, `${o}/s/encoded.xml`, `${o}/s/missing.xml`])));
    routes.set('/s/plain.xml', xml(urlset([`${o}/a`, `${o}/b`, `${o}/a`])));
    routes.set('/s/packed.xml.gz', xml(zlib.gzipSync(urlset([`${o}/c`, `${o}/b`])), 'application/x-gzip'));
    routes.set('/s/encoded.xml', (res) => void res.writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'gzip' }).end(zlib.gzipSync(urlset([`${o}/d`]))));
    routes.set('/robots-map.xml', xml(urlset([`${o}/from-robots`])));
    // Cycles: an index listing itself, and two indexes listing each other.
    routes.set('/cycle/self.xml', xml(index([`${o}/cycle/self.xml`, `${o}/cycle/other.xml`])));
    routes.set('/cycle/other.xml', xml(index([`${o}/cycle/self.xml#again`, `${o}/cycle/pages.xml`])));
    routes.set('/cycle/pages.xml', xml(urlset([`${o}/cyc`])));
    // A chain deeper than any sane index nesting.
    for (let i = 0; i < 20; i++) routes.set(`/deep/${i}.xml`, xml(index([`${o}/deep/${i + 1}.xml`])));
    routes.set('/deep/20.xml', xml(urlset([`${o}/bottom`])));
    // Many child sitemaps.
    routes.set('/wide.xml', xml(index(Array.from({ length: 200 }, (_, i) => `${o}/wide/${i}.xml`))));
    for (let i = 0; i < 200; i++) routes.set(`/wide/${i}.xml`, xml(urlset([`${o}/w${i}`])));
    routes.set('/huge.xml', xml(urlset(Array.from({ length: 100_000 }, (_, i) => `${o}/h${i}`))));
    routes.set('/bomb.xml.gz', xml(zlib.gzipSync(Buffer.alloc(80 * 1024 * 1024, 0x20)), 'application/gzip'));
    routes.set('/garbage.xml', xml('<html><body>Oops, not a sitemap</body></html>', 'text/html'));
    routes.set('/slow.xml', () => undefined);
    routes.set('/private.xml', xml(index(['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/s.xml', `${o}/s/plain.xml`])));
  });
  afterAll(async () => {
    await engine.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const opts = { maxUrls: 1000, maxSitemaps: 50, timeoutMs: 10_000 };
  const paths = (entries: Array<{ url: string }>) => entries.map((e) => e.url.replace(origin, ''));

  it('follows /sitemap.xml through an index into plain, gzip-file and gzip-encoded sitemaps', async () => {
    const found = await discoverSitemapUrls(origin, [], engine, guard, opts);
    expect(paths(found)).toEqual(['/a', '/b', '/c', '/d']);
  });

  it('reads robots.txt sitemaps first and /sitemap.xml after, once each', async () => {
    hits.clear();
    const found = await discoverSitemapUrls(`${origin}/some/page`, [`${origin}/robots-map.xml`, `${origin}/sitemap.xml`], engine, guard, opts);
    expect(paths(found)).toEqual(['/from-robots', '/a', '/b', '/c', '/d']);
    expect(hits.get('/sitemap.xml')).toBe(1);
  });

  it('survives index cycles', async () => {
    hits.clear();
    const found = await discoverSitemapUrls(origin, [`${origin}/cycle/self.xml`], engine, guard, opts);
    expect(paths(found)).toContain('/cyc');
    expect(hits.get('/cycle/self.xml')).toBe(1);
    expect(hits.get('/cycle/other.xml')).toBe(1);
  });

  it('stops descending past the nesting limit', async () => {
    const found = await discoverSitemapUrls(origin, [`${origin}/deep/0.xml`], engine, guard, { ...opts, maxDepth: 5 });
    expect(paths(found)).not.toContain('/bottom');
    expect(paths(found)).toEqual(['/a', '/b', '/c', '/d']);
  });

  it('fetches at most maxSitemaps files', async () => {
    hits.clear();
    const found = await discoverSitemapUrls(origin, [`${origin}/wide.xml`], engine, guard, { ...opts, maxSitemaps: 10 });
    expect(found).toHaveLength(8);
    const fetched = [...hits.values()].reduce((a, b) => a + b, 0);
    expect(fetched).toBe(10);
  });

  it('caps a huge sitemap at maxUrls', async () => {
    const found = await discoverSitemapUrls(origin, [`${origin}/huge.xml`], engine, guard, { ...opts, maxUrls: 500 });
    expect(found).toHaveLength(500);
    expect(paths(found).slice(0, 2)).toEqual(['/h0', '/h1']);
  });

  it('skips gzip bombs, garbage, 404s and addresses the guard refuses', async () => {
    const found = await discoverSitemapUrls(origin, [`${origin}/bomb.xml.gz`, `${origin}/garbage.xml`, `${origin}/nope.xml`, `${origin}/private.xml`], engine, guard, opts);
    expect(paths(found)).toEqual(['/a', '/b', '/c', '/d']);
  });

  it('returns what it has when the time budget runs out', async () => {
    const found = await discoverSitemapUrls(origin, [`${origin}/robots-map.xml`, `${origin}/slow.xml`], engine, guard, { ...opts, timeoutMs: 400 });
    expect(paths(found)).toEqual(['/from-robots']);
  });

  it('rejects when the caller cancels', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('cancelled')), 100);
    await expect(discoverSitemapUrls(origin, [`${origin}/slow.xml`], engine, guard, { ...opts, signal: ac.signal })).rejects.toBeTruthy();
  });

  it('goes through the SSRF guard for the site itself', async () => {
    hits.clear();
    const strict = new SsrfGuard(new AddressPolicy());
    expect(await discoverSitemapUrls(origin, [], engine, strict, opts)).toEqual([]);
    expect(hits.size).toBe(0);
  });
});
