import { describe, expect, it } from 'vitest';
import { LinkFilter } from './link-filter.js';
import { parseRobots } from './robots.js';
import { CrawlScope } from './scope.js';

const robots = parseRobots('http://e.com', 'User-agent: *\nDisallow: /private');

describe('LinkFilter', () => {
  it('keys each page once, keeps the first spelling and splits what robots.txt refuses', () => {
    const f = new LinkFilter(new CrawlScope('http://e.com/'), robots, false);
    const out = f.filter([
      { url: 'http://e.com/a#top', depth: 1 },
      { url: 'http://e.com/a/', depth: 1 },
      { url: 'http://other.org/', depth: 1 },
      { url: 'http://e.com/private/x', depth: 1 },
    ]);
    expect(out.allowed).toEqual([{ urlKey: 'http://e.com/a', url: 'http://e.com/a', depth: 1 }]);
    expect(out.blocked).toEqual([{ urlKey: 'http://e.com/private/x', url: 'http://e.com/private/x', depth: 1 }]);
  });

  it('gives the same answer for a link seen again, on another page at another depth', () => {
    const f = new LinkFilter(new CrawlScope('http://e.com/', { maxDiscoveryDepth: 2 }), null, true);
    const link = 'http://e.com/b?x=1#frag';
    expect(f.filter([{ url: link, depth: 1 }]).allowed).toEqual([{ urlKey: 'http://e.com/b', url: 'http://e.com/b', depth: 1 }]);
    expect(f.filter([{ url: 'http://e.com/b?x=1#other', depth: 2 }]).allowed).toEqual([{ urlKey: 'http://e.com/b', url: 'http://e.com/b', depth: 2 }]);
    // Depth is the page's, so a link kept at one depth is still dropped past the bound.
    expect(f.filter([{ url: link, depth: 3 }]).allowed).toEqual([]);
  });

  it('exempts the start URL from the scope rules but not from robots.txt', () => {
    const f = new LinkFilter(new CrawlScope('http://e.com/docs/', { excludePaths: ['private'] }), robots, false);
    expect(f.filter([{ url: 'http://e.com/private/', depth: 0 }]).blocked).toEqual([]);
    expect(f.filter([{ url: 'http://e.com/private/', depth: 0, start: true }]).blocked).toEqual([{ urlKey: 'http://e.com/private', url: 'http://e.com/private/', depth: 0 }]);
  });

  it('tells fragments apart when patterns are tested on the whole URL', () => {
    const f = new LinkFilter(new CrawlScope('http://e.com/', { excludePaths: ['#skip'], regexOnFullURL: true }), null, false);
    expect(f.filter([{ url: 'http://e.com/c#keep', depth: 1 }]).allowed).toHaveLength(1);
    expect(f.filter([{ url: 'http://e.com/c#skip', depth: 1 }]).allowed).toHaveLength(0);
    expect(f.filter([{ url: 'http://e.com/c#keep', depth: 1 }]).allowed).toHaveLength(1);
  });
});
