/**
 * Inline markup that HTML nests and markdown cannot: links and pictures inside code, code inside
 * code, code spans side by side. Each case is written, then read back with a CommonMark reader to
 * check that a reader sees what the page shows.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { toMarkdown } from './extract.js';
import type { MdMark } from './markdown-types.js';
import { MarkdownWriter } from './markdown-writer.js';

const BASE = 'https://example.com/manual/page.html';
const md = (html: string) => toMarkdown(html, BASE);
const reader = new MarkdownIt('commonmark');
/** The HTML a CommonMark reader makes of the markdown, without the paragraph around it. */
const rendered = (markdown: string) => reader.renderInline(markdown);

describe('inline markup inside code', () => {
  it('writes a link inside code as a link whose text is code, the code around it beside it', () => {
    const out = md('<p>Write to <code>&lt;<a href="mailto:ada@example.org">ada@example.org</a>&gt;</code> today.</p>');
    expect(out).toBe('Write to `<`[`ada@example.org`](mailto:ada@example.org)`>` today.');
    expect(rendered(out)).toBe(
      'Write to <code>&lt;</code><a href="mailto:ada@example.org"><code>ada@example.org</code></a><code>&gt;</code> today.',
    );
  });

  it('keeps a link that is all of a code element', () => {
    const out = md('<p>See <code><a href="/api/open">open()</a></code>.</p>');
    expect(out).toBe('See [`open()`](https://example.com/api/open).');
    expect(rendered(out)).toBe('See <a href="https://example.com/api/open"><code>open()</code></a>.');
  });

  it('leaves out emphasis and code nested in code: one span of the code\'s text', () => {
    const out = md('<p>About <code>10^<em><code>n</code></em></code> rows.</p>');
    expect(out).toBe('About `10^n` rows.');
    expect(rendered(out)).toBe('About <code>10^n</code> rows.');
  });

  it('writes a compound key press as one span', () => {
    const out = md('<p>Press <kbd><kbd>Ctrl</kbd>+<kbd>C</kbd></kbd> to stop.</p>');
    expect(out).toBe('Press `Ctrl+C` to stop.');
    expect(rendered(out)).toBe('Press <code>Ctrl+C</code> to stop.');
  });

  it('writes a line break inside code as a space: a code span is one line', () => {
    expect(md('<p><code>SELECT 1<br>FROM t</code></p>')).toBe('`SELECT 1 FROM t`');
  });

  it('stops the code span for a picture inside it', () => {
    const out = md('<p><code>a<img src="/i/arrow.png" alt="arrow">b</code></p>');
    expect(out).toBe('`a`![arrow](https://example.com/i/arrow.png)`b`');
    expect(rendered(out)).toBe('<code>a</code><img src="https://example.com/i/arrow.png" alt="arrow" /><code>b</code>');
  });
});

describe('code spans side by side', () => {
  it('continues a code span that another follows with nothing between them', () => {
    const out = md('<p>Type <code>a</code><code>b</code> here.</p>');
    expect(out).toBe('Type `ab` here.');
    expect(rendered(out)).toBe('Type <code>ab</code> here.');
  });

  it('keeps two code spans apart when text or a space parts them', () => {
    expect(md('<p><code>a</code> <code>b</code>, <kbd>Ctrl</kbd>+<kbd>C</kbd></p>')).toBe('`a` `b`, `Ctrl`+`C`');
  });

  it('fences a continued span by the longest backtick run of both halves', () => {
    const out = md('<p><code>x`</code><code>y</code> and <code>p</code><code>q``r</code></p>');
    expect(out).toBe('`` x`y `` and ``` pq``r ```');
    expect(rendered(out)).toBe('<code>x`y</code> and <code>pq``r</code>');
  });
});

describe('code spans holding backticks', () => {
  it('fences them with a longer run, padded so an edge backtick is not the fence', () => {
    const out = md('<p><code>`tick`</code> and <code>a``b</code></p>');
    expect(out).toBe('`` `tick` `` and ``` a``b ```');
    expect(rendered(out)).toBe('<code>`tick`</code> and <code>a``b</code>');
  });
});

describe('cutting back output around nested code', () => {
  const fresh = (): MdMark => ({
    sep: 0, sepPrefix: '', space: false, lineStart: true, fresh: 0, flushed: 0, cells: 0, rows: 0, rowOpen: false, heading: '', cellBreak: false, lineBreak: false,
  });

  it('leaves the code span whole when a link cut from inside it goes', () => {
    const out: string[] = [];
    const w = new MarkdownWriter(out);
    w.open('p', undefined);
    w.open('code', undefined);
    w.text('x');
    const m = fresh();
    w.mark(m);
    const start = out.length;
    w.open('a', { url: 'https://example.com/share' });
    w.close();
    out.length = start;
    w.restore(m);
    w.text('y');
    w.close();
    w.close();
    expect(out.join('')).toBe('`xy`');
  });

  it('closes a code span again when the one that continued it is cut', () => {
    const out: string[] = [];
    const w = new MarkdownWriter(out);
    w.open('p', undefined);
    w.open('code', undefined);
    w.text('a``');
    w.close();
    const m = fresh();
    w.mark(m);
    const start = out.length;
    w.open('label', undefined);
    w.open('code', undefined);
    w.text('b```');
    w.close();
    w.close();
    out.length = start;
    w.restore(m);
    w.text(' after');
    w.close();
    expect(out.join('')).toBe('``` a`` ``` after');
  });
});
