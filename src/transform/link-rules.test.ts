/**
 * Blocks of links that are a manual's text, not its navigation: a list of one sentence, a list or
 * a table that a sentence introduces, a table cell's linked value. Menus and rails shaped alike
 * still go.
 */
import { describe, expect, it } from 'vitest';
import { transformPage } from './index.js';
import { MD, opts } from './main-content.fixtures.js';

/** A sentence of a manual's prose. */
const doc = (n: number) => `Step ${n} of the procedure tells the operator, in plain words, which setting to change and why it is safe.`;
const code = (name: string) => `<a href="/lib/${name}.html"><code>${name}()</code></a>`;
const page = (body: string) =>
  `<html><body><nav><ul><li><a href="/">Home</a></li><li><a href="/lib">Library</a></li></ul></nav><div role="main"><h1>What is new in 4.2</h1><p>${doc(1)} ${doc(2)}</p>${body}<p>${doc(3)}</p></div></body></html>`;
const md = (html: string) => transformPage(html, opts({ baseUrl: 'https://manual.example/new.html' }), MD).markdown!;

describe('link blocks that are documentation text', () => {
  it('keeps a list of one item that is a sentence, however linked', () => {
    const out = md(page(`<h2>timers</h2><ul><li><p>Added ${code('start_timer')} and ${code('stop_timer')} to class ${code('Clock')}. (Contributed by A. Writer in ${code('issue_42')}.)</p></li></ul>
      <h2>menus</h2><ul><li><a href="/more">More pages</a></li></ul>`));
    expect(out).toContain('- Added [`start_timer()`](https://manual.example/lib/start_timer.html) and');
    expect(out).toContain('(Contributed by A. Writer in');
    expect(out).not.toContain('More pages');
  });

  it('keeps a table and a list that a sentence introduces, in an indent too', () => {
    const cell = (n: string) => `<td><p>${code(n)}</p></td>`;
    const out = md(page(`<ul><li><p>These modules are deprecated and will go in 5.0:</p>
      <table><tbody><tr>${cell('alpha')}${cell('beta')}${cell('gamma')}</tr><tr>${cell('delta')}${cell('epsilon')}${cell('zeta')}</tr></tbody></table></li></ul>
      <p>The following functions will be removed in version 5.0.</p><ul>${['one', 'two', 'three', 'four'].map((n) => `<li><p>${code(n)}</p></li>`).join('')}</ul>
      <p>These classes are sequences:</p><blockquote><div><ul>${['deque', 'array'].map((n) => `<li><p>${code(n)}</p></li>`).join('')}</ul></div></blockquote>`));
    for (const kept of ['[`alpha()`]', '[`zeta()`]', '[`one()`]', '[`four()`]', '[`deque()`]', '[`array()`]']) expect(out).toContain(kept);
  });

  it('keeps the linked values of a table\'s cells under its header, and drops a layout table\'s menu column', () => {
    const row = (old: string, now: string[]) => `<tr><td><code>${old}</code></td><td><div class="lines">${now.map((n) => `<div>${code(n)}</div>`).join('')}</div></td><td>Does the same in one step.</td></tr>`;
    const out = md(page(`<table><thead><tr><th>Old</th><th>New</th><th>Notes</th></tr></thead><tbody>${row('CALL_A', ['call', 'push'])}${row('DUP', ['copy', 'swap'])}</tbody></table>`));
    for (const kept of ['[`call()`]', '[`push()`]', '[`swap()`]', 'Does the same in one step.']) expect(out).toContain(kept);

    const layout = `<html><body><table><tr><td><div class="side"><div><a href="/a">Alpha pages</a></div><div><a href="/b">Beta pages</a></div><div><a href="/c">Gamma pages</a></div></div></td>
      <td><h1>Caching</h1><p>${doc(1)} ${doc(2)} ${doc(3)}</p></td></tr></table></body></html>`;
    const old = md(layout);
    expect(old).toContain(doc(3));
    expect(old).not.toContain('Beta pages');
  });
});
