/**
 * Golden tests for markdown fidelity: one small hand-made page per rule, with the exact markdown
 * expected. They run with onlyMainContent off so the converter, not content selection, is what
 * they pin down; a last group checks that selection keeps the same rendering.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import type { TransformWants } from './types.js';
import { transformPage } from './index.js';

const BASE = 'https://site.example/guide/page.html';
const MD: TransformWants = { markdown: true, html: false, links: false, images: false };

function md(html: string, onlyMainContent = false): string {
  return transformPage(html, { baseUrl: BASE, onlyMainContent, includeTags: [], excludeTags: [], removeBase64Images: true }, MD)
    .markdown!;
}

describe('markdown fidelity', () => {
  it('renders headings as ATX headings at their level', () => {
    expect(md('<h1>Title</h1><h2>Sub</h2><h3>Third</h3><p>Text.</p>')).toBe('# Title\n\n## Sub\n\n### Third\n\nText.');
  });

  it('indents nested lists under their parent item, ordered lists numbered', () => {
    const html = '<ul><li>One<ul><li>One a</li><li>One b<ol><li>deep</li></ol></li></ul></li><li>Two</li></ul>';
    expect(md(html)).toBe('- One\n  - One a\n  - One b\n    1. deep\n- Two');
  });

  it('renders tables as GFM tables', () => {
    const html =
      '<table><thead><tr><th>Name</th><th>Price</th></tr></thead>' +
      '<tbody><tr><td>Tea</td><td>3</td></tr><tr><td>Cake</td><td>4</td></tr></tbody></table>';
    expect(md(html)).toBe('| Name | Price |\n| --- | --- |\n| Tea | 3 |\n| Cake | 4 |');
  });

  it('renders a header-less table as a GFM table too, every row kept', () => {
    const html = '<table><tr><td>Weight</td><td>2 kg</td></tr><tr><td>Colour</td><td>Red</td></tr></table>';
    expect(md(html)).toBe('| Weight | 2 kg |\n| --- | --- |\n| Colour | Red |');
  });

  it('fences code with the language from a language-* class, entities decoded', () => {
    const html = '<pre><code class="language-python">def f(x):\n    return x &lt; 2\n</code></pre>';
    expect(md(html)).toBe('```python\ndef f(x):\n    return x < 2\n```');
  });

  it('takes the language from lang-* on the pre', () => {
    expect(md('<pre class="lang-rust"><code>fn main() {}</code></pre>')).toBe('```rust\nfn main() {}\n```');
  });

  it('takes the language from a highlight-* wrapper', () => {
    expect(md('<div class="highlight-js"><pre>let a = 1;</pre></div>')).toBe('```js\nlet a = 1;\n```');
  });

  it('fences a <pre> without <code>, whitespace kept', () => {
    expect(md('<pre>plain   spaced\n  text</pre>')).toBe('```\nplain   spaced\n  text\n```');
  });

  it('fences code that itself holds a fence with a longer fence', () => {
    expect(md('<pre><code>echo ```\ndone</code></pre>')).toBe('````\necho ```\ndone\n````');
  });

  it('keeps a code block inside a list item indented under the item', () => {
    const html = '<ol><li>Build it<pre><code class="language-sh">make</code></pre></li><li>Run it</li></ol>';
    expect(md(html)).toBe('1. Build it\n\n   ```sh\n   make\n   ```\n\n2. Run it');
  });

  it('escapes pipes inside table cells and keeps columns aligned under a colspan', () => {
    const html = '<table><tr><th colspan="2">Both</th><th>C</th></tr><tr><td>a|b</td><td>x</td><td>y</td></tr></table>';
    expect(md(html)).toBe('| Both | | C |\n| --- | --- | --- |\n| a\\|b | x | y |');
  });

  it('escapes a pipe in a cell inside a link, emphasis or code too', () => {
    const html = '<table><tr><th>Tool</th><th>Use</th></tr><tr><td><a href="/t">cut|paste</a></td><td><b>in|out</b> <code>a|b</code></td></tr></table>';
    expect(md(html)).toBe('| Tool | Use |\n| --- | --- |\n| [cut\\|paste](https://site.example/t) | **in\\|out** `a\\|b` |');
  });

  it('renders block quotes, nested ones with a deeper marker', () => {
    const html = '<blockquote><p>Quoted words.</p><blockquote><p>Nested.</p></blockquote></blockquote>';
    expect(md(html)).toBe('> Quoted words.\n>\n> > Nested.');
  });

  it('quotes a list inside a block quote line by line', () => {
    expect(md('<blockquote><p>Quote:</p><ul><li>one</li><li>two</li></ul></blockquote>')).toBe('> Quote:\n>\n> - one\n> - two');
  });

  it('writes nothing for empty emphasis and keeps spaces outside markers', () => {
    expect(md('<p>x <strong> </strong> y <em>z </em>w</p>')).toBe('x y *z* w');
  });

  it('writes a line break inside a quote or a list item with the line prefix once', () => {
    expect(md('<blockquote><p>First line<br>second line</p></blockquote>')).toBe('> First line\\\n> second line');
    expect(md('<ul><li>First line<br>second line</li></ul>')).toBe('- First line\\\n  second line');
  });

  it('closes emphasis that ends with a line break before the break, and drops a break that ends its block', () => {
    const reader = new MarkdownIt();
    const signature = md('<p><strong>int parse(char *s)<br></strong>Reads a number.</p><p>Last line<br></p><p>Next.</p>');
    expect(signature).toBe('**int parse(char \\*s)**\\\nReads a number.\n\nLast line\n\nNext.');
    expect(reader.render(signature)).toContain('<strong>int parse(char *s)</strong><br>');
  });

  it('adds no markers for emphasis inside emphasis of its kind, as in a bold term with a bold name', () => {
    const reader = new MarkdownIt();
    const term = md('<dl><dt><strong>count</strong>(<em>items</em>)</dt><dd>How many.</dd></dl><p><em>one <em>two</em> three</em></p>');
    expect(term).toBe('**count(*items*)**\nHow many.\n\n*one two three*');
    expect(reader.render(term)).toContain('<strong>count(<em>items</em>)</strong>');
  });

  it('makes link and image URLs absolute against the page URL', () => {
    const html =
      '<p>See <a href="/docs/a?b=1">the docs</a> and <img src="img/x.png" alt="X"> and <a href="https://other.example/">other</a>.</p>';
    expect(md(html)).toBe(
      'See [the docs](https://site.example/docs/a?b=1) and ![X](https://site.example/guide/img/x.png) and [other](https://other.example/).',
    );
  });

  it('keeps an image’s alt text unless the page shows the same words anyway', () => {
    const html =
      '<p><img src="/a.png" alt="A heron on one leg"></p>' +
      '<figure><img src="/b.png" alt="Sunset over the bay"><figcaption>Sunset over the bay</figcaption></figure>' +
      '<p><a href="/item"><img src="/c.png" alt="Blue mug"> Blue enamel mug</a></p>';
    expect(md(html)).toBe(
      '![A heron on one leg](https://site.example/a.png)\n\n![](https://site.example/b.png)\n\nSunset over the bay\n\n' +
        '[![](https://site.example/c.png) Blue enamel mug](https://site.example/item)',
    );
  });

  it('honours <base href> when resolving', () => {
    const html = '<head><base href="https://cdn.example/assets/"></head><body><p><a href="x.html">x</a></p></body>';
    expect(md(html)).toBe('[x](https://cdn.example/assets/x.html)');
  });

  it('keeps definition lists readable: bold term, definition under it', () => {
    const html = '<dl><dt>Term</dt><dd>Its definition.</dd><dt>Other</dt><dd>Second definition.</dd></dl>';
    expect(md(html)).toBe('**Term**\nIts definition.\n\n**Other**\nSecond definition.');
  });

  it('leaks no XML prolog', () => {
    const html = '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html><html><body><p>Body text.</p></body></html>';
    expect(md(html)).toBe('Body text.');
  });

  it('decodes character references instead of leaving escaped-HTML soup', () => {
    const out = md('<p>Use &lt;div&gt; and &amp; in HTML, 5 &gt; 3.</p><p>Tom &amp; Jerry&nbsp;&#8212; &quot;cats&quot;</p>');
    expect(out).not.toMatch(/&(lt|gt|amp|quot|nbsp|#\d+);/);
    expect(out).toContain('Use \\<div> and & in HTML, 5 > 3.');
    expect(out).toContain('Tom & Jerry');
  });

  it('is deterministic: the same HTML always gives the same markdown', () => {
    const html = '<main><h1>T</h1><p>Some words, and more.</p><ul><li><a href="/a">a</a></li></ul></main>';
    const first = md(html, true);
    for (let i = 0; i < 5; i++) expect(md(html, true)).toBe(first);
  });
});

describe('text stays text', () => {
  // A CommonMark (+ GFM tables and strikethrough) reader with raw HTML on, as many renderers have it.
  const reader = new MarkdownIt({ html: true, linkify: false, typographer: false });
  const encode = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const decode = (t: string) =>
    t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  /** The words a reader of the rendered markdown sees: tags dropped, references decoded. */
  const shown = (markdown: string) => decode(reader.render(markdown).replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();

  const texts = [
    'Use [x](y) here, or [see below] and ![alt](pic.png)',
    '*stars* and _under_ and __init__ and snake_case and 2 * 3 * 4',
    'a `tick` and ``two ticks``',
    'Write <b>bold</b>, <!-- a comment -->, <?php echo 1 ?> and <The Title: A Play>; a < b > c',
    '&copy; and &#169; and &#x41; stay as typed; AT&T too',
    '~~struck~~ and ~5 minutes',
    'a back\\slash, \\* a star and C:\\path\\',
    '# not a heading', '###### six', '> not a quote', '- not an item', '+ not an item', '* not an item',
    '1. not a list', '2) not a list', '---', '===', '~~~', '```', '***', '___', '+',
  ];
  const contexts: Array<[string, (t: string) => string]> = [
    ['a paragraph', (t) => `<p>${t}</p>`],
    ['a list item', (t) => `<ul><li>${t}</li></ul>`],
    ['a heading', (t) => `<h2>${t}</h2>`],
    ['a quote', (t) => `<blockquote><p>${t}</p></blockquote>`],
    ['a line after a break', (t) => `<p>Before<br>${t}</p>`],
    ['a link', (t) => `<p><a href="/x">${t}</a></p>`],
    ['a table cell', (t) => `<table><tr><th>${t}</th></tr></table>`],
  ];
  for (const [where, wrap] of contexts) {
    it(`in ${where}, shows every mark of the page's text as text`, () => {
      for (const t of texts) {
        const expected = where === 'a line after a break' ? `Before ${t}` : t;
        expect(shown(md(wrap(encode(t)))), t).toBe(expected.replace(/\s+/g, ' '));
      }
    });
  }

  it('leaves ordinary punctuation alone', () => {
    expect(md('<p>snake_case, 2 * 3, C# and F#, 50% off - today only! (really) [1]</p>')).toBe(
      'snake_case, 2 * 3, C# and F#, 50% off - today only! (really) [1]',
    );
  });
});

describe('onlyMainContent keeps the same rendering', () => {
  const page = (body: string) =>
    `<html><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><main>${body}</main>` +
    '<footer><p>Copyright Example Ltd.</p></footer></body></html>';

  it('renders main content exactly as the whole-page conversion does', () => {
    const body =
      '<h2>Install</h2><p>Run the installer, then check the version.</p>' +
      '<pre><code class="language-sh">tool --version</code></pre>' +
      '<table><tr><th>OS</th><th>Status</th></tr><tr><td>Linux</td><td>ok</td></tr></table>';
    expect(md(page(body), true)).toBe(md(body));
  });

  it('returns the whole page, menus and footer included, in the same markdown when off', () => {
    const out = md(page('<p>Body paragraph, with words.</p>'));
    expect(out).toBe('[Home](https://site.example/) [About](https://site.example/about)\n\nBody paragraph, with words.\n\nCopyright Example Ltd.');
  });
});
