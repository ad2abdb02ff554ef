import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { CrawlScope } from './scope.js';

const reason = (s: CrawlScope, url: string, depth = 1) => {
  const v = s.check(url, depth);
  return v.ok ? 'ok' : v.reason;
};

describe('CrawlScope: hosts', () => {
  const s = new CrawlScope('http://www.example.com/');

  it('keeps the start host, with or without www and across http/https', () => {
    expect(reason(s, 'http://example.com/a')).toBe('ok');
    expect(reason(s, 'https://www.example.com/a')).toBe('ok');
    expect(reason(s, 'http://EXAMPLE.com/a')).toBe('ok');
  });

  it('refuses other hosts, other ports and subdomains by default', () => {
    expect(reason(s, 'http://other.org/')).toBe('external');
    expect(reason(s, 'http://example.com.evil.org/')).toBe('external');
    expect(reason(s, 'http://notexample.com/')).toBe('external');
    expect(reason(s, 'http://example.com:8080/')).toBe('external');
    expect(reason(s, 'http://blog.example.com/')).toBe('subdomain');
    expect(reason(s, 'http://a.b.example.com/')).toBe('subdomain');
  });

  it('admits subdomains with allowSubdomains and every host with allowExternalLinks', () => {
    const sub = new CrawlScope('http://example.com/', { allowSubdomains: true });
    expect(reason(sub, 'http://blog.example.com/x')).toBe('ok');
    expect(reason(sub, 'http://other.org/')).toBe('external');
    const ext = new CrawlScope('http://example.com/', { allowExternalLinks: true });
    expect(reason(ext, 'http://other.org/x')).toBe('ok');
    expect(reason(ext, 'http://blog.example.com/x')).toBe('ok');
    expect(reason(ext, 'http://example.com:8443/')).toBe('ok');
  });

  it('treats loopback names as different hosts', () => {
    const l = new CrawlScope('http://127.0.0.1:4000/crawl');
    expect(reason(l, 'http://localhost:4000/crawl/external')).toBe('external');
    expect(reason(l, 'http://127.0.0.1:4001/crawl/a')).toBe('external');
    expect(reason(l, 'http://127.0.0.1:4000/crawl/a')).toBe('ok');
  });

  it('refuses non-http URLs and garbage', () => {
    for (const u of ['mailto:x@example.com', 'javascript:void(0)', 'ftp://example.com/', 'not a url', '']) expect(reason(s, u)).toBe('not-http');
  });
});

describe('CrawlScope: start path', () => {
  it('keeps the start path and whatever is below it, by whole segments', () => {
    const s = new CrawlScope('http://e.com/docs');
    expect(reason(s, 'http://e.com/docs')).toBe('ok');
    expect(reason(s, 'http://e.com/docs/')).toBe('ok');
    expect(reason(s, 'http://e.com/docs/a/b?x=1')).toBe('ok');
    expect(reason(s, 'http://e.com/docsearch')).toBe('outside-path');
    expect(reason(s, 'http://e.com/')).toBe('outside-path');
    expect(reason(s, 'http://e.com/blog/docs')).toBe('outside-path');
  });

  it('treats a trailing slash and an index file in the start URL as its directory', () => {
    expect(reason(new CrawlScope('http://e.com/docs/'), 'http://e.com/docs/x')).toBe('ok');
    expect(reason(new CrawlScope('http://e.com/docs/index.html'), 'http://e.com/docs/x')).toBe('ok');
    expect(reason(new CrawlScope('http://e.com/docs/intro'), 'http://e.com/docs/other')).toBe('outside-path');
  });

  it('lets everything on the host through from the root or with crawlEntireDomain', () => {
    expect(reason(new CrawlScope('http://e.com'), 'http://e.com/any/where')).toBe('ok');
    expect(reason(new CrawlScope('http://e.com/docs', { crawlEntireDomain: true }), 'http://e.com/blog')).toBe('ok');
  });

  it('does not apply the path rule to admitted external hosts', () => {
    const s = new CrawlScope('http://e.com/docs', { allowExternalLinks: true });
    expect(reason(s, 'http://other.org/anything')).toBe('ok');
  });
});

describe('CrawlScope: include and exclude patterns', () => {
  it('tests patterns against the pathname, unanchored', () => {
    const s = new CrawlScope('http://e.com/', { includePaths: ['^/blog/', 'news'] });
    expect(reason(s, 'http://e.com/blog/post')).toBe('ok');
    expect(reason(s, 'http://e.com/x/news/1')).toBe('ok');
    expect(reason(s, 'http://e.com/about')).toBe('not-included');
    // The query is not part of the pathname.
    expect(reason(s, 'http://e.com/about?blog/=1')).toBe('not-included');
  });

  it('lets exclude win over include', () => {
    const s = new CrawlScope('http://e.com/', { includePaths: ['^/blog'], excludePaths: ['/drafts/'] });
    expect(reason(s, 'http://e.com/blog/drafts/1')).toBe('excluded');
    expect(reason(s, 'http://e.com/blog/1')).toBe('ok');
    const ex = new CrawlScope('http://e.com/crawl', { excludePaths: ['/b$', '^/crawl/a/'] });
    expect(reason(ex, 'http://e.com/crawl/b?ref=1')).toBe('excluded');
    expect(reason(ex, 'http://e.com/crawl/a')).toBe('ok');
    expect(reason(ex, 'http://e.com/crawl/a/1')).toBe('excluded');
  });

  it('tests the whole URL with regexOnFullURL', () => {
    const s = new CrawlScope('http://e.com/', { includePaths: ['\\?page=\\d+$'], regexOnFullURL: true });
    expect(reason(s, 'http://e.com/list?page=2')).toBe('ok');
    expect(reason(s, 'http://e.com/list')).toBe('not-included');
    const host = new CrawlScope('http://e.com/', { excludePaths: ['^https://'], regexOnFullURL: true });
    expect(reason(host, 'https://e.com/x')).toBe('excluded');
    expect(reason(host, 'http://e.com/x')).toBe('ok');
  });

  it('judges the whole path, however long', () => {
    expect(reason(new CrawlScope('http://e.com/', { includePaths: ['z$'] }), `http://e.com/${'a'.repeat(10_000)}z`)).toBe('ok');
    expect(reason(new CrawlScope('http://e.com/', { excludePaths: ['^/a+$'] }), `http://e.com/${'a'.repeat(10_000)}z`)).toBe('ok');
    expect(reason(new CrawlScope('http://e.com/', { includePaths: ['^/a'] }), `http://e.com/${'a'.repeat(10_000)}z`)).toBe('ok');
  });
});

describe('CrawlScope: depth', () => {
  it('allows depth up to maxDiscoveryDepth, and any depth without one', () => {
    const s = new CrawlScope('http://e.com/', { maxDiscoveryDepth: 1 });
    expect(reason(s, 'http://e.com/a', 0)).toBe('ok');
    expect(reason(s, 'http://e.com/a', 1)).toBe('ok');
    expect(reason(s, 'http://e.com/a', 2)).toBe('depth');
    expect(reason(new CrawlScope('http://e.com/', { maxDiscoveryDepth: 0 }), 'http://e.com/a', 1)).toBe('depth');
    expect(reason(new CrawlScope('http://e.com/'), 'http://e.com/a', 500)).toBe('ok');
  });

  it('reports host and path problems before depth', () => {
    const s = new CrawlScope('http://e.com/docs', { maxDiscoveryDepth: 0 });
    expect(reason(s, 'http://other.org/', 3)).toBe('external');
    expect(reason(s, 'http://e.com/blog', 3)).toBe('outside-path');
  });
});

describe('CrawlScope: patterns', () => {
  it('answers a catastrophically backtracking pattern instead of stalling the process', () => {
    const s = new CrawlScope('http://e.com/', { excludePaths: ['^/(a+)+$'], includePaths: ['^/(?:a+)+(?<=a)$', '!'], crawlEntireDomain: true });
    expect(s.check(`http://e.com/${'a'.repeat(10_000)}!`, 1)).toEqual({ ok: true });
    expect(s.check('http://e.com/aaa', 1)).toEqual({ ok: false, reason: 'excluded' });
  });

  it('makes the scope constructor refuse bad patterns too', () => {
    expect(() => new CrawlScope('http://e.com/', { excludePaths: ['*'] })).toThrow(ApiError);
    expect(() => new CrawlScope('http://e.com/', { includePaths: ['(a+)+(?=b)'] })).toThrow(ApiError);
  });
});
