import { describe, expect, it } from 'vitest';
import { looksBlocked, needsJavaScript, visibleTextLength } from './detect.js';

describe('does a page need JavaScript?', () => {
  it('says yes for an empty mount point', () => {
    expect(needsJavaScript('<html><body><div id="root"></div><script src="/app.js"></script></body></html>')).toBe(true);
  });
  it('says yes for a "please enable JavaScript" shell', () => {
    expect(needsJavaScript('<html><body><noscript>You need to enable JavaScript to run this app.</noscript><script>x()</script></body></html>')).toBe(true);
  });
  it('says no for a page with real text, scripts or not', () => {
    const text = '<p>' + 'Real words on a real page. '.repeat(20) + '</p>';
    expect(needsJavaScript(`<html><body><div id="root"></div>${text}<script>x()</script></body></html>`)).toBe(false);
  });
  it('says no for a short static page without scripts', () => {
    expect(needsJavaScript('<html><body><h1>Hi</h1></body></html>')).toBe(false);
  });
});

describe('how much text does a page show?', () => {
  const page = '<html><head><title>Not counted</title></head><body><script>var a = "<p>not text</p>";</script><!-- a comment --> Hello &amp; <b>world</b>  <svg><text>a label</text></svg></body></html>';
  it('counts the body text outside tags, comments, scripts and the like, a run of white space or an entity as one', () => {
    expect(visibleTextLength(page)).toBe('Hello world'.length);
  });
  it('stops counting once it has seen enough', () => {
    expect(visibleTextLength(page, 3)).toBe(3);
  });
  it('keeps a shell a shell behind a large inline script', () => {
    const bundle = `<script>${'window.__STATE__ = {"a": "<div>x</div>"};'.repeat(5000)}</script>`;
    expect(needsJavaScript(`<html><body><div id="app"></div>${bundle}</body></html>`)).toBe(true);
  });
});

describe('was the request blocked?', () => {
  it('treats 403, 429 and 503 as blocked', () => {
    expect(looksBlocked(403, '')).toBe(true);
    expect(looksBlocked(429, undefined)).toBe(true);
    expect(looksBlocked(200, '<p>ok</p>')).toBe(false);
  });
  it('spots challenge pages served with 200', () => {
    expect(looksBlocked(200, '<html><head><title>Just a moment...</title></head></html>')).toBe(true);
  });
});
