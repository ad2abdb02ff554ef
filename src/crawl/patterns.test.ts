import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { compilePatterns, patternError } from './patterns.js';

const longPath = (n: number) => `/redos/${'a'.repeat(n)}!`;

describe('path patterns: linear time', () => {
  it('refuses a lookahead, naming the pattern and why', () => {
    const err = patternError('(a+)+(?=b)');
    expect(err).toContain('"(a+)+(?=b)"');
    expect(err).toMatch(/lookahead/i);
    expect(patternError('^/docs/(?!draft)')).toMatch(/lookahead/i);
  });

  it('reads (?= inside a character class or after an escape as plain characters', () => {
    expect(patternError('^/[(?=]x')).toBeUndefined();
    expect(patternError('^/\\(?=x')).toBeUndefined();
    expect(patternError('^/\\\\(?=x)')).toMatch(/lookahead/i);
  });

  it('refuses backreferences, and allows an escaped backslash before a digit', () => {
    expect(patternError('^/(\\w+)/\\1$')).toMatch(/backreference/i);
    expect(patternError('^/(?<p>x)\\k<p>')).toMatch(/backreference/i);
    expect(patternError('^/v\\\\1')).toBeUndefined();
  });

  it('runs a pattern that is exponential for a backtracking engine over a 10,000-character path', () => {
    // Both take seconds-to-forever on a backtracking engine at a few dozen characters.
    const [plus] = compilePatterns(['^/redos/(a+)+$'], 'includePaths');
    const [behind] = compilePatterns(['^/redos/(?:a+)+(?<=a)$'], 'includePaths');
    expect(plus!.test(longPath(10_000))).toBe(false);
    expect(plus!.test(`/redos/${'a'.repeat(10_000)}`)).toBe(true);
    expect(behind!.test(longPath(10_000))).toBe(false);
    expect(behind!.test(`/redos/${'a'.repeat(10_000)}`)).toBe(true);
  });

  it('keeps JavaScript syntax and meaning: escapes, classes, named groups, lookbehinds', () => {
    const test = (p: string, s: string) => compilePatterns([p], 'includePaths')[0]!.test(s);
    expect(test('^\\/blog\\/\\d{4}\\/', '/blog/2024/x')).toBe(true);
    expect(test('\\u0041', '/A')).toBe(true);
    expect(test('^/(?<year>\\d+)/', '/12/')).toBe(true);
    expect(test('(?<=/docs/)v\\d', '/docs/v2')).toBe(true);
    expect(test('(?<!/docs/)v\\d', '/docs/v2')).toBe(false);
    expect(test('[^/]+\\.pdf$', '/a/b.pdf')).toBe(true);
  });

  it('refuses what JavaScript refuses, and repeat counts RE2 cannot compile, with the reason', () => {
    expect(patternError('(?i)docs')).toMatch(/Invalid regular expression/);
    expect(patternError('a{1001}')).toMatch(/"a\{1001\}".*repeat/);
  });

  it('throws the catalog 400 naming each bad pattern by field and index', () => {
    let err: unknown;
    try {
      compilePatterns(['^/ok', '(a+)+(?=b)', '(unclosed'], 'includePaths');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    const api = err as ApiError;
    expect(api.status).toBe(400);
    const details = api.details as Array<{ path: (string | number)[]; message: string }>;
    expect(details.map((d) => d.path.join('.'))).toEqual(['includePaths.1', 'includePaths.2']);
    expect(details[0]!.message).toContain('(a+)+(?=b)');
    expect(details[1]!.message).toMatch(/unclosed/);
  });
});
