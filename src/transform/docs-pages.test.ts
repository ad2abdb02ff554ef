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
});
