/** Documentation pages: a manual's sections, its page openings and its outline, whatever their titles say. */
import { describe, expect, it } from 'vitest';
import { transformPage } from './index.js';
import { MD, opts } from './main-content.fixtures.js';

/** A sentence of a manual's prose. */
const doc = (n: number) => `Step ${n} of the procedure tells the operator, in plain words, which setting to change and why it is safe.`;

/** A section as documentation generators write one: its numbered title in wrappers, then its text. */
const section = (id: string, title: string, body: string) =>
  `<div class="part" id="${id}"><div class="heading-wrap"><div><h3>${title}</h3></div></div>${body}</div>`;

describe('documentation pages', () => {
  it('keeps a page\'s title, introduction and short sections beside one long section', () => {
    const changes = `<ul>${Array.from({ length: 12 }, (_, i) => `<li><p>${doc(i)} ${doc(i + 20)}</p></li>`).join('')}</ul>`;
    const html = `<body><div class="page"><div class="heading-wrap"><div><h2>B.4. Version 2.4</h2></div></div>
      <p>Released in spring.</p><p>This version fixes problems found in 2.3; see the notes of 2.3 for its features.</p>
      ${section('v24-upgrade', 'B.4.1. Upgrading to 2.4', `<p>${doc(1)}</p>`)}
      ${section('v24-changes', 'B.4.2. Changes', changes)}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['## B.4. Version 2.4', 'fixes problems found in 2.3', '### B.4.1. Upgrading to 2.4', doc(1), '### B.4.2. Changes', doc(11)]) expect(md).toContain(kept);
  });

  it('keeps every section of a reference page, not only its longest', () => {
    const html = `<body><div class="ref"><div class="names"><h1>MAKE GROUP</h1><p>MAKE GROUP — define a new group</p></div>
      ${section('s1', 'Synopsis', `<pre>MAKE GROUP name [ option ... ]\n  where option is one of:\n    LIMIT n\n  | OWNER name</pre>`)}
      ${section('s2', 'Description', `<p>${doc(1)} ${doc(2)} ${doc(3)} ${doc(4)} ${doc(5)} ${doc(6)}</p>`)}
      ${section('s3', 'Compatibility', '<p>There is no such statement in the standard.</p>')}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['MAKE GROUP', 'Synopsis', 'OWNER name', 'Description', doc(6), 'Compatibility', 'no such statement']) expect(md).toContain(kept);
  });

  it('keeps a section whose anchor, its title\'s slug, holds a furniture word', () => {
    const html = `<body><main><h1>What is new in 4.2</h1><p>${doc(1)} ${doc(2)}</p>
      <section id="new-features-related-to-type-checking"><h2>New features related to type checking</h2><p>${doc(3)}</p></section>
      <section id="how-to-share-settings-between-hosts"><h2>How to share settings between hosts</h2><p>${doc(4)}</p></section>
      <section id="porting"><h2>Porting to 4.2</h2><p>${doc(5)} ${doc(6)}</p></section>
      <div id="related"><h4>Elsewhere</h4><p>Other pages people read about the weather in spring.</p></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['## New features related to type checking', doc(3), '## How to share settings between hosts', doc(4), doc(6)]) expect(md).toContain(kept);
    expect(md).not.toContain('Other pages people read');
  });

  it('keeps a list of links that a sentence of the text introduces, and a labelled line of links', () => {
    const html = `<body><main><h1>Release 4.2</h1><p><strong>Source code:</strong> <a href="/src/release.py">src/release.py</a></p>
      <p>${doc(1)} ${doc(2)}</p><p>New features of the language:</p><ul><li><p><a href="#f1">Pattern guards in loops</a></p></li></ul>
      <p>New modules in the library:</p><ul><li><a href="/lib/toml">toml: reading settings files</a></li><li><a href="/lib/wave">wave: sound files</a></li></ul>
      <p>${doc(3)} ${doc(4)}</p></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['[src/release.py]', 'New features of the language:', '[Pattern guards in loops]', '[toml: reading settings files]', '[wave: sound files]', doc(4)]) expect(md).toContain(kept);
  });

  it('tells a labelled line of links however its label is marked up, and drops a one-word label\'s', () => {
    const opening = (line: string) => transformPage(`<body><main><h1>Release 4.2</h1>${line}<p>${doc(1)} ${doc(2)}</p><p>${doc(3)} ${doc(4)}</p></main></body>`, opts(), MD).markdown!;
    const link = '<a href="/src/release.py">src/release.py</a>';
    expect(opening(`<p><em>Source</em>  <b>code</b>&#58;&nbsp;${link}</p>`)).toContain('*Source* **code**: [src/release.py]');
    expect(opening(`<p>\n    Source\n    code:\n    ${link}</p>`)).toContain('Source code: [src/release.py]');
    expect(opening(`<p>Tags: ${link}</p>`)).not.toContain('src/release.py');
  });

  it('keeps the table of contents an index page is made of, and drops an in-page one before the text', () => {
    const tree = (prefix: string) =>
      `<ul>${[1, 2, 3, 4].map((n) => `<li><a href="/${prefix}/${n}.html">${prefix} chapter ${n}</a><ul><li><a href="/${prefix}/${n}.html#a">Part ${n}.1</a></li><li><a href="/${prefix}/${n}.html#b">Part ${n}.2</a></li></ul></li>`).join('')}</ul>`;
    const index = `<body><div role="main"><h1>The library guide</h1><p>${doc(1)} The chapters are listed below.</p><div class="contents-tree">${tree('guide')}</div></div></body>`;
    const md = transformPage(index, opts(), MD).markdown!;
    for (const kept of ['# The library guide', '[guide chapter 1]', '[guide chapter 4]', '[Part 3.2]']) expect(md).toContain(kept);

    const page = `<body><div role="main"><h1>Tuning</h1><div class="local-toc">${tree('tuning')}</div>
      ${[1, 2, 3].map((n) => `<h2>Step ${n}</h2><p>${doc(n)} ${doc(n + 3)} ${doc(n + 6)}</p>`).join('')}</div></body>`;
    const tuned = transformPage(page, opts(), MD).markdown!;
    expect(tuned).toContain(doc(9));
    expect(tuned).not.toContain('tuning chapter 2');
  });

  it('keeps a numbered section whose title and anchor name a discussion', () => {
    const html = `<body><div class="book"><div class="heading-wrap"><div><h2>4.1. Syntax</h2></div></div><p>${doc(1)} ${doc(2)}</p>
      ${section('syntax-words', '4.1.1. Words', `<p>${doc(3)} ${doc(4)} ${doc(5)}</p>`)}
      ${section('syntax-comments', '4.1.2. Comments', `<p>A comment starts with two dashes and runs to the end of the line.</p><pre>SELECT 1; -- note</pre>`)}
      ${section('syntax-ops', '4.1.3. Operators', `<p>${doc(6)} ${doc(7)}</p>`)}</div>
      <div id="comments"><h3>2 Comments</h3><p>Great post, thanks for writing it up so clearly!</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['### 4.1.2. Comments', 'runs to the end of the line', 'SELECT 1; -- note', doc(7)]) expect(md).toContain(kept);
    expect(md).not.toContain('Great post');
  });

  it('keeps the signature paragraph of a function table\'s cells', () => {
    const row = (name: string, what: string) =>
      `<tr><td><p class="func_signature"><code>${name}</code> ( <code>text</code> ) → <code>integer</code></p><p>${what}</p></td></tr>`;
    const html = `<body><div class="page"><h2>9.4. Text functions</h2><p>${doc(1)} ${doc(2)}</p>
      <table><thead><tr><th><p class="func_signature">Function</p><p>Description</p></th></tr></thead>
      <tbody>${row('char_count', 'Counts the characters of the text.')}${row('word_count', 'Counts the words of the text.')}</tbody></table></div>
      <div class="post"><p>${doc(3)}</p><div class="signature">Sent from my phone, cheers, Bob</div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['Function', '`char_count` ( `text` ) → `integer`', 'Counts the words of the text.']) expect(md).toContain(kept);
    expect(md).not.toContain('Sent from my phone');
  });

  it('keeps a chapter page\'s contents written as terms and their descriptions, outside any landmark', () => {
    const entry = (n: number) =>
      `<dt><a href="/guide/ch${n}.html">${n}.1. Setting up part ${n}</a></dt><dd><dl><dt><a href="/guide/ch${n}.html#a">${n}.1.1. Before you start</a></dt><dt><a href="/guide/ch${n}.html#b">${n}.1.2. First run</a></dt></dl></dd>`;
    const html = `<body><div class="chapter"><div class="heading-wrap"><div><h2>Chapter 7. Server setup</h2></div></div>
      <div class="contents"><p><strong>Table of Contents</strong></p><dl>${[1, 2, 3, 4, 5].map(entry).join('')}</dl></div>
      <p>This chapter tells how to set the server up and keep it running.</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['Chapter 7. Server setup', '[1.1. Setting up part 1]', '[5.1.2. First run]', 'keep it running']) expect(md).toContain(kept);
  });

  it('keeps a code sample set beside the text in an aside, and drops the other asides in the content', () => {
    const html = `<body><nav><a href="/">Docs home</a></nav><div role="main"><h1>timers — Run code later</h1>
      <aside class="sidebar"><p class="sidebar-title">A first timer</p><pre>import timers\n\ntimers.after(5, ring)\n</pre></aside>
      <p>${doc(1)} ${doc(2)}</p>
      <aside class="pull"><h3>Related pages</h3><ul><li><a href="/clocks">Clocks</a></li><li><a href="/alarms">Alarms</a></li></ul></aside>
      <p>${doc(3)} ${doc(4)}</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['A first timer', 'timers.after(5, ring)', doc(2), doc(4)]) expect(md).toContain(kept);
    for (const gone of ['Related pages', 'Clocks']) expect(md).not.toContain(gone);
  });

  it('keeps a list of links the text indents as a quote after its prose, in a list\'s item too', () => {
    const api = (name: string, use: string) =>
      `<li><p><code>${name}</code>: use <a href="/api/text.html#${use}"><code>${use}()</code></a> or <a href="/api/text.html#${use}_at"><code>${use}_at()</code></a></p></li>`;
    const moved = (name: string) =>
      `<li><p><a href="/api/old.html#${name}"><code>old.settings.${name}</code></a> is gone, use <a href="/api/new.html#${name}"><code>new.settings.${name}</code></a> with <a href="/api/new.html#open"><code>new.open()</code></a>.</p></li>`;
    const html = `<body><nav><a href="/">Docs home</a></nav><div role="main"><h1>Changes in 4.2</h1><p>${doc(1)} ${doc(2)}</p>
      <section><h2>Improved modules</h2><p>The descriptors of the settings module were rewritten, and the old ones have been updated accordingly.</p>
      <blockquote><div><ul>${moved('reader')}${moved('writer')}${moved('store')}</ul></div></blockquote><p>${doc(3)}</p></section>
      <section><h2>Removed</h2><ul><li><p>Removed the string helpers that worked on raw buffers. (Contributed by A. Writer in issue 41.)</p>
      <blockquote><div><ul>${['len', 'copy', 'find', 'compare', 'concat'].map((n) => api(`buf_${n}`, `text_${n}`)).join('')}</ul></div></blockquote></li>
      <li><p>The settings reader no longer accepts files without a version line. (Contributed by B. Writer in issue 42.)</p></li></ul></section>
      <ul><li><a href="/">Home</a></li><li><a href="/blog">Blog</a></li><li><a href="/about">About us</a></li></ul></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['[`old.settings.store`](https://news.example.com/api/old.html#store)', '[`new.settings.reader`]', '[`text_len()`](https://news.example.com/api/text.html#text_len)', '[`text_find()`]', 'Removed the string helpers', 'no longer accepts']) expect(md).toContain(kept);
    expect(md).not.toContain('About us');
  });

  it('keeps a sentence a reference says again of several entries, and still says a twin line once', () => {
    const note = 'Changed in version 3.1: the <em>timeout</em> argument was added; see <a href="/guide/timeouts.html">the guide on timeouts</a> for the values it takes.';
    const entry = (name: string, what: string) =>
      `<dl class="function"><dt id="${name}"><code>${name}(path, timeout=None)</code></dt><dd><p>${what}</p><p>${note}</p></dd></dl>`;
    const twin = 'Every release of the client library is tested against the three most recent server versions.';
    const html = `<body><nav><a href="/">Docs home</a></nav><div role="main"><h1>files — Read and write files</h1><p>${doc(1)} ${doc(2)}</p>
      ${entry('open_file', 'Opens the file at the path and returns a handle to it.')}
      ${entry('lock_file', 'Locks the file at the path against writers in other processes.')}
      ${entry('copy_file', 'Copies the file at the path to a new file beside it.')}
      <p>${twin}</p><p>${twin}</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md.split('[the guide on timeouts]').length - 1).toBe(3);
    expect(md.split(twin).length - 1).toBe(1);
  });
});
