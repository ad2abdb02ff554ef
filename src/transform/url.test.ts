import { describe, expect, it } from 'vitest';
import { makeResolver } from './url.js';

describe('makeResolver', () => {
  // File names and fragments are joined by hand; every answer must be the URL parser's.
  const bases = [
    'https://www.postgresql.org/docs/15/',
    'https://a.example/c/d.html?x=1#f',
    'http://h.example',
    'https://h.example/p?q',
    'https://h.example/x?',
    'https://h.example/x?#',
    'https://h.example/#',
    'https://user:pw@h.example:8080/x/y',
    'https://h.example/a%20b/c?a=b/c',
    'file:///srv/docs/index.html',
  ];
  const refs = ['x.html', 'x.html#a', '#', '#frag', '#a:b', 'a-b_c~d.e', '..', '.', '.x', 'a:b', 'A.HTML', '~u', 'x#', 'x#y#z', 'a b', '/abs', '?q', '//other.example/'];

  it('resolves every reference as the URL parser does', () => {
    for (const base of bases) {
      const resolve = makeResolver(new URL(base));
      for (const ref of refs) expect(resolve(ref, true), `${ref} against ${base}`).toBe(new URL(ref, base).href);
    }
  });

  it('decodes character references before resolving', () => {
    expect(makeResolver(new URL('https://h.example/a/'))('b.html#x&amp;y')).toBe('https://h.example/a/b.html#x&y');
  });
});
