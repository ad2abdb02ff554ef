import { describe, expect, it } from 'vitest';
import { toMarkdown } from './extract.js';
import { codeLanguage, postprocessMarkdown } from './markdown.js';
import { transformPage } from './index.js';
import { MarkdownWriter } from './markdown-writer.js';

const BASE = 'https://example.com/docs/page.html';
const md = (html: string) => toMarkdown(html, BASE);

describe('toMarkdown: structure', () => {
  it('writes ATX headings', () => {
    expect(md('<h1>One</h1><h2>Two</h2><h3>Three</h3><p>para</p>')).toBe('# One\n\n## Two\n\n### Three\n\npara');
  });

  it('indents nested lists and keeps an ordered list start', () => {
    expect(md('<ul><li>a<ul><li>b<ul><li>c</li></ul></li></ul></li><li>d</li></ul>')).toBe(
      '- a\n  - b\n    - c\n- d',
    );
    expect(md('<ol start="3"><li>x</li><li>y</li></ol>')).toBe('3. x\n4. y');
  });

  it('writes a GFM table from a table with a header row', () => {
    const html =
      '<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td>a</td><td>1</td></tr></tbody></table>';
    expect(md(html)).toBe('| Name | Value |\n| --- | --- |\n| a | 1 |');
  });

  it('writes a GFM table from a header-less table, first row as header', () => {
    const html = '<table><tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr></table>';
    expect(md(html)).toBe('| a | 1 |\n| --- | --- |\n| b | 2 |');
  });

  it('quotes nested blockquotes without stacks of empty quote lines', () => {
    expect(md('<blockquote><p>outer</p><blockquote><p>inner</p></blockquote></blockquote>')).toBe(
      '> outer\n>\n> > inner',
    );
  });

  it('keeps definition lists readable: bold term, definition below', () => {
    const out = md('<dl><dt>term</dt><dd>definition one</dd><dt>second</dt><dd><p>definition two</p></dd></dl>');
    expect(out).toBe('**term**\ndefinition one\n\n**second**\ndefinition two');
  });

  it('closes the elements HTML leaves open', () => {
    expect(md('<ul><li>one<li>two</ul><p>para<div>block</div>')).toBe('- one\n- two\n\npara\n\nblock');
    expect(md('<table><tr><td>a<td>b<tr><td>c<td>d</table>')).toBe('| a | b |\n| --- | --- |\n| c | d |');
  });

  it('turns <br> into a backslash break that survives whitespace trimming', () => {
    expect(md('<p>line<br>break</p>')).toBe('line\\\nbreak');
  });

  it('collapses source whitespace inside paragraphs', () => {
    expect(md('<div><p>\n   The <code>X</code> clause is a\n    PostgreSQL extension.\n   </p></div>')).toBe(
      'The `X` clause is a PostgreSQL extension.',
    );
  });
});

describe('toMarkdown: code blocks', () => {
  it('separates a closing fence from the block after it', () => {
    expect(md('<pre><code>x = 1</code></pre><blockquote>Quoted.</blockquote>')).toBe('```\nx = 1\n```\n\n> Quoted.');
  });

  it('takes the fence language from language-* on <code>', () => {
    expect(md('<pre><code class="language-python">print(1)\n</code></pre>')).toBe('```python\nprint(1)\n```');
  });

  it('takes the fence language from lang-* on <pre>', () => {
    expect(md('<pre class="lang-js"><code>let x = 1;</code></pre>')).toBe('```js\nlet x = 1;\n```');
  });

  it('takes the fence language from highlight-* on <pre>', () => {
    expect(md('<pre class="highlight-ruby">puts 1</pre>')).toBe('```ruby\nputs 1\n```');
  });

  it('takes the fence language from a Sphinx div.highlight-<lang> wrapper', () => {
    const html =
      '<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span>' +
      '<span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</pre></div></div>';
    expect(md(html)).toBe('```python3\nx = 1\n```');
  });

  it('does not carry a wrapper language past the wrapper', () => {
    const html = '<div class="highlight-sql"><pre>SELECT 1;</pre></div><pre>plain</pre>';
    expect(md(html)).toBe('```sql\nSELECT 1;\n```\n\n```\nplain\n```');
  });

  it('fences <pre> without <code> and keeps its whitespace', () => {
    expect(md('<pre class="programlisting">SELECT *\n  FROM t\n WHERE a &lt; 1;</pre>')).toBe(
      '```\nSELECT *\n  FROM t\n WHERE a < 1;\n```',
    );
  });

  it('reads the language names the class conventions use', () => {
    expect(codeLanguage('language-ts')).toBe('ts');
    expect(codeLanguage('foo lang-go')).toBe('go');
    expect(codeLanguage('highlight-source-rust')).toBe('rust');
    expect(codeLanguage('sourceCode haskell')).toBe('haskell');
    expect(codeLanguage('highlight-default')).toBeUndefined();
    expect(codeLanguage('highlight')).toBeUndefined();
    expect(codeLanguage(undefined)).toBeUndefined();
  });
});

describe('toMarkdown: URLs', () => {
  it('makes links and images absolute against the page URL', () => {
    expect(md('<p><a href="../guide/intro.html">Intro</a> <img src="img/logo.png" alt="Site map"></p>')).toBe(
      '[Intro](https://example.com/guide/intro.html) ![Site map](https://example.com/docs/img/logo.png)',
    );
  });

  it('resolves against <base href> when the document has one', () => {
    const html =
      '<html><head><base href="https://cdn.example.org/assets/"></head><body><p>' +
      '<a href="guide/intro.html">Intro</a> <img src="img/logo.png" alt="Site map"> <a href="/root">Root</a></p></body></html>';
    expect(md(html)).toBe(
      '[Intro](https://cdn.example.org/assets/guide/intro.html) ![Site map](https://cdn.example.org/assets/img/logo.png) [Root](https://cdn.example.org/root)',
    );
  });

  it('percent-encodes parentheses in a destination, so no reader ends it early', () => {
    expect(md('<p><img src="/i/fit(300):format(webp)/a.jpg" alt="Dish"> <a href="/wiki/Pie_(food)">Pie</a></p>')).toBe(
      '![Dish](https://example.com/i/fit%28300%29:format%28webp%29/a.jpg) [Pie](https://example.com/wiki/Pie_%28food%29)',
    );
  });

  it('writes a link inside a link as its text, so the outer link stays one', () => {
    expect(md('<p><a href="/cup"><a href="/cup?c=red">Red</a> cup</a></p>')).toBe('[Red cup](https://example.com/cup)');
  });

  it('escapes brackets and backslashes in a link\'s text and an image\'s alt text (not in code), so none ends it early', () => {
    expect(md('<p>Cited.<a href="#fn-1">[1]</a> <a href="/g">Guide [PDF</a> <a href="/c"><code>a[0]</code></a> <a href="/w">C:\\dir\\</a></p>')).toBe(
      'Cited.[\\[1\\]](https://example.com/docs/page.html#fn-1) [Guide \\[PDF](https://example.com/g) [`a[0]`](https://example.com/c) [C:\\\\dir\\\\](https://example.com/w)',
    );
    expect(md('<p><img src="/v.jpg" alt="[Video] Talk"></p>')).toBe('![\\[Video\\] Talk](https://example.com/v.jpg)');
  });

  it('drops the alt text of a picture that links to another page, but not of one that links to a larger copy of itself', () => {
    expect(md('<p><a href="/story/42"><img src="/t.jpg" alt="Crowds on the pier at sunset"></a></p>')).toBe('[![](https://example.com/t.jpg)](https://example.com/story/42)');
    expect(md('<p><a href="/full/pier.jpg"><img src="/small/pier.jpg" alt="Crowds on the pier at sunset"></a></p>')).toBe(
      '[![Crowds on the pier at sunset](https://example.com/small/pier.jpg)](https://example.com/full/pier.jpg)',
    );
  });

  it('drops a linked image\'s alt text with escaped brackets when the link names its target in words', () => {
    expect(md('<p><a href="/talk"><img src="/v.jpg" alt="[Video] Talk"> Talk</a></p>')).toBe('[![](https://example.com/v.jpg) Talk](https://example.com/talk)');
  });

  it('says an image\'s alt text once, and only when it says something: not for a copy of the image, a line of the text it restates, a file name or a logo', () => {
    const pins = '<p><img src="/a.jpg" alt="Pear jam in jars"></p><p>We made jam.</p><p><img src="/b.jpg" alt="Pear jam in jars"></p>';
    expect(md(pins)).toBe('![Pear jam in jars](https://example.com/a.jpg)\n\nWe made jam.\n\n![](https://example.com/b.jpg)');
    const tile = '<div><img src="/s.jpg" alt="Trail Runner 2 shoe - blue"><p><a href="/s">Trail Runner 2 trail shoe</a></p></div>';
    expect(md(tile)).toBe('![](https://example.com/s.jpg)\n\n[Trail Runner 2 trail shoe](https://example.com/s)');
    const unsaid = '<p><img src="/1.jpg" alt="IMG_20240611_093012.jpg"> <img src="/2.png" alt="Harbour Authority logo"> <img src="/3.png" alt="9f3a1c22-07b4-4d2e"></p>';
    expect(md(unsaid)).toBe('![](https://example.com/1.jpg) ![](https://example.com/2.png) ![](https://example.com/3.png)');
    const photo = '<p><img src="/h.jpg" alt="Fishing boats moored at dawn"></p><p>The harbour reopened on Monday.</p>';
    expect(md(photo)).toBe('![Fishing boats moored at dawn](https://example.com/h.jpg)\n\nThe harbour reopened on Monday.');
  });

  it('writes a line break in a link\'s text as a space, keeping the link on one line', () => {
    expect(md('<p><a href="/apply">Apply now<br>Start your application.</a></p>')).toBe(
      '[Apply now Start your application.](https://example.com/apply)',
    );
  });

  it('decodes entities in URLs before resolving them', () => {
    expect(md('<a href="/q?a=1&amp;b=2">q</a>')).toBe('[q](https://example.com/q?a=1&b=2)');
  });

  it('drops links with nothing to show instead of spelling out their URL', () => {
    expect(md('<p>Share <a href="/s"> </a><a href="/t"><i class="icon"></i></a> or <a href="/u">read</a>.</p>')).toBe(
      'Share or [read](https://example.com/u).',
    );
  });

  it('drops javascript: link targets but keeps the link text', () => {
    expect(md('<p><a href="javascript:void(0)">click</a></p>')).toBe('click');
  });

  it('uses the lazy-loading source of an image with a placeholder src', () => {
    expect(md('<img src="data:image/gif;base64,R0lGOD=" data-src="/real.jpg" alt="Real">')).toBe(
      '![Real](https://example.com/real.jpg)',
    );
  });
});

describe('toMarkdown: hygiene', () => {
  it('does not leak an XML prolog, and honours XHTML self-closing tags', () => {
    const html =
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><body>' +
      '<p>Hello</p><a id="x"/><p>after</p></body></html>';
    const out = md(html);
    expect(out).not.toContain('?xml');
    expect(out).toBe('Hello\n\nafter');
  });

  it('reads a stray <![CDATA[ in a page body as a comment up to the next >, as browsers do', () => {
    expect(md('<body><p>before</p> <![CDATA[\n<div><p>after</p></div></body>')).toBe('before\n\nafter');
  });

  it('drops script, style, noscript, template and svg even when keeping the whole page', () => {
    const html =
      '<p>keep</p><script>var x = "<p>no</p>";</script><style>p{}</style><noscript>enable js</noscript>' +
      '<template><p>tpl</p></template><svg><title>icon</title><text>svg text</text></svg>';
    expect(md(html)).toBe('keep');
  });

  it('trims trailing whitespace and collapses runs of blank lines', () => {
    const out = md('<p>a   </p><br><br><br><br><p>b</p>');
    expect(out).toBe('a\n\nb');
    expect(postprocessMarkdown('x  \n\n\n\ny\t\n', false)).toBe('x\n\ny');
  });

  it('leaves lines inside fenced code alone', () => {
    const fenced = '```\na  \n\n\n\nb\n```';
    expect(postprocessMarkdown(fenced, false)).toBe(fenced);
  });
});

describe('removeBase64Images', () => {
  const html = '<p>See <img src="data:image/png;base64,iVBORw0KGgo=" alt="a chart"> and <img src="data:image/gif;base64,R0lGOD=">.</p>';

  it('keeps each base64 image and its alt text, with a placeholder for the bytes (the default)', () => {
    expect(md(html)).toBe('See ![a chart](<Base64-Image-Removed>) and ![](<Base64-Image-Removed>).');
  });

  it('replaces a data: destination written bare, in angle brackets or with a title', () => {
    const written = '![x](data:image/png;base64,AAAA) ![y](<data:image/png;base64,BB BB>) ![z](data:image/gif;base64,CC "t")';
    expect(postprocessMarkdown(written, true)).toBe('![x](<Base64-Image-Removed>) ![y](<Base64-Image-Removed>) ![z](<Base64-Image-Removed>)');
  });

  it('keeps base64 images when asked to', () => {
    expect(toMarkdown(html, BASE, { removeBase64Images: false })).toContain('![a chart](data:image/png;base64,iVBORw0KGgo=)');
  });

  it('is applied by transformPage according to its option', () => {
    const opts = { baseUrl: BASE, onlyMainContent: false, includeTags: [], excludeTags: [] };
    const wants = { markdown: true, html: false, links: false, images: false };
    expect(transformPage(html, { ...opts, removeBase64Images: true }, wants).markdown).toBe('See ![a chart](<Base64-Image-Removed>) and ![](<Base64-Image-Removed>).');
    expect(transformPage(html, { ...opts, removeBase64Images: false }, wants).markdown).toContain('data:image/png');
  });
});

describe('MarkdownWriter.dropUnpaired', () => {
  // A card: one link around two blocks, written as one link per block; the first block's
  // closer is written when the next block starts, after that block's own chunks.
  const card = (): { out: string[]; w: MarkdownWriter; first: [number, number] } => {
    const out: string[] = [];
    const w = new MarkdownWriter(out);
    w.open('p', undefined);
    w.text('Intro.');
    w.close();
    w.open('a', { url: 'https://example.com/card' });
    w.open('p', undefined);
    const start = out.length;
    w.text('Card title');
    w.close();
    const end = out.length;
    w.open('p', undefined);
    w.text('Card summary');
    w.close();
    w.close();
    return { out, w, first: [start, end] };
  };

  it('blanks a link closer whose opener went with a block cut from the content', () => {
    const { out, w, first } = card();
    const ranges: Array<[number, number]> = [[0, first[0]], [first[1], out.length]];
    w.dropUnpaired(ranges);
    expect(ranges.flatMap(([s, e]) => out.slice(s, e)).join('')).toBe('Intro.\n\n[Card summary](https://example.com/card)');
  });

  it('blanks a link opener whose closer lies outside the kept block', () => {
    const { out, w, first } = card();
    w.dropUnpaired([first]);
    expect(out.slice(first[0], first[1]).join('').trim()).toBe('Card title');
  });
});
