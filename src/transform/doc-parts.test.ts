/**
 * Class words that mark furniture elsewhere but name a part of a manual's text: a function's
 * signature, a table's footnotes. Main-content mode keeps them; a forum's signature and a blog's
 * footnotes still go.
 */
import { describe, expect, it } from 'vitest';
import { isAdmonition } from './doc-parts.js';
import { attrsFrom } from './html-util.js';
import { transformPage } from './index.js';
import { boilerplateReason } from './main-content.js';
import { MD, opts } from './main-content.fixtures.js';

const reason = (name: string, cls: string) => boilerplateReason(name, attrsFrom({ class: cls }), true, true);

describe('documentation parts named by furniture words', () => {
  it('keeps a code declaration\'s signature, however the generator spells it', () => {
    expect(reason('p', 'func_signature')).toBeUndefined();
    expect(reason('div', 'member-signature')).toBeUndefined();
    expect(reason('ul', 'tsd-signatures')).toBeUndefined();
    expect(reason('span', 'type-signature')).toBeUndefined();
  });

  it('still drops a forum poster\'s or a writer\'s signature', () => {
    expect(reason('div', 'signature')).toBe('class:signature');
    expect(reason('span', 'signature')).toBe('class:signature');
    expect(reason('div', 'message-signature')).toBe('class:signature');
    expect(reason('div', 'post-signature')).toBe('class:signature');
  });

  it('keeps a table\'s own footnotes, not a post\'s', () => {
    expect(reason('tbody', 'footnotes')).toBeUndefined();
    expect(reason('section', 'footnotes')).toBe('class:footnotes');
  });

  it('keeps the signature and the description of every cell of a function table, header included', () => {
    const cell = (sig: string, desc: string) =>
      `<tr><td class="func_table_entry"><p class="func_signature">${sig}</p><p>${desc}</p></td></tr>`;
    const html = `<html><body><nav><a href="/">Manual home</a></nav><main>
      <h1>9.4. String Functions</h1>
      <p>This section describes functions for examining and manipulating string values, and the operators that join them.</p>
      <table class="table"><thead><tr><th class="func_table_entry"><p class="func_signature">Function</p><p>Description</p></th></tr></thead>
      <tbody>${cell('<code>text</code> <code>||</code> <code>text</code> → <code>text</code>', 'Concatenates the two strings.')}
      ${cell('<code>lower</code> ( <code>text</code> ) → <code>text</code>', 'Converts the string to all lower case.')}</tbody>
      <tbody class="footnotes"><tr><td><p>[a] Both strings are taken as they are stored.</p></td></tr></tbody></table>
      <p>See the section on patterns for functions that match strings against regular expressions.</p>
    </main></body></html>`;
    const md = transformPage(html, opts({ baseUrl: 'https://manual.example/functions-string.html' }), MD).markdown!;
    expect(md).toContain('| Function<br>Description |');
    expect(md).toContain('| `text` `\\|\\|` `text` → `text`<br>Concatenates the two strings. |');
    expect(md).toContain('| `lower` ( `text` ) → `text`<br>Converts the string to all lower case. |');
    expect(md).toContain('| [a] Both strings are taken as they are stored. |');
  });

  it('keeps a manual\'s footnotes set as asides, and a "See also" box however linked', () => {
    const html = `<html><body><nav><a href="/">Manual home</a></nav><div role="main">
      <h1>Caching</h1>
      <p>The cache keeps the last answers of every query<a class="footnote-reference" href="#fn1" id="ref1">[1]</a>, so a repeated query costs nothing.</p>
      <div class="admonition seealso"><p class="admonition-title">See also</p><p><a href="/guide/limits.html">Memory limits</a> and <a href="/guide/evict.html">eviction</a>.</p></div>
      <p>The cache is cleared when the server restarts, and whenever a table that an answer was read from changes.</p>
      <aside class="footnote-list"><aside class="footnote" id="fn1" role="note"><span class="label"><a href="#ref1">1</a></span>
      <p>Up to a thousand answers, the oldest going first.</p></aside></aside>
    </div><aside class="sidebar"><h3>Most read</h3><ul><li><a href="/a">Another page</a></li></ul></aside></body></html>`;
    const md = transformPage(html, opts({ baseUrl: 'https://manual.example/caching.html' }), MD).markdown!;
    for (const kept of ['See also', '[Memory limits](https://manual.example/guide/limits.html)', '[eviction]', 'Up to a thousand answers', 'whenever a table']) expect(md).toContain(kept);
    expect(md).not.toContain('Another page');
  });

  it('tells a footnote\'s aside and an admonition by role or class word, not any aside', () => {
    const aside = (attrs: Record<string, string>) => boilerplateReason('aside', attrsFrom(attrs), true, true);
    expect(aside({ class: 'footnote brackets' })).toBeUndefined();
    expect(aside({ class: 'footnote-list' })).toBeUndefined();
    expect(aside({ role: 'doc-footnote' })).toBeUndefined();
    expect(aside({ class: 'sidebar' })).toBe('tag:aside');
    expect(aside({ class: 'related-footnotes-widget' })).toBe('tag:aside');
    expect(isAdmonition('admonition note')).toBe(true);
    expect(isAdmonition('admonition-warning')).toBe(true);
    expect(isAdmonition('menu main-menu')).toBe(false);
  });
});

