import { describe, expect, it } from 'vitest';
import { resolveLink, urlKey } from './normalize.js';

const keep = { ignoreQueryParameters: false };
const drop = { ignoreQueryParameters: true };

describe('urlKey', () => {
  it('folds case of scheme and host, default ports and the fragment', () => {
    const k = urlKey('HTTP://Example.COM:80/Path#top', keep);
    expect(k).toBe('http://example.com/Path');
    expect(urlKey('https://example.com:443/', keep)).toBe('https://example.com/');
    expect(urlKey('http://example.com./a', keep)).toBe('http://example.com/a');
  });

  it('keeps path case, non-default ports and the scheme apart', () => {
    expect(urlKey('http://example.com/A', keep)).not.toBe(urlKey('http://example.com/a', keep));
    expect(urlKey('http://example.com:8080/', keep)).toBe('http://example.com:8080/');
    expect(urlKey('http://example.com/', keep)).not.toBe(urlKey('https://example.com/', keep));
  });

  it('treats a trailing slash on a non-root path as absent, and keeps the root', () => {
    expect(urlKey('http://example.com/docs/', keep)).toBe(urlKey('http://example.com/docs', keep));
    expect(urlKey('http://example.com/docs//', keep)).toBe('http://example.com/docs');
    expect(urlKey('http://example.com', keep)).toBe('http://example.com/');
    expect(urlKey('http://example.com/', keep)).toBe('http://example.com/');
  });

  it('folds index files into their directory', () => {
    expect(urlKey('http://example.com/docs/index.html', keep)).toBe('http://example.com/docs');
    expect(urlKey('http://example.com/index.htm', keep)).toBe('http://example.com/');
    expect(urlKey('http://example.com/INDEX.PHP?a=1', keep)).toBe('http://example.com/?a=1');
    expect(urlKey('http://example.com/docs/index.html.bak', keep)).toBe('http://example.com/docs/index.html.bak');
  });

  it('sorts query parameters stably and drops an empty query', () => {
    expect(urlKey('http://e.com/p?b=2&a=1', keep)).toBe('http://e.com/p?a=1&b=2');
    expect(urlKey('http://e.com/p?a=2&b=1&a=1', keep)).toBe('http://e.com/p?a=2&a=1&b=1');
    expect(urlKey('http://e.com/p?', keep)).toBe('http://e.com/p');
    expect(urlKey('http://e.com/p?&&', keep)).toBe('http://e.com/p');
  });

  it('drops the query when asked', () => {
    expect(urlKey('http://e.com/crawl/b?ref=1', drop)).toBe('http://e.com/crawl/b');
    expect(urlKey('http://e.com/crawl/b?ref=2#x', drop)).toBe(urlKey('http://e.com/crawl/b/', drop));
  });

  it('normalises percent-escapes', () => {
    expect(urlKey('http://e.com/%7euser/a%2fb', keep)).toBe('http://e.com/~user/a%2Fb');
    expect(urlKey('http://e.com/p?q=%7e', keep)).toBe('http://e.com/p?q=~');
  });

  it('returns unparseable input trimmed instead of throwing', () => {
    expect(urlKey('  not a url ', keep)).toBe('not a url');
  });
});

describe('resolveLink', () => {
  const base = 'http://example.com/docs/intro';

  it('resolves relative, root-relative and protocol-relative links and drops the fragment', () => {
    expect(resolveLink('next', base)).toBe('http://example.com/docs/next');
    expect(resolveLink('/a?x=1#frag', base)).toBe('http://example.com/a?x=1');
    expect(resolveLink('//cdn.example.net/x', base)).toBe('http://cdn.example.net/x');
    expect(resolveLink('  https://Other.org/  ', base)).toBe('https://other.org/');
    expect(resolveLink('#top', base)).toBe('http://example.com/docs/intro');
  });

  it('refuses everything that is not an http(s) page address', () => {
    for (const href of ['mailto:x@example.com', 'javascript:void(0)', 'tel:+1555', 'data:text/html,hi', 'ftp://e.com/f', 'file:///etc/passwd', '', '   ', 'http://', 'http://user:pw@e.com/']) {
      expect(resolveLink(href, base), href).toBeUndefined();
    }
    expect(resolveLink(`/${'a'.repeat(9000)}`, base)).toBeUndefined();
  });

  it('keeps odd but valid ports and IPv6 hosts', () => {
    expect(resolveLink('http://example.com:65535/x', base)).toBe('http://example.com:65535/x');
    expect(resolveLink('http://[::1]:8080/x', base)).toBe('http://[::1]:8080/x');
    expect(resolveLink('http://example.com:99999/x', base)).toBeUndefined();
  });
});
