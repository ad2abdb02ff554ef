import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpEngine } from '../scrape/engines/http.js';
import { AddressPolicy, SsrfGuard } from '../security/ssrf.js';
import { fetchRobotsTxt, loadRobots, parseRobots } from './robots.js';

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A real server per origin, so each test gets its own robots.txt behaviour. */
async function serve(route: Route): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer(route);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const guard = new SsrfGuard(new AddressPolicy(['127.0.0.0/8']));
const strictGuard = new SsrfGuard(new AddressPolicy());
const engine = new HttpEngine({ guard, maxResponseBytes: 5 * 1024 * 1024 });
afterAll(() => engine.close());

describe('parseRobots', () => {
  const text = [
    'User-agent: *',
    'Disallow: /private/',
    'Allow: /private/open',
    'Disallow: /*.pdf$',
    'Crawl-delay: 2.5',
    '',
    'User-agent: GleanerBot',
    'Disallow: /no-gleaner',
    'Crawl-delay: 1',
    '',
    'User-agent: OtherBot',
    'Disallow: /',
    '',
    'Sitemap: https://example.com/sitemap.xml',
    'Sitemap: /relative-sitemap.xml',
    'Sitemap: ftp://example.com/nope.xml',
    'Sitemap: https://example.com/sitemap.xml',
  ].join('\n');

  it('applies the group for our user agent, falling back to *', () => {
    const r = parseRobots('https://example.com', text);
    expect(r.isAllowed('https://example.com/no-gleaner')).toBe(false);
    // Our group replaces *, so *'s rules do not apply to us.
    expect(r.isAllowed('https://example.com/private/x')).toBe(true);
    expect(r.crawlDelayMs()).toBe(1000);

    const star = parseRobots('https://example.com', text, 'SomeoneElse');
    expect(star.isAllowed('https://example.com/private/x')).toBe(false);
    expect(star.isAllowed('https://example.com/private/open')).toBe(true);
    expect(star.isAllowed('https://example.com/doc.pdf')).toBe(false);
    expect(star.isAllowed('https://example.com/doc.pdf?x')).toBe(true);
    expect(star.crawlDelayMs()).toBe(2500);
    expect(parseRobots('https://example.com', text, 'OtherBot/2.1').isAllowed('https://example.com/')).toBe(false);
  });

  it('lists absolute http(s) sitemaps once', () => {
    expect(parseRobots('https://example.com', text).sitemaps()).toEqual(['https://example.com/sitemap.xml', 'https://example.com/relative-sitemap.xml']);
  });

  it('allows everything for empty or garbage text, and for URLs of other origins', () => {
    const empty = parseRobots('http://e.com', '');
    expect(empty.isAllowed('http://e.com/anything')).toBe(true);
    expect(empty.crawlDelayMs()).toBe(0);
    expect(empty.sitemaps()).toEqual([]);
    const junk = parseRobots('http://e.com', '<html><body>Not found\u0000\uFFFD</body></html>\nDisallow');
    expect(junk.isAllowed('http://e.com/x')).toBe(true);
    const all = parseRobots('http://e.com', 'User-agent: *\nDisallow: /');
    expect(all.isAllowed('http://e.com/x')).toBe(false);
    expect(all.isAllowed('http://other.org/x')).toBe(true);
    expect(all.isAllowed('https://e.com/x')).toBe(true);
    expect(all.isAllowed('not a url')).toBe(true);
  });

  it('ignores nonsense crawl delays and caps sitemap lists', () => {
    expect(parseRobots('http://e.com', 'User-agent: *\nCrawl-delay: soon').crawlDelayMs()).toBe(0);
    expect(parseRobots('http://e.com', 'User-agent: *\nCrawl-delay: -5').crawlDelayMs()).toBe(0);
    const many = Array.from({ length: 500 }, (_, i) => `Sitemap: http://e.com/s${i}.xml`).join('\n');
    expect(parseRobots('http://e.com', many).sitemaps()).toHaveLength(50);
  });
});

describe('fetchRobotsTxt / loadRobots', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  const site = async (route: Route) => {
    const s = await serve(route);
    servers.push(s);
    return s.origin;
  };
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('fetches and parses the site robots.txt', async () => {
    const origin = await site((req, res) => {
      if (req.url !== '/robots.txt') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /x/\nCrawl-delay: 3\nSitemap: /sm.xml\n');
    });
    const r = await loadRobots(`${origin}/some/page?q=1`, engine, guard);
    expect(r.isAllowed(`${origin}/x/1`)).toBe(false);
    expect(r.isAllowed(`${origin}/y`)).toBe(true);
    expect(r.crawlDelayMs()).toBe(3000);
    expect(r.sitemaps()).toEqual([`${origin}/sm.xml`]);
  });

  it('follows a redirect to the robots.txt', async () => {
    const origin = await site((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(301, { location: '/real-robots.txt' }).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /gone');
    });
    expect((await loadRobots(origin, engine, guard)).isAllowed(`${origin}/gone`)).toBe(false);
  });

  it.each([
    ['404', 404],
    ['403', 403],
    ['500', 500],
    ['503', 503],
  ])('allows everything when robots.txt answers %s', async (_name, status) => {
    const origin = await site((_req, res) => void res.writeHead(status, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /'));
    expect(await fetchRobotsTxt(origin, engine, guard)).toBe('');
    expect((await loadRobots(origin, engine, guard)).isAllowed(`${origin}/page`)).toBe(true);
  });

  it('allows everything when the server never answers in time', async () => {
    const origin = await site(() => undefined);
    expect(await fetchRobotsTxt(origin, engine, guard, undefined, 300)).toBe('');
  });

  it('allows everything when nothing listens', async () => {
    const s = await serve(() => undefined);
    await s.close();
    expect(await fetchRobotsTxt(s.origin, engine, guard)).toBe('');
  });

  it('goes through the SSRF guard', async () => {
    let hits = 0;
    const origin = await site((_req, res) => {
      hits++;
      res.writeHead(200).end('User-agent: *\nDisallow: /');
    });
    expect(await fetchRobotsTxt(origin, engine, strictGuard)).toBe('');
    expect(hits).toBe(0);
  });

  it('rejects when the caller cancels', async () => {
    const origin = await site(() => undefined);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await expect(fetchRobotsTxt(origin, engine, guard, ac.signal)).rejects.toBeTruthy();
  });

  it('reads at most 512 KiB', async () => {
    const origin = await site((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`User-agent: *\n${'# filler line\n'.repeat(60_000)}Disallow: /late\n`);
    });
    const text = await fetchRobotsTxt(origin, engine, guard);
    expect(text.length).toBe(512 * 1024);
    expect(parseRobots(origin, text).isAllowed(`${origin}/late`)).toBe(true);
  });
});
