/** Choosing the main block: landmarks, the scoring of the block tree, series of items, rails and discussions. */
import { describe, expect, it } from 'vitest';
import { transformPage } from './index.js';
import { attrsFrom } from './html-util.js';
import { boilerplateReason } from './main-content.js';
import { isRailHeading } from './rules/rail-heading.js';
import { MD, opts, prose, productPage, teasers } from './main-content.fixtures.js';

describe('content scoring', () => {
  it('narrows a landmark-free page to its prose and drops headline rails beside it', () => {
    const html = `<body><div id="page"><div class="top-stories">${[1, 2, 3, 4]
      .map((n) => `<p><a href="/s${n}">Top story ${n} headline</a> Short blurb, one line.</p>`)
      .join('')}</div>
      <div class="story"><h1>Story title</h1>${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}</div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('# Story title');
    for (const n of [1, 2, 3]) expect(md).toContain(prose(n));
    expect(md).not.toContain('Top story');
  });

  it('leaves an article’s comment section out', () => {
    const html = `<body><div><div class="body">${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}</div>
      <div id="comments">${[1, 2].map((n) => `<div><p>Reader comment ${n}: I think so too, and I said it first.</p></div>`).join('')}</div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(3));
    expect(md).not.toContain('Reader comment');
  });

  it('keeps a forum thread, where the comments are the content', () => {
    const html = `<body><div class="thread"><h1>Build fails on ARM</h1>${[1, 2, 3]
      .map((n) => `<div class="comment"><p>Post ${n}: the build fails at the linking step, here is my log and setup.</p></div>`)
      .join('')}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const n of [1, 2, 3]) expect(md).toContain(`Post ${n}:`);
  });

  it('drops a forum post’s signature named in one word ("postsignature", "signaturecontainer")', () => {
    const html = `<body><div class="thread"><h1>Build fails on ARM</h1>${[1, 2, 3]
      .map(
        (n) => `<div class="post"><p>Post ${n}: the build fails at the linking step, here is my log and setup.</p>
        <div class="${n === 2 ? 'signaturecontainer' : 'postsignature'}"><p>Sig ${n}: keep it simple, keep it running.</p></div></div>`,
      )
      .join('')}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const n of [1, 2, 3]) expect(md).toContain(`Post ${n}:`);
    expect(md).not.toContain('Sig ');
  });

  it('drops a forum post’s author panel but keeps the post', () => {
    const html = `<body><div class="thread"><h1>Build fails on ARM</h1>${[1, 2, 3]
      .map(
        (n) => `<div class="post"><div class="message-userExtras"><dl><dt>Joined</dt><dd>Dec 23, 2009</dd><dt>Messages</dt><dd>1,204</dd></dl></div>
        <p>Post ${n}: the build fails at the linking step, here is my log and setup.</p></div>`,
      )
      .join('')}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const n of [1, 2, 3]) expect(md).toContain(`Post ${n}:`);
    expect(md).not.toContain('Joined');
  });

  it('keeps a product’s name, price and specs', () => {
    const html = `<body><nav><a href="/">Shop</a><a href="/desks">Desks</a></nav><div class="product">
      <h1>Oak Standing Desk</h1><p class="price">$499.00</p>
      <table><tr><td>Width</td><td>120 cm</td></tr><tr><td>Weight</td><td>32 kg</td></tr></table>
      <p>A solid oak desk that rises from sitting to standing height at the press of a button.</p></div>
      ${teasers('related-products')}</body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['# Oak Standing Desk', '$499.00', '| Width | 120 cm |', '| Weight | 32 kg |', 'solid oak desk']) {
      expect(md).toContain(kept);
    }
    expect(md).not.toContain('Teaser headline');
  });

  it('leaves a product’s customer reviews out, as an article’s comments', () => {
    const html = `<body><div><div class="product"><h1>Trail Pack</h1><p class="price">$89.00</p>
      ${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}</div>
      <div class="product-reviews">${[1, 2, 3]
        .map((n) => `<div><p>Review ${n}: sturdy pack, carried it for a week and the straps held up well.</p></div>`)
        .join('')}</div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['# Trail Pack', '$89.00', prose(1), prose(3)]) expect(md).toContain(kept);
    expect(md).not.toContain('Review 1');
  });

  it('drops a contact form’s labels but keeps a page that one form wraps whole', () => {
    const contact = `<form action="/contact"><h3>Contact us</h3><label>First name</label><input name="first">
      <label>Email</label><input type="email" name="email"><label>Message</label><textarea></textarea>
      <button>Send</button></form>`;
    const body = [1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('');
    const md = transformPage(`<body><div class="body">${body}${contact}</div></body>`, opts(), MD).markdown!;
    expect(md).toContain(prose(3));
    expect(md).not.toContain('First name');
    const wrapped = transformPage(`<body><form action="/page"><input name="q"><input name="x">${body}</form></body>`, opts(), MD).markdown!;
    expect(wrapped).toContain(prose(1));
  });

  it('drops the labels of form controls but keeps a card built as a label', () => {
    const body = [1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('');
    const facets = ['Black', 'White', 'Grey'].map((c) => `<label><input type="checkbox"> ${c}</label>`).join('');
    const card = `<label><input type="radio" name="plan"><h3>Team plan</h3><p>${prose(4)} ${prose(5)}</p></label>`;
    const md = transformPage(`<body><div class="body">${facets}${body}${card}</div></body>`, opts(), MD).markdown!;
    expect(md).toContain(prose(1));
    expect(md).toContain(prose(4));
    expect(md).not.toContain('Grey');
  });

  it('recovers content that malformed markup nests inside a dropped header', () => {
    // The site header is never closed, so the article ends up inside it.
    const html = `<body><header class="site"><a href="/">Site</a><div class="story">${[1, 2, 3]
      .map((n) => `<p>${prose(n)}</p>`)
      .join('')}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const n of [1, 2, 3]) expect(md).toContain(prose(n));
  });

  it('reads <noscript> when it is the only place the content is', () => {
    const html = `<body><div id="app"></div><noscript><div class="post">${[1, 2]
      .map((n) => `<p>${prose(n)}</p>`)
      .join('')}</div></noscript></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(2));
  });

  it('keeps the page after a self-closed <iframe> inside <noscript> (a tag manager\'s fallback), which browsers read as text', () => {
    const html = `<body><noscript><iframe src="https://tags.example/ns.html" height="0" width="0" /></noscript>
      <main><h1>Hosting</h1>${[1, 2].map((n) => `<p>${prose(n)}</p>`).join('')}</main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('# Hosting');
    expect(md).toContain(prose(2));
  });

  it('reads <noscript> with the rules on when the content is only there: a quoted post in an <aside> stays out', () => {
    const html = `<body><div id="app"></div><noscript><header><a href="/">Example Forum</a></header><div class="post">
      <aside class="quote"><p>Quoted reply: the build fails at the linking step, here is my log and my setup.</p></aside>
      ${[1, 2].map((n) => `<p>${prose(n)}</p>`).join('')}</div></noscript></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(2));
    expect(md).not.toContain('Quoted reply');
  });

  it('returns nothing for an app shell whose only text is a notice that it needs JavaScript', () => {
    const html = `<body><noscript>You need to enable JavaScript to run this app.</noscript><main class="content"><div id="root"></div></main></body>`;
    expect(transformPage(html, opts(), MD).markdown).toBe('');
  });

  it('returns nothing for an app shell whose only text besides its footer is a hidden heading for crawlers', () => {
    const footer = `<footer><dl><dt>Help</dt><dd><a href="/help">Help Center</a>, <a href="/disputes">Disputes and reports</a>, <a href="/returns">Returns and refunds</a></dd></dl>
      <p>Browse by category: computers, phones, home, garden, toys, sports, beauty, jewellery, shoes and bags.</p></footer>`;
    const html = `<body><div style="display:none;"><h1>Shop</h1></div><div id="root"></div>${footer}</body>`;
    expect(transformPage(html, opts(), MD).markdown).toBe('');
    expect(transformPage(html, opts(), { ...MD, html: true }).html).toBe('');
    // A heading over the page's own words is content as ever.
    const page = `<body><div style="display:none;"><h1>Shop</h1></div><div id="root"><p>Hand-thrown mug, glazed in ash white.</p></div>${footer}</body>`;
    expect(transformPage(page, opts(), MD).markdown).toContain('Hand-thrown mug');
  });

  it('still reads a <noscript> that names JavaScript in its own prose', () => {
    const html = `<body><div id="app"></div><noscript><div class="post"><p>${prose(1)}</p>
      <p>Our guide explains why the old plugin requires JavaScript and how the new one does without it, step by step, with examples.</p></div></noscript></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(1));
    expect(md).toContain('requires JavaScript and how');
  });

  it('does not drop an element whose class names the content beside a furniture word', () => {
    const html = `<body><div class="article-body pagination-first"><p>${prose(1)}</p></div></body>`;
    expect(transformPage(html, opts(), MD).markdown).toContain(prose(1));
  });

  it('keeps an article whose comment thread is longer than the article itself', () => {
    const html = `<body><div><div class="body">${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `<p>${prose(n)}</p>`).join('')}</div>
      <ol class="comment-list">${Array.from({ length: 40 }, (_, n) => `<li class="comment"><p>Reader comment ${n}: I think so too, and I said it first, twice.</p></li>`).join('')}</ol></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(10));
    expect(md).not.toContain('Reader comment');
  });

  it('keeps the replies under a long opening post on a page that declares itself a discussion', () => {
    const thread = `<div><div class="body">${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `<p>${prose(n)}</p>`).join('')}</div>
      <ol class="comment-list">${Array.from({ length: 40 }, (_, n) => `<li class="comment"><p>Reply ${n}: I had the same trouble, and a clean build fixed it.</p></li>`).join('')}</ol></div>`;
    const jsonLd = `<head><script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Build fails"}</script></head>`;
    const microdata = `<div itemscope itemtype="https://schema.org/QAPage">${thread}</div>`;
    for (const html of [`<html>${jsonLd}<body>${thread}</body></html>`, `<body>${microdata}</body>`]) {
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain(prose(10));
      expect(md).toContain('Reply 39:');
    }
  });

  it('keeps a short post, marked up as the page’s one <article>, over the longer thread below it', () => {
    const html = `<body><div class="site"><article><h1>Open thread</h1>${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}</article>
      <ol class="comment-list">${Array.from({ length: 40 }, (_, n) => `<li class="comment"><p>Reader comment ${n}: I think so too, and I said it first, twice.</p></li>`).join('')}</ol></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const n of [1, 2, 3]) expect(md).toContain(prose(n));
    expect(md).not.toContain('Reader comment');
  });

  it('keeps every paragraph of a post whose comment thread sits beside them in the same wrapper', () => {
    const html = `<body><div class="postarea"><h1>Day eighteen</h1>${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `<p>${prose(n)}</p>`).join('')}
      <div class="comments-wrapper"><ol>${Array.from({ length: 40 }, (_, n) => `<li><p>Reader comment ${n}: I think so too, and I said it first, twice.</p></li>`).join('')}</ol></div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) expect(md).toContain(prose(n));
    expect(md).not.toContain('Reader comment');
  });

  it('leaves out the comments under each post of a Q&A page, not only a thread at the end', () => {
    const comments = (post: string) =>
      `<ul class="comments-list">${[1, 2, 3].map((n) => `<li class="comment"><p>Comment ${n} on the ${post}: did you try turning it off and on again first?</p></li>`).join('')}</ul>`;
    const html = `<body><div id="mainbar"><div class="question"><h1>Why does my build fail?</h1>${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}${comments('question')}</div>
      <div class="answer">${[4, 5, 6].map((n) => `<p>${prose(n)}</p>`).join('')}${comments('answer')}</div>
      <div class="answer">${[7, 8, 9].map((n) => `<p>${prose(n)}</p>`).join('')}</div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9]) expect(md).toContain(prose(n));
    expect(md).not.toContain('Comment 1');
  });

  it('does not read a heading’s slug in an id as a comment block: a manual’s section on replying stays', () => {
    const html = `<body><div class="document">${[1, 2, 3]
      .map((s) => `<section id="${s === 3 ? 'respond-to-review-comments-promptly' : `step-${s}`}"><h2>Step ${s}</h2><p>${prose(s)}</p><p>${prose(s + 3)}</p></section>`)
      .join('')}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const n of [1, 2, 3, 4, 5, 6]) expect(md).toContain(prose(n));
  });

  it('exempts a subtree the class rules dropped when it holds more prose than everything kept', () => {
    // Page builders name every content wrapper with furniture words.
    const html = `<body><div class="builder-menu-section">${[1, 2, 3, 4, 5, 6].map((n) => `<p>${prose(n)}</p>`).join('')}</div>
      <div><p>Opening hours: Monday to Friday, nine to five.</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const n of [1, 2, 3, 4, 5, 6]) expect(md).toContain(prose(n));
  });

  it('does not exempt a site footer that holds less than twice the prose of a short article', () => {
    const service =
      'Our customer service centre can be contacted with any questions or requests, by telephone on weekdays between seven and two, or by e-mail at any time. ' +
      'For international customers the centre is staffed on Sundays through Thursdays between seven in the morning and six in the evening, local time. ' +
      'Subscribers may also write to the postal address below, and letters are answered within ten working days of their arrival.';
    const html = `<body><article><h1>Short story</h1>${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<p>${prose(n)}</p>`).join('')}</article>
      <div class="site-footer-wrap"><div class="footer-text">${['Our', 'The', 'This'].map((w) => `<p>${service.replace('Our', w)}</p>`).join('')}</div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(8));
    expect(md).not.toContain('customer service');
  });

  it("drops an ad slot's label left between paragraphs, and keeps the word in a sentence", () => {
    const html = `<body><article><h1>Story</h1><p>${prose(1)}</p>
      <div class="slot-wrapper"><div class="slot-label">Advertisement</div><div class="slot"></div></div><p>${prose(2)}</p>
      <center><span>Anzeige</span><br></center><p>${prose(3)}</p><p>Advertisement</p><p>Advertisement revenue fell.</p>
      <table><tr><th>Plan</th><th>Extras</th></tr><tr><td>Free</td><td>Ads</td></tr><tr><td>Plus</td><td>No ads</td></tr></table></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(3));
    expect(md).not.toMatch(/^Advertisement$/m);
    expect(md).not.toContain('Anzeige');
    expect(md).toContain('Advertisement revenue fell.');
    // A table's cell with the word is the table's.
    expect(md).toContain('| Free | Ads |');
  });

  it("drops an ad slot's label set inline above the slot's empty box", () => {
    const html = `<body><article><h1>Story</h1><p>${prose(1)}</p>
      <div class="wpa"><span class="about">Iklan</span><div class="u"><div style="width:300px;height:250px"></div></div></div>
      <p>${prose(2)}</p></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(2));
    expect(md).not.toContain('Iklan');
  });

  it("drops a gallery's counter and text buttons, and keeps such words as headings, terms and links", () => {
    const html = `<body><article><h1>Story</h1><p>${prose(1)}</p>
      <div class="gallery"><img src="/a.jpg" alt="Ministers shake hands in Hanoi"><div class="controls">
      <div class="stats">Image
        <span>1</span> <span>of</span> <span>/</span> <span>8</span></div><div class="toggle"><p>Caption</p><p>Close</p></div></div></div>
      <p>${prose(2)}</p><dl><dt>close</dt><dd>Fired when the connection ends.</dd></dl><h2>Next</h2><p>${prose(3)}</p></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Ministers shake hands');
    expect(md).not.toContain('of /');
    expect(md).not.toMatch(/^(?:Caption|Close)$/m);
    expect(md).toContain('**close**');
    expect(md).toContain('## Next');
  });

  it('drops the paragraph that names a rail together with the teaser paragraphs after it', () => {
    const html = `<body><article><h1>Story</h1><p>${prose(1)}</p><p>${prose(2)}</p><p>You may also like...</p>
      <p><a href="/other-1">Who will make the hall of fame next year?</a></p><p><a href="/other-2">The ten best concerts of the summer season</a></p>
      <p>${prose(3)}</p><p>Don't miss</p><p>${prose(4)}</p></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(4));
    expect(md).not.toContain('You may also like');
    expect(md).not.toContain('hall of fame');
    expect(md).toContain("Don't miss"); // no teasers after it: a sentence of the text
  });

  it("drops a collapsed text's toggle and a comment counter built from plain elements, and keeps the text", () => {
    const html = `<body><article><h1>Story</h1><div class="collapsible"><p>${prose(1)}</p><p>${prose(2)}</p></div>
      <div class="toggle">Read more</div><p>${prose(3)}</p><div class="count">12 Comments</div></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(2));
    expect(md).not.toContain('Read more');
    expect(md).not.toContain('Comments');
  });

  it('exempts such a subtree before falling back to the whole page, so hidden popups stay out', () => {
    const popup = (n: number) => `Popup ${n}: join our club today and save on every order, with free delivery, all year.`;
    const html = `<body><div class="builder-menu-section">${[1, 2, 3, 4, 5, 6].map((n) => `<p>${prose(n)}</p>`).join('')}</div>
      <div style="display:none"><p>${popup(1)}</p><p>${popup(2)}</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const n of [1, 2, 3, 4, 5, 6]) expect(md).toContain(prose(n));
    expect(md).not.toContain('Popup');
  });

  it('exempts a wrapper hidden until scripts run that holds the page’s title, so its hidden popups stay out', () => {
    // An app that checks access before it shows a shop's product, a block deferred until scripts
    // run, a page that fades in: the whole content sits in a wrapper hidden by a style or a class.
    const popup = (n: number) => `Popup ${n}: join our club today and save on every order, with free delivery, all year.`;
    for (const hiding of ['style="display:none;"', 'class="root hide"']) {
      const html = `<body><header><a href="/">Roastery</a></header><main><div ${hiding}><div class="product">
        <h1>Dark Roast Coffee</h1><p><span class="visually-hidden">Regular price</span> $19.99</p>${[1, 2, 3, 4, 5, 6].map((n) => `<p>${prose(n)}</p>`).join('')}
        <div class="share-buttons"><p>Share this coffee with a friend and you both get ten percent off.</p></div></div></div></main>
        <div style="display:none"><p>${popup(1)}</p><p>${popup(2)}</p></div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('# Dark Roast Coffee');
      for (const n of [1, 2, 3, 4, 5, 6]) expect(md).toContain(prose(n));
      expect(md).toContain('$19.99');
      // The rules still apply inside it: the whole-page fallback would keep these.
      expect(md).not.toContain('Regular price');
      expect(md).not.toContain('Share this coffee');
      expect(md).not.toContain('Popup');
    }
  });

  it('exempts the hidden wrapper that holds the page’s title, not a longer hidden popup', () => {
    const policy = (n: number) => `Policy note ${n}: as an authorised dealer we are bound by agreements with our suppliers, so some prices are shown only on request.`;
    const html = `<body><main><div style="display:none"><h1>Laser projector</h1>${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<p>${prose(n)}</p>`).join('')}</div></main>
      <div style="display:none" class="policy">${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => `<p>${policy(n)}</p>`).join('')}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(8));
    expect(md).not.toContain('Policy note');
  });

  it('does not exempt a hidden copy of the story for crawlers beside the story it kept', () => {
    // A copy marked up for search engines, hidden from readers, is the story again.
    const html = `<body><article><h1>Budget approved</h1>${[1, 2, 3, 4, 5].map((n) => `<p>${prose(n)}</p>`).join('')}</article>
      <div style="display:none;" itemscope itemtype="http://schema.org/NewsArticle"><h1 itemprop="name">Budget approved</h1>
      <div itemprop="articleBody">${[1, 2, 3, 4, 5, 6].map((n) => `<p>${prose(n)}</p>`).join('')}</div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(5));
    // The copy's markup differs (a teaser's extra line, its own blocks): none of it is read.
    expect(md).not.toContain(prose(6));
  });

  it('reads the content React streams in as a hidden boundary', () => {
    const html = `<body><div id="root"><template id="B:0"></template></div>
      <div hidden id="S:0"><main>${[1, 2].map((n) => `<p>${prose(n)}</p>`).join('')}</main></div>
      <div hidden><p>Hidden dialog text, never shown to readers.</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(2));

    expect(md).not.toContain('Hidden dialog');
  });

  it('reads a streamed boundary whose number is in hex, as React writes it', () => {
    const html = `<body><div id="root"><div><h1>Executive Chair</h1><p>$659.99</p><p>${prose(1)}</p><p>${prose(2)}</p></div>
      <template id="B:2e"></template></div>
      <div hidden id="S:2e"><section><h2>Features</h2><p>${prose(3)}</p><p>${prose(4)}</p></section></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['# Executive Chair', prose(1), prose(3), prose(4)]) expect(md).toContain(kept);
  });

  it('keeps a listing whose item titles and teasers are links, and drops the short-link menu', () => {
    const items = [1, 2, 3, 4, 5]
      .map((n) => `<li><a href="/p${n}"><h3>Item ${n}: a headline that runs long enough</h3><p>Teaser ${n} for the item, with a sentence or two about what it covers.</p></a></li>`)
      .join('');
    const html = `<body><div class="menu-bar"><ul>${['Home', 'News', 'Sport', 'Weather'].map((w) => `<li><a href="/${w}">${w}</a></li>`).join('')}</ul></div>
      <div><h1>Latest</h1><ul>${items}</ul></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const n of [1, 2, 3, 4, 5]) expect(md).toContain(`Teaser ${n} for the item`);
    expect(md).not.toContain('Weather');
  });

  it('drops a teaser rail that a "You may also like" heading introduces, whatever its classes', () => {
    const rail = `<div class="c-12"><h2>You may also like:</h2>${[1, 2, 3]
      .map((n) => `<div><h3>Other story ${n}</h3><p>Another story's teaser, long enough to read as prose, to tempt you away.</p></div>`)
      .join('')}</div>`;
    const html = `<body><div><div>${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}</div>${rail}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(3));
    expect(md).not.toContain('Other story');
    expect(isRailHeading('Related Articles')).toBe(true);
    expect(isRailHeading('Customers also viewed')).toBe(true);
    expect(isRailHeading('About the Author')).toBe(true);
    expect(isRailHeading('About the company')).toBe(false);
    expect(isRailHeading('Complete the look')).toBe(true);
    expect(isRailHeading('Often viewed with each other')).toBe(true);
    expect(isRailHeading('This is what customers who viewed this product bought')).toBe(true);
    expect(isRailHeading('Share on other sites')).toBe(true);
    expect(isRailHeading('Link to post')).toBe(true);
    expect(isRailHeading('More from Bershka')).toBe(true); // a brand's or a site's other items
    expect(isRailHeading("Don't Miss")).toBe(true);
    expect(isRailHeading('Popular on IndieWire')).toBe(true); // a site's most read, beside the story
    expect(isRailHeading('More Great WIRED Stories')).toBe(true);
    expect(isRailHeading("Don't miss the deadline for entries")).toBe(false);
    expect(isRailHeading('Most read in world news')).toBe(true);
    expect(isRailHeading('Most read')).toBe(false); // a listing's own title
    expect(isRailHeading('Like this:')).toBe(true); // a blog engine's likes and share buttons
    // A business's own blog or thought pieces, teased below the offer it describes.
    expect(isRailHeading('Our Latest Insights')).toBe(true);
    expect(isRailHeading('From the blog')).toBe(true);
    expect(isRailHeading('Featured insights')).toBe(true);
    expect(isRailHeading('Recent Posts')).toBe(true);
    expect(isRailHeading('Key insights')).toBe(false);
    expect(isRailHeading('Share this article')).toBe(true);
    expect(isRailHeading('Share this with your team')).toBe(false);
    expect(isRailHeading('Featured products')).toBe(false); // a collection page heads its own grid so
    expect(isRailHeading('Recommended Posts')).toBe(false); // forum software heads a thread's posts so
    expect(isRailHeading('Installation')).toBe(false);
  });

  it('drops a shop\'s rail of other products that "Pairs well with" heads, and knows its kin', () => {
    const rail = `<div class="c-12"><h2>Pairs well with</h2>${[1, 2, 3]
      .map((n) => `<div><h3>Kettle stand ${n}</h3><p>A sturdy stand for your kettle, long enough to read as prose, to tempt you.</p></div>`)
      .join('')}</div>`;
    const html = productPage('Camp Kettle', rail);
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(3));
    expect(md).not.toContain('Kettle stand');
    expect(isRailHeading("We know you'll love these too")).toBe(true);
    expect(isRailHeading('Similar items to consider')).toBe(true);
    expect(isRailHeading('Compare with similar products')).toBe(true);
    expect(isRailHeading('More to consider')).toBe(true);
    expect(isRailHeading('Ils vont bien ensemble')).toBe(true);
    expect(isRailHeading("You'll love how easy it is to cook")).toBe(false);
  });

  it('drops a rail of other products that shoppers "also bought", however the shop names them', () => {
    const rail = `<div class="c-14"><h3>Others Like You Also Bought:</h3>${[1, 2, 3]
      .map((n) => `<div><h4>Phone case ${n}</h4><p>A slim leather case that ages beautifully, long enough to read as prose.</p></div>`)
      .join('')}</div>`;
    const md = transformPage(productPage('Leather Wallet', rail), opts(), MD).markdown!;
    expect(md).toContain(prose(3));
    expect(md).not.toContain('Phone case');
    expect(isRailHeading('Shoppers also viewed')).toBe(true);
    expect(isRailHeading('Customers like you also purchased')).toBe(true);
    expect(isRailHeading('Others also bought')).toBe(true);
    expect(isRailHeading('Others also bought this guitar to learn on')).toBe(false);
  });

  it('drops layers that utility classes pin over the viewport: a cart drawer, a size chart, a sticky bar', () => {
    const layers = `<div class="fixed inset-0 z-50 bg-white/90"><h2>Your bag</h2><p>Your bag is empty, but it does not have to stay that way for long.</p></div>
      <div class="z-40 fixed inset-0 overflow-y-auto"><h3>Size chart</h3><p>The runner fits true to size for most customers, so order your usual size.</p></div>
      <div class="fixed bottom-0 left-0 right-0 py-2"><p>Camp Kettle, in stock and ready to ship today from our warehouse.</p></div>`;
    const md = transformPage(productPage('Camp Kettle', layers), opts(), MD).markdown!;
    expect(md).toContain('# Camp Kettle');
    for (const n of [1, 2, 3]) expect(md).toContain(prose(n));
    for (const gone of ['Your bag', 'Size chart', 'fits true to size', 'ready to ship']) expect(md).not.toContain(gone);
    const reason = (cls: string) => boilerplateReason('div', attrsFrom({ class: cls }), true);
    expect(reason('fixed top-0 w-full')).toBe('pinned-overlay');
    // Not pinned along an edge, in the flow from some screen width on, or not fixed at all.
    expect(reason('fixed bottom-6 right-6')).toBeUndefined();
    expect(reason('fixed inset-0 z-40 lg:static')).toBeUndefined();
    expect(reason('sticky top-0')).toBeUndefined();
    expect(reason('position-fixed inset-0')).toBeUndefined();
  });

  it('keeps an app laid out in one pinned viewport when it holds the page\'s title, with the rules still on inside it', () => {
    const html = `<body><div class="fixed inset-0 flex flex-col"><div class="flex-1 overflow-auto"><h1>Pricing</h1>
      <p>Every plan starts free, and you pay only for what you use after that.</p><p>Volume discounts apply automatically.</p>
      <div class="share-buttons"><p>Share this page with your team and plan together.</p></div>
      <div class="fixed inset-0 z-50"><h2>Stay in touch</h2><p>New features first, twice a month.</p></div></div></div>
      <div class="status"><p>All systems are operational, checked a minute ago.</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('# Pricing');
    expect(md).toContain('Every plan starts free');
    expect(md).toContain('Volume discounts apply');
    for (const gone of ['Share this page', 'Stay in touch', 'New features first']) expect(md).not.toContain(gone);
    // Its title outside it, the layer that holds more prose than the rest of the page is the page too.
    const scroller = `<body><div class="title-bar"><h1>Release notes</h1></div><div class="fixed inset-0 top-12 overflow-y-auto">
      ${[1, 2, 3, 4, 5, 6].map((n) => `<p>${prose(n)}</p>`).join('')}<div class="share-buttons"><p>Share these notes with your team.</p></div></div></body>`;
    const notes = transformPage(scroller, opts(), MD).markdown!;
    for (const n of [1, 2, 3, 4, 5, 6]) expect(notes).toContain(prose(n));
    expect(notes).not.toContain('Share these notes');
  });

  it('drops only the rail, not the wrapper it opens that goes on to the product and its title', () => {
    const rail = `<section><h2>People who viewed this item also viewed</h2>${[1, 2, 3]
      .map((n) => `<div class="card"><h3>Other chain ${n}</h3><p>$${n}9.00</p></div>`)
      .join('')}</section>`;
    const html = `<body><main><div class="main-container">${rail}<div class="item"><h1>Drive Chain 520</h1>
      <p>EUR 163.12</p><p>Condition: not specified</p><p>${prose(1)}</p></div></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['# Drive Chain 520', 'EUR 163.12', 'Condition: not specified', prose(1)]) expect(md).toContain(kept);
    expect(md).not.toContain('Other chain');
  });

  it('reads a rail heading set apart from its tagline in elements of their own', () => {
    const rail = `<div class="block"><h2><span>Complete the look</span><span>Outfit inspiration</span></h2>${[1, 2, 3]
      .map((n) => `<div><h3>Outfit ${n}</h3><p>A look built around a jacket, with boots and a beanie, for the city.</p></div>`)
      .join('')}</div>`;
    const html = productPage('Faux leather jacket', rail);
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(3));
    expect(md).not.toContain('Outfit');
  });

  it('keeps a "modal" inside the main landmark (a product\'s details) and drops one outside it', () => {
    const html = `<body><main><h1>Shelf unit</h1><p>Standing or lying, the shelf adapts to taste, space and budget.</p>
      <div class="product-details-modal"><h2>Product details</h2><p>${prose(1)}</p><p>${prose(2)}</p></div></main>
      <div class="newsletter-modal"><p>Sign up today and save ten percent on your first order, with free delivery.</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['# Shelf unit', 'Product details', prose(1), prose(2)]) expect(md).toContain(kept);
    expect(md).not.toContain('Sign up today');
  });

  it('keeps the buy box around the product title (name, price) beside the description it scores', () => {
    const review = (n: number) => `Review ${n}: these shoes fit well and kept my feet warm on a long walk, though they ran a bit small.`;
    const page = (priceClass: string) => `<body><div class="layout"><div class="top"><div class="buy-box"><h1>Trail Runner</h1>
      <div class="${priceClass}">$110.00</div><p>Colour: Natural Grey</p></div>
      <div class="reviews">${[1, 2].map((n) => `<p>${review(n)}</p>`).join('')}</div></div>
      <div class="details"><h2>The details</h2>${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}</div></div></body>`;
    const md = transformPage(page('product-price'), opts(), MD).markdown!;
    for (const kept of ['# Trail Runner', '$110.00', 'Colour: Natural Grey', prose(1), prose(3)]) expect(md).toContain(kept);
    expect(md).not.toContain('Review 1');
    // Without a price, the block around the title is no buy box: only the title is added.
    const plain = transformPage(page('rating'), opts(), MD).markdown!;
    expect(plain).toContain('# Trail Runner');
    expect(plain).not.toContain('$110.00');
  });

  it('leaves out a rail of other products (linked cards with a price) inside a product page', () => {
    const card = (n: number) => `<li class="tile"><a href="/p/${n}"><img src="/p${n}.jpg" alt=""><h3>Camp mug ${n}</h3></a>
      <p>Enamel mug number ${n}, light and tough, for the trail.</p><span class="price">$${n}5.00</span></li>`;
    const html = `<body><div class="product"><h1>Camp Kettle</h1><p class="price">$40.00</p>
      <div class="description">${[1, 2, 3, 4, 5, 6].map((n) => `<p>${prose(n)}</p>`).join('')}</div>
      <div class="more"><h2>Pairs well with</h2><ul>${[1, 2, 3, 4].map(card).join('')}</ul></div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['# Camp Kettle', prose(1), prose(6)]) expect(md).toContain(kept);
    expect(md).not.toContain('Enamel mug number 1');
    expect(md).not.toContain('$25.00');
  });

  it('leaves out a rail of cards that show their prices only in their text, beside a buy box its markup names', () => {
    const card = (n: number) => `<li class="k7Qx"><a href="/p/${n}"><img src="/p${n}.jpg" alt=""><h3>Camp mug ${n}</h3>
      <p class="z1"><span class="q2">€${n}5.00</span></p></a></li>`;
    const html = `<body><div class="a1"><div class="b2"><h1>Camp Kettle</h1><div data-testid="pdp-price"><span>€40.00</span></div></div>
      <div class="c3">${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}</div>
      <div class="d4"><h2>Others</h2><ul class="r9">${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join('')}</ul></div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['# Camp Kettle', '€40.00', prose(1), prose(3)]) expect(md).toContain(kept);
    expect(md).not.toContain('Camp mug 1');
    expect(md).not.toContain('€25.00');
  });

  it('keeps a chart\'s entries whose title and price are links beside a picture of their own', () => {
    const entry = (n: number) => `<li class="entry"><a aria-hidden="true" href="/b/${n}"><div><img src="/b${n}.jpg" alt="Book ${n}"></div></a>
      <div><a href="/b/${n}">The long night of book number ${n}</a><div>Author ${n}</div><a href="/b/${n}"><div><span class="price">$1${n}.40</span></div></a></div>
      <div>${n + 2} formats available</div></li>`;
    const html = `<body><main><h1>Best sellers in books</h1><ol>${[1, 2, 3, 4, 5].map(entry).join('')}</ol></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['The long night of book number 1', 'Author 3', '$15.40']) expect(md).toContain(kept);
  });

  it('keeps a buying guide\'s priced picks, each reviewed at length, as the guide\'s own text', () => {
    const pick = (n: number) => `<li class="pick"><h2>Pick ${n}</h2><div class="buy"><a href="/shop/${n}">Shop at the store</a><span class="price"><a href="/shop/${n}">$${n}9.99</a></span></div>
      ${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((k) => `<p>Pick ${n}, note ${k}: ${prose(k)}</p>`).join('')}</li>`;
    const html = `<body><article><h1>The best kettles</h1><p>${prose(9)}</p><ul class="picks">${[1, 2, 3].map(pick).join('')}</ul>
      <div class="method">${Array.from({ length: 40 }, (_, i) => i + 1).map((k) => `<p>Method ${k}: ${prose(k)}</p>`).join('')}</div></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Pick 2, note 5');
  });
});
