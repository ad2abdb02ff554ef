/** Choosing the main block: landmarks, the scoring of the block tree, series of items, rails and discussions. */
import { describe, expect, it } from 'vitest';
import { transformPage } from './index.js';
import { attrsFrom } from './html-util.js';
import { boilerplateReason } from './main-content.js';
import { isRailHeading } from './rules/rail-heading.js';
import { MD, opts } from './main-content.fixtures.js';

describe('content scoring', () => {
  const prose = (n: number) =>
    `Paragraph ${n} of the story explains, in plain words, what happened and why it matters to readers.`;
  /** A shop's product page: its title and three paragraphs of description, and `beside` after them. */
  const productPage = (title: string, beside: string) =>
    `<body><div><div><h1>${title}</h1>${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}</div>${beside}</div></body>`;
  const teasers = (label: string) =>
    `<div class="${label}"><h3>More from the site</h3>${[1, 2, 3]
      .map((n) => `<div><a href="/t${n}">Teaser headline number ${n}</a><p>A short teaser, to tempt you.</p></div>`)
      .join('')}</div>`;

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

  it('leaves out priced cards beside a product\'s buy box though the page has next to no prose', () => {
    const card = (n: number) => `<li class="acc"><a href="/p/${n}"><img src="/p${n}.jpg" alt=""></a>
      <a href="/p/${n}">Luggage tag model ${n} in black</a><div class="price">$${n}5.00</div></li>`;
    const html = `<body><main><div class="buy-box"><h1>Light roadcase</h1><div>Special order</div><div class="price">$1,772.00</div>
      <p>A padded case for four lights, on wheels, with a lid that locks.</p></div><div class="extras"><h4>Add to your order</h4><ul>${[1, 2, 3].map(card).join('')}</ul></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['# Light roadcase', '$1,772.00', 'on wheels']) expect(md).toContain(kept);
    expect(md).not.toContain('Luggage tag model 2');
  });

  it('keeps the specifications table in the block beside the description it scores', () => {
    const html = `<body><div class="page"><div class="tabs"><div class="tab-desc"><h1>Graphics card</h1>${[1, 2, 3, 4, 5, 6].map((n) => `<p>${prose(n)}</p>`).join('')}</div>
      <div class="tab-specs"><div class="title">Learn more about the card</div><table><tr><th>Core clock</th><td>732 MHz</td></tr><tr><th>Boost clock</th><td>915 MHz</td></tr></table></div></div>
      <div class="sidebar-widget"><div class="label">Archive</div><div>Some words</div></div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(6));
    expect(md).toContain('915 MHz');
  });

  it('keeps a grid\'s cards whose price no class names: a currency sign beside a figure, outside the links', () => {
    const card = (n: number) => `<div class="col-span-1"><a href="/d/${n}"><img src="/d${n}.jpg" alt=""></a>
      <div class="mr-5"><a href="/d/${n}">+ More</a><a href="/d/${n}">Standing desk model ${n}</a><div><p>$ ${n}29 +</p></div></div></div>`;
    const html = `<body><main><h1>Standing desks</h1><p>${prose(1)}</p><div class="grid">${[1, 2, 3, 4, 5, 6].map(card).join('')}</div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['Standing desk model 1', '$ 629 +']) expect(md).toContain(kept);
  });

  it('writes a picture once when a gallery repeats it (thumbnails, cloned slides), by its alt text', () => {
    const img = (size: number, alt: string) => `<img src="/img/${alt.length}-${size}.jpg" alt="${alt}">`;
    const html = `<body><main><h1>Leather jacket</h1><div class="gallery">${img(800, 'Black jacket, front view')}${img(800, 'Black jacket, back view')}
      <ul>${['Black jacket, front view', 'Black jacket, back view'].map((a) => `<li><a href="/zoom">${img(50, a)}</a></li>`).join('')}<li>${img(50, '')}</li></ul></div>
      <p>${prose(1)}</p><p><a href="/zoom">${img(60, 'Black jacket, back view')}${img(70, 'Black jacket, back view')}</a> <a href="/sizes">${img(80, 'Black jacket, front view')} Size guide</a></p>
      <p>${prose(2)}</p></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    // (Pictures in links keep no alt text, which says what the linked page shows; see markdown.test.ts.)
    expect(md).toMatch(/\[!\[\]\([^)]*\) Size guide\]\(https:\/\/news\.example\.com\/sizes\)$/m);
    expect(md).not.toMatch(/^\s*\[\s*$|[^!]\[\]\(/m);
    expect(md.match(/!\[Black jacket, front view\]/g)).toHaveLength(1);
    expect(md.match(/!\[Black jacket, back view\]/g)).toHaveLength(1);
    expect(md).toContain('![](');
    expect(md).not.toMatch(/^- *$/m);
    expect(md).toContain(prose(2));
  });

  /** The slides' pictures are written without their alt text; the page's own text and pictures stay. */
  const expectSlidesWithoutAlt = (html: string, secondPhoto: string, alts: string[], kept: string) => {
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(`](https://news.example.com/photos/${secondPhoto})`);
    for (const alt of alts) expect(md).not.toContain(alt);
    expect(md).toContain(kept);
    expect(md).toContain(prose(1));
  };

  it("writes a gallery's slides without their alt text: a list of pictures alone, not the page's text", () => {
    const slide = (n: number, alt: string) => `<li class="slide"><img src="/photos/mug-${n}.jpg" alt="${alt}"></li>`;
    const html = `<body><main><h1>Enamel camp mug</h1><ul class="media">${slide(1, 'Blue enamel mug on a rock by a lake')}${slide(2, 'Mug held in two hands beside a tent')}</ul>
      <p>${prose(1)}</p><ul><li><img src="/icons/steel.svg" alt=""> Steel body, dishwasher safe</li></ul></main></body>`;
    expectSlidesWithoutAlt(html, 'mug-2.jpg', ['by a lake', 'beside a tent'], 'Steel body, dishwasher safe');
  });

  it("writes a slider's slides built from blocks without their alt text, as a gallery's list items", () => {
    const slide = (n: number, alt: string) => `<div class="swiper-slide"><a href="/photos/lamp-${n}-large.jpg"><img src="/photos/lamp-${n}.jpg" alt="${alt}"></a></div>`;
    const html = `<body><main><h1>Brass desk lamp</h1><div class="swiper">${slide(1, 'Lamp lit on an oak desk at night')}${slide(2, 'Close view of the brass hinge')}</div>
      <p>${prose(1)}</p><div><img src="/photos/lamp-plan.jpg" alt="Drawing of the lamp with its measurements"></div></main></body>`;
    expectSlidesWithoutAlt(html, 'lamp-2.jpg', ['oak desk', 'brass hinge'], 'Drawing of the lamp with its measurements');
  });

  it('keeps the page title free of the CSS-in-JS rules a styled heading carries', () => {
    const html = `<body><div class="sidebar"><h1 class="css-1"><style data-emotion="css 1">.css-1{font-weight:700;}</style>Brand <style>.css-2{margin:0}</style>Face Cream</h1></div><div>${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Brand Face Cream');
    expect(md).not.toContain('font-weight');
  });

  it('reads rail headings in the languages CMS templates ship, not only English', () => {
    expect(isRailHeading('Você pode gostar...')).toBe(true);
    expect(isRailHeading('También te puede interesar')).toBe(true);
    expect(isRailHeading('Das könnte Sie auch interessieren')).toBe(true);
    expect(isRailHeading('À lire aussi')).toBe(true);
    expect(isRailHeading('Leggi anche:')).toBe(true);
    expect(isRailHeading('Você pode mudar')).toBe(false);
    expect(isRailHeading('Lire la suite')).toBe(false);
    expect(isRailHeading('Join the conversation...')).toBe(true);
    expect(isRailHeading('Leave a Reply')).toBe(true);
    expect(isRailHeading('Comments')).toBe(false); // a forum's own posts
  });

  it("drops a shop's reviews widget that an invitation to review heads, and keeps a plain \"Reviews\" section", () => {
    const widget = `<div class="c-7"><h2>Be the first to review this item</h2><p>This is a unique item, and there are no reviews yet. See what customers say about other items from this shop.</p><p>5.0 (1.1k sales)</p></div>`;
    const html = productPage('Stoneware Mug', widget);
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(3));
    expect(md).not.toContain('no reviews yet');
    expect(isRailHeading('Write a review')).toBe(true);
    expect(isRailHeading('Add a Review')).toBe(true);
    expect(isRailHeading('Reviews')).toBe(false); // a review site's or a shop's own section
    expect(isRailHeading('Customer Reviews')).toBe(false);
    expect(isRailHeading('Write a review of your stay to win a prize')).toBe(false);
  });

  it("drops a shop's shipping-and-returns panel, titled in a <summary> or in a heading a trigger wraps, and keeps the product's own panels", () => {
    const policy = 'Free standard shipping on orders over fifty dollars, and free returns within thirty days of delivery.';
    const html = `<body><main><h1>Trail Runner</h1>${[1, 2].map((n) => `<p>${prose(n)}</p>`).join('')}
      <details><summary><div>Description</div></summary><p>${prose(3)}</p></details>
      <details><summary><div>Delivery &amp; Returns</div></summary><p>${policy}</p><p>Express delivery arrives in one to two business days.</p></details>
      <div class="collapsible"><span role="button" aria-expanded="false"><span><h3>Shipping and Returns</h3></span></span>
      <div class="collapsible-content"><p>Need it fast? Try express shipping. We offer a thirty-day return policy on unworn items.</p></div></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const kept of ['Description', prose(3)]) expect(md).toContain(kept);
    for (const gone of ['Delivery & Returns', 'free returns within thirty days', 'Express delivery', 'Shipping and Returns', 'Need it fast']) expect(md).not.toContain(gone);
    expect(isRailHeading('Shipping & Returns')).toBe(true);
    expect(isRailHeading('Returns and exchanges')).toBe(true);
    expect(isRailHeading('Return policy')).toBe(false); // a section of a shop's own terms page
    expect(isRailHeading('Free shipping on orders over $50')).toBe(false);
  });

  it('drops a teaser rail wrapped in an <article> that its rail heading opens', () => {
    const card = (n: number) =>
      `<article class="post"><h2><a href="/o${n}">Other story ${n}</a></h2><p>Another story's teaser, long enough to read as prose, to tempt you away from here.</p></article>`;
    const html = `<body><article class="post"><h1>Title</h1>${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}</article><article class="post"><h3>Você pode gostar...</h3>${[1, 2, 3, 4, 5].map(card).join('')}</article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(3));
    expect(md).not.toContain('Other story');
    expect(md).not.toContain('gostar');
  });

  it('trims link-led blocks from the edges of the content, and keeps them between paragraphs', () => {
    const filed = (n: number) => `<div>Filed ${n} under these topics here <a href="/t${n}">Politics</a> <a href="/c${n}">Council</a></div>`;
    const html = `<body><div>${filed(1)}<p>${prose(1)}</p>${filed(2)}<p>${prose(2)}</p>${filed(3)}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(1));
    expect(md).toContain('Filed 2 under');
    expect(md).not.toContain('Filed 1 under');
    expect(md).not.toContain('Filed 3 under');
  });

  it('narrows to the block that carries nearly all of the prose, leaving a trailing appeal out', () => {
    const html = `<body><div><div class="a">${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<p>${prose(n)}</p>`).join('')}</div>
      <div class="b"><p>Support our newsroom today: your gift keeps this work free for everyone.</p></div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(8));
    expect(md).not.toContain('Support our newsroom');
  });

  it('keeps what the rules kept when the best block is a stray sentence under an unpunctuated schedule', () => {
    const rounds = Array.from({ length: 12 }, (_, i) => `Round ${i + 1}: ${i + 3} March at the Northern Circuit<br>`).join('');
    const html = `<body><div class="post"><h1>Season calendar</h1><p>${rounds}</p>
      <strong>Tags: <a href="/t/calendar">calendar</a>, <a href="/t/northern">northern circuit</a></strong>
      <p>Comments that are unreadable or disrespectful will not be approved by the moderator.</p></div>
      <aside>${[1, 2, 3, 4, 5, 6].map((n) => `<p>${prose(n)}</p>`).join('')}</aside></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Round 12: 14 March');
    expect(md).not.toContain(prose(1));
  });

  it('unwraps a layout table cell chosen as the content', () => {
    const html = `<body><table><tr><td><a href="/">Home</a></td><td>${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}</td></tr></table></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(3));
  });

  it('keeps a collapsed accordion panel: hidden only until a reader opens it', () => {
    const html = `<body><div><p>${prose(1)}</p><div class="faq"><h3>Can I pay monthly?</h3>
      <div class="accordion-panel" aria-hidden="true"><p>Yes: every plan can be paid monthly or yearly, as you like.</p></div></div>
      <div aria-hidden="true"><p>Decorative duplicate text that screen readers skip.</p></div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('every plan can be paid monthly');
    expect(md).not.toContain('Decorative duplicate');
  });
  it('keeps a hidden tab pane spelt with a separator: a product\'s specifications wait behind their tab', () => {
    const html = `<body><div><h1>Graphics card</h1><p>${prose(1)}</p><div class="tab-content">
      <div class="tab-pane active"><p>${prose(2)}</p></div>
      <div class="tab-pane" style="display:none"><table><tr><th>Boost clock</th><td>2580 MHz</td></tr></table></div></div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('2580 MHz');
  });
  it('keeps a panel a disclosure button opens, whatever its class, and drops other hidden blocks', () => {
    const html = `<body><main><h1>Shipping</h1><p>${prose(1)}</p><div class="questions">
      <h3><button aria-expanded="false" aria-controls="q1">Do you ship abroad?</button></h3>
      <div id="q1" class="body-copy" hidden><p>Yes, to forty countries, with duties paid at checkout.</p></div>
      <div id="signup" hidden><p>A hidden sign-up form's leftover text.</p></div></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('with duties paid at checkout');
    expect(md).not.toContain('leftover text');
  });
  it('keeps a hidden block right after a subheading, as the section the heading opens, and drops other hidden blocks', () => {
    const html = `<body><main><h1>Lantern</h1><p>${prose(1)}</p><div class="questions">
      <h3>Can it stay outdoors?<span class="chevron"></span></h3>
      <div class="copy" style="display: none;"><p>Yes, its shell shrugs off rain and frost all winter long.</p></div>
      <div class="copy" style="display: none;"><p>A hidden note's leftover text.</p></div>
      <p>Ask us anything else.</p><div class="copy" style="display:none"><p>A hidden tip's leftover text.</p></div></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('shrugs off rain and frost');
    expect(md).not.toContain('leftover text');
  });
  it("keeps a carousel's slides that are off screen, and drops the clones that loop it", () => {
    const html = `<body><main><h1>Kettle</h1><p>${prose(1)}</p><div class="swiper"><div class="swiper-wrapper">
      <div class="swiper-slide swiper-slide-active"><p>Boils a full litre in under three minutes.</p></div>
      <div class="swiper-slide" aria-hidden="true"><p>Its base keeps water warm for an hour after it clicks off.</p></div>
      <div class="swiper-slide swiper-slide-duplicate" aria-hidden="true"><p>A cloned slide's leftover text.</p></div></div></div>
      <div class="promo" aria-hidden="true"><p>A hidden promotion's leftover text.</p></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('keeps water warm for an hour');
    expect(md).not.toContain('leftover text');
  });
  it("keeps an accordion's answer that a class hides until it is opened", () => {
    const html = `<body><main><h1>Returns</h1><p>${prose(1)}</p><div class="faq">
      <h3>Can I return a sale item?</h3><div class="faq-accordion-content hidden"><p>Yes, within thirty days, as long as the tags are still on it.</p></div>
      <div class="promo hidden"><p>A hidden promotion's leftover text.</p></div></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('as long as the tags are still on it');
    expect(md).not.toContain('leftover text');
  });
  it('keeps a hidden tab pane named the BEM way ("tab__content")', () => {
    const html = `<body><div><h1>Graphics card</h1><p>${prose(1)}</p><div class="tabs">
      <div class="tab__content is-active"><p>${prose(2)}</p></div>
      <div class="tab__content" hidden><table><tr><th>Memory bus</th><td>256 bit</td></tr></table></div></div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('256 bit');
  });
  it('keeps a collapsed FAQ answer or toggle content: hidden only until the question or the toggle is clicked', () => {
    const html = `<body><div><p>${prose(1)}</p><div class="faq"><h3>Is the pack waterproof?</h3>
      <div class="faq__answer" style="display: none"><p>Yes: the fabric is coated and a rain cover comes with it.</p></div>
      <button class="toggle__title">Ingredients</button><div class="toggle__content" style="display:none"><p>Jojoba seed oil, argan kernel oil and vitamin E.</p></div></div>
      <div style="display:none"><p>A hidden sign-up form's leftover text.</p></div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('a rain cover comes with it');
    expect(md).toContain('Jojoba seed oil');
    expect(md).not.toContain('sign-up form');
  });
  it("keeps a tab panel hidden with the hidden attribute (another language's code), and drops a popover (a prompt shown on request)", () => {
    const html = `<body><main><h1>Send a message</h1><p>${prose(1)}</p>
      <div role="tablist"><button role="tab">Python</button><button role="tab">Node.js</button></div>
      <div role="tabpanel"><p>Install the Python library with pip before you run the example.</p></div>
      <div role="tabpanel" hidden><p>Install the Node.js library with npm before you run the example.</p></div>
      <div popover id="push-prompt"><p>Allow notifications in your browser settings to hear about replies.</p></div>
      <p hidden>A hidden paragraph no control shows.</p></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Install the Python library');
    expect(md).toContain('Install the Node.js library');
    expect(md).not.toContain('Allow notifications');
    expect(md).not.toContain('no control shows');
  });
  it('does not narrow to a <main> when a longer body of prose sits outside it (a category description after the grid)', () => {
    const card = (n: number) => `<li class="product"><a href="/p/${n}"><img src="/p${n}.jpg" alt=""><h3>Gas grill model ${n}, three burners, stainless steel lid</h3></a><span class="price">$${n}99.00</span></li>`;
    const about = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<p>${prose(n)}</p>`).join('');
    const html = `<body><main><h1>Gas grills</h1><ul class="grid">${Array.from({ length: 24 }, (_, i) => card(i + 1)).join('')}</ul></main>
      <div class="category-description"><h2>Choosing a gas grill</h2>${about}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(4));
  });
  it('still narrows to a <main> whose own body is longer than the prose outside it', () => {
    const html = `<body><main><h1>Harbour reopens</h1><div class="story">${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `<p>${prose(n)}</p>`).join('')}</div></main>
      <div class="promo">${[11, 12, 13, 14, 15, 16, 17, 18].map((n) => `<p>${prose(n)}</p>`).join('')}</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(10));
    expect(md).not.toContain(prose(14));
  });
  describe('a page without a body of prose (a product page in parts)', () => {
    const buy =
      'This walking boot has a waterproof leather upper, a cushioned midsole and a grippy rubber outsole for wet trails in any weather.';
    const more =
      'Each pair is stitched by hand in our workshop, and the laces, insoles and heel tabs can all be replaced when they wear out.';
    const desc =
      'The boot was tested over three hundred miles of mountain paths. It stays dry in streams, keeps ankles steady on scree, and breaks in within a week. Care is simple: brush off mud, let it dry away from heat, and wax the leather twice a season. The sole can be resoled by any cobbler, and the upper is guaranteed for five years. Sizes run true, with half sizes and a wide fit available for every colour we make.';
    const review = (n: number) =>
      `<p>Reviewer ${n} wrote that the boots were comfortable from the first day, kept their feet dry on a rainy week in the hills, and still looked new after a whole season of weekend walks.</p>`;
    const reviews = `<div class="reviews">${Array.from({ length: 3 }, (_, n) => review(n)).join('')}</div>`;
    const buyBox = `<div class="buy"><h1>Trail boot</h1><p>${buy}</p><p>${more}</p><p>£120</p></div>`;

    it('keeps the part beside the chosen one that holds prose and no links (the buy box beside the description)', () => {
      const html = `<body><div class="page">${buyBox}<div class="details"><p>${desc}</p></div>${reviews}</div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain(buy);
      expect(md).toContain(desc);
      expect(md).not.toContain('Reviewer 3');
    });

    it('does not keep a part past a block with links between them', () => {
      const promo = `<div class="promo"><p>Our boots are made to last. <a href="/care">Read our full care guide</a> or <a href="/sizes">see the size chart</a> before you order.</p></div>`;
      const html = `<body><div class="page">${buyBox}${promo}<div class="details"><p>${desc}</p></div>${reviews}</div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain(desc);
      expect(md).not.toContain(buy);
    });

    it('does not keep a part beside a body of prose (an article’s author box)', () => {
      const body = Array.from({ length: 3 }, () => `<p>${desc}</p>`).join('');
      const html = `<body><div class="page"><div class="bio"><p>${buy}</p><p>${more}</p></div><div class="story"><h1>Trail boot</h1>${body}</div>${reviews}</div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain(desc);
      expect(md).not.toContain(buy);
    });
  });

  it('narrows to the first <main> that holds enough of the page, not a longer feed of teasers the template appends', () => {
    const teaser = (n: number) =>
      `<article><a href="/t${n}"><img src="/t${n}.jpg" alt=""><h3>Teaser headline ${n}</h3></a><p>What happened next, and why it matters to you.</p></article>`;
    const html = `<body><main><article><h1>Harbour reopens</h1>${[1, 2, 3, 4, 5, 6].map((n) => `<p>${prose(n)}</p>`).join('')}</article></main>
      <section role="main"><div class="grid">${Array.from({ length: 12 }, (_, i) => teaser(i + 1)).join('')}</div></section></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(3));
    expect(md).not.toContain('Teaser headline');
  });

  it('drops a picture’s caption and credit but keeps the picture and its alt text', () => {
    const html = `<body><article><h1>Harbour reopens</h1><p>${prose(1)}</p>
      <figure><img src="/harbour.jpg" alt="Boats in the harbour"><figcaption>The harbour at dawn, photographed from the pier. Photo: A. Lens</figcaption></figure>
      <p>${prose(2)}</p></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('![Boats in the harbour](https://news.example.com/harbour.jpg)');
    expect(md).toContain(prose(2));
    expect(md).not.toContain('The harbour at dawn');
  });

  it('drops the alt text the publisher copied from a caption that is left out, keeps an alt of its own', () => {
    const caption = 'Fishing boats return to the harbour at dawn on Tuesday, Nov. 19, 2019.';
    const html = `<body><article><h1>Harbour reopens</h1><p>${prose(1)}</p>
      <figure><img src="/a.jpg" alt="${caption} (Photo: A. Lens / Agency)"><figcaption>${caption} (A. Lens)</figcaption></figure>
      <p>${prose(2)}</p>
      <figure><img src="/b.jpg" alt="The pier in fog"><figcaption>${caption}</figcaption></figure></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('![](https://news.example.com/a.jpg)');
    expect(md).not.toContain('Fishing boats');
    expect(md).toContain('![The pier in fog](https://news.example.com/b.jpg)');
  });

  it('keeps a social post embedded in the story, drops the social share bar', () => {
    const html = `<body><article><h1>Campaign draws ridicule</h1><p>${prose(1)}</p>
      <div class="social-media-embed"><blockquote class="twitter-tweet"><p>Yes this is real and the state paid for it.</p>— A. Reader (@areader)</blockquote></div>
      <div class="social-links"><a href="https://twitter.com/share">Tweet this</a></div>
      <p>${prose(2)}</p></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Yes this is real and the state paid for it.');
    expect(md).not.toContain('Tweet this');
  });

  it('drops a caption block named so by its class, but not text styled by a design system’s caption size', () => {
    const html = `<body><article><h1>Harbour reopens</h1><p>${prose(1)}</p>
      <div class="media"><img src="/harbour.jpg" alt="Boats in the harbour"></div>
      <div class="photo-caption">The harbour at dawn, photographed from the pier. <span class="photo-credit">Credit: A. Lens</span></div>
      <p>${prose(2)}</p><p class="caption-s">Opening hours change with the tides, so check before you travel.</p></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('![Boats in the harbour](https://news.example.com/harbour.jpg)');
    expect(md).toContain('Opening hours change with the tides');
    expect(md).not.toContain('The harbour at dawn');
    expect(md).not.toContain('A. Lens');
  });

  it('drops a paragraph that is a teaser link between the paragraphs, but keeps links in the text and items headed by a link', () => {
    const html = `<body><article><h1>Harbour reopens</h1><p>${prose(1)}</p>
      <p><strong><a href="/other">FERRY SERVICE RESUMES AFTER WINTER BREAK: REPORT</a></strong></p>
      <p>MORE: <a href="/more">Fishing fleet returns to the old quay after the winter</a></p>
      <p>${prose(2)} See <a href="/tides">the tide tables</a> before you travel.</p>
      <ul><li><p><a href="/guide">A visitor's guide to the harbour walks</a></p><p>Three walks along the quays, with the best places to watch the boats come in.</p></li>
      <li><p><a href="/map">The harbour map and its landmarks</a></p><p>Where the lighthouse, the fish market and the old customs house stand today.</p></li></ul>
      </article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(prose(2));
    expect(md).toContain('[the tide tables](https://news.example.com/tides)');
    expect(md).toContain("- [A visitor's guide to the harbour walks](https://news.example.com/guide)\n\n  Three walks");
    expect(md).not.toContain('FERRY SERVICE');
    expect(md).not.toContain('Fishing fleet');
  });

  it('keeps a table whole, linked first cells included, at the edge of the content', () => {
    const html = `<body><article><h1>Harbour walks</h1><p>${prose(1)}</p>
      <table><tr><th>Walk</th><th>Length</th><th>Notes</th></tr>
      <tr><td><a href="/quay">The quayside walk to the lighthouse</a></td><td>3 km</td><td>Flat and easy, with benches all along the harbour wall.</td></tr>
      <tr><td><p><a href="/cliff">The cliff path above the old port</a></p></td><td>5 km</td><td>Steep in places, best avoided in wet weather.</td></tr></table>
      </article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('| [The quayside walk to the lighthouse](https://news.example.com/quay) | 3 km | Flat and easy');
    expect(md).toContain('| [The cliff path above the old port](https://news.example.com/cliff) | 5 km | Steep in places');
  });

  describe('a series of items (a product grid, a listing)', () => {
    const card = (n: number) =>
      `<li class="product-card"><a href="/p/${n}"><img src="/i/${n}.jpg" alt=""><h3>Walnut desk organiser model ${n}</h3></a><span class="price">$${n}9.00</span></li>`;
    const menu = `<div class="categories"><ul>${['Desks', 'Chairs', 'Lamps', 'Shelves', 'Rugs', 'Sale']
      .map((c) => `<li><a href="/c/${c}">${c}</a></li>`)
      .join('')}</ul></div>`;

    it('is the content of a listing page, however linked its items are; a menu of one-word links is not', () => {
      const html = `<body>${menu}<div class="listing"><h1>Desk organisers</h1>
        <p>Tidy desks, calmer days. Our organisers are made to last.</p>
        <ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join('')}</ul></div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Walnut desk organiser model 1');
      expect(md).toContain('Walnut desk organiser model 8');
      expect(md).toContain('$89.00');
      expect(md).toContain('Tidy desks, calmer days.');
      for (const gone of ['Chairs', 'Shelves', 'Rugs']) expect(md).not.toContain(gone);
    });

    it('is a teaser rail beside an article with more prose than it has text', () => {
      const html = `<body><div><div class="story">${[1, 2, 3, 4, 5, 6].map((n) => `<p>${prose(n)}</p>`).join('')}</div>
        <ul class="grid">${[1, 2, 3, 4].map(card).join('')}</ul></div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain(prose(6));
      expect(md).not.toContain('Walnut desk organiser');
    });

    it('is kept with the prose beside it when neither clearly outweighs the other and no block is a body of prose', () => {
      const guide = [1, 2, 3].map((n) => `<section class="guide-part"><h2>Buying guide, part ${n}</h2><p>${prose(n)}</p></section>`).join('');
      const html = `<body>${menu}<div class="category"><h1>Desk organisers</h1>
        <ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(card).join('')}</ul></div><div class="guide">${guide}</div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Walnut desk organiser model 12');
      expect(md).toContain(prose(3));
      for (const gone of ['Chairs', 'Shelves', 'Rugs']) expect(md).not.toContain(gone);
    });

    it('is kept with a short introduction in one block when it nearly outweighs it (a recipe index under its blurb)', () => {
      const intro = `<div class="intro"><p>${prose(1)}</p><p>${prose(2)}</p><p>${prose(3)}</p></div>`;
      const html = `<body>${menu}<div class="category"><h1>Desk organisers</h1>${intro}</div>
        <div class="results"><ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(card).join('')}</ul></div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Walnut desk organiser model 12');
      expect(md).toContain(prose(3));
    });

    it('is not a menu whose columns repeat like items, even inside a landmark', () => {
      const column = (c: number) =>
        `<div class="menu-column"><h4>Department ${c}</h4>${['Vitamins', 'Minerals', 'Herbal teas', 'Protein bars']
          .map((x) => `<a href="/c/${c}/${x}">${x} ${c}</a>`)
          .join(' ')}</div>`;
      const html = `<body><main><div class="mega-menu">${[1, 2, 3, 4, 5].map(column).join('')}</div>
        <div class="product"><h1>Toasted almond thins</h1><p>Crisp, light and baked with real almonds.</p></div></main></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Crisp, light and baked');
      expect(md).not.toContain('Herbal teas');
    });

    it('is not made of paragraphs: an article whose paragraphs each hold a link stays an article', () => {
      const para = (n: number) => `<p>${prose(n)} See <a href="/s/${n}">the council's source document number ${n}</a> for more.</p>`;
      const html = `<body><div>${menu}<div class="story">${[1, 2, 3, 4, 5].map(para).join('')}</div></div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain(prose(5));
      expect(md).not.toContain('Chairs');
    });

    it('is a long list of bare links inside the main landmark (an index page), but such a list beside an article is not', () => {
      const langs = ['Ada', 'ALGOL', 'APL', 'BASIC', 'COBOL', 'Eiffel', 'Fortran', 'Haskell', 'Lisp', 'Modula-2', 'Oberon', 'Pascal', 'Prolog', 'Ruby', 'Scheme', 'Simula'];
      const list = `<ul>${langs.map((l) => `<li><a href="/wiki/${l}">${l} programming language</a></li>`).join('')}</ul>`;
      const index = `<body>${menu}<main><h1>List of languages</h1><p>An index of notable languages.</p>${list}</main></body>`;
      const md = transformPage(index, opts(), MD).markdown!;
      expect(md).toContain('Ada programming language');
      expect(md).toContain('Simula programming language');
      expect(md).not.toContain('Chairs');
      const story = `<body><main><div class="story">${[1, 2, 3, 4, 5, 6].map((n) => `<p>${prose(n)}</p>`).join('')}</div>${list}</main></body>`;
      const md2 = transformPage(story, opts(), MD).markdown!;
      expect(md2).toContain(prose(6));
      expect(md2).not.toContain('Simula programming language');
    });

    it('keeps an index split into short lists of links under letter headings inside the main landmark', () => {
      const group = (letter: string) =>
        `<div class="group"><h3>${letter}</h3><ul>${[1, 2, 3, 4].map((n) => `<li><a href="/wiki/${letter}${n}">${letter}-language number ${n}</a></li>`).join('')}</ul></div>`;
      const html = `<body>${menu}<main><h1>Category: languages</h1><p>This category lists individual languages.</p>
        <div class="index">${['A', 'B', 'C', 'D', 'E'].map(group).join('')}</div></main></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('A-language number 1');
      expect(md).toContain('E-language number 4');
      expect(md).not.toContain('Chairs');
    });

    it('counts a card whose picture is hidden from screen readers as an item (a grid of linked cards)', () => {
      const linkCard = (n: number) =>
        `<li class="tile"><a href="/p/${n}"><img aria-hidden="true" src="/i/${n}.jpg" alt=""><span>Walnut desk organiser model ${n}</span></a></li>`;
      const html = `<body>${menu}<div class="category"><h1>Desk organisers</h1><p>${prose(1)}</p>
        <ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8].map(linkCard).join('')}</ul></div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Walnut desk organiser model 1');
      expect(md).toContain('Walnut desk organiser model 8');
      for (const gone of ['Chairs', 'Shelves', 'Rugs']) expect(md).not.toContain(gone);
    });

    it('keeps the teaser a card puts in a link hidden from screen readers, but not that link\'s picture caption', () => {
      const teaser = (n: number) => `Walnut organisers keep pens, cables and notes in reach, story number ${n} explains.`;
      const river = (n: number) =>
        `<article class="river"><a href="/s/${n}" aria-hidden="true" tabindex="-1"><img src="/i/${n}.jpg" alt="A walnut tray on a desk, photo ${n}"></a>
        <h2><a href="/s/${n}">Desk organisers, part ${n}</a></h2><p class="desc"><a href="/s/${n}" aria-hidden="true" tabindex="-1">${teaser(n)}</a></p></article>`;
      const html = `<body>${menu}<main><h1>Organisers</h1><section class="river-list">${[1, 2, 3, 4, 5].map(river).join('')}</section></main></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Desk organisers, part 5');
      expect(md).toContain(teaser(1));
      expect(md).toContain(teaser(5));
      expect(md).not.toContain('A walnut tray on a desk');
      expect(md).not.toContain('Chairs');
    });

    it('drops the alt text of an item\'s picture outside its links when the item has a title link', () => {
      const poster = (n: number) =>
        `<li class="film"><div class="poster"><img src="/i/${n}.jpg" alt="Two actors on a beach in film number ${n}"></div>
        <h3><a href="/f/${n}">Walnut Summer part ${n}</a></h3><span>2026</span></li>`;
      const html = `<body>${menu}<main><h1>Coming soon</h1><ul class="films">${[1, 2, 3, 4, 5].map(poster).join('')}</ul>
        <figure><img src="/i/still.jpg" alt="A still from the festival's opening night"></figure></main></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Walnut Summer part 5');
      expect(md).toContain('![](https://news.example.com/i/1.jpg)');
      expect(md).not.toContain('Two actors on a beach');
      // A picture that is not one of a series' items keeps its alt text.
      expect(md).toContain('opening night');
    });

    it('keeps each item\'s linked title in a blog index whose excerpts are its prose', () => {
      const post = (n: number) =>
        `<div class="post"><div class="thumb"><a href="/p/${n}"><img src="/i/${n}.jpg" alt=""></a></div>
        <div class="title"><h4><a href="/p/${n}">Walnut desk organisers, part ${n}</a></h4></div>
        <p class="excerpt">${prose(n)} ${prose(n + 1)}</p></div>`;
      const html = `<body>${menu}<main><h1>Journal</h1><div class="posts">${[1, 2, 3, 4, 5].map(post).join('')}</div></main></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Walnut desk organisers, part 1');
      expect(md).toContain('Walnut desk organisers, part 5');
      expect(md).toContain(prose(5));
      expect(md).not.toContain('Chairs');
    });

    it('drops a link that only invites a click when it opens its block, but keeps such words inside a sentence', () => {
      const post = (n: number) =>
        `<div class="post"><h3><a href="/p/${n}">Walnut desk organisers, part ${n}</a></h3><p>${prose(n)}</p>
        <p class="more"><a href="/p/${n}">Read more »</a></p></div>`;
      const html = `<body>${menu}<main><h1>Journal</h1><div class="posts">${[1, 2, 3, 4].map(post).join('')}</div>
        <p>${prose(9)} There is <a href="/more">more</a> in the archive, and you can <a href="/learn">learn more</a> there.</p></main></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Walnut desk organisers, part 4');
      expect(md).not.toContain('Read more');
      expect(md).toContain('There is [more](');
      expect(md).toContain('can [learn more](');
    });

    it('keeps the page\'s title and introduction from a block of their own before the series', () => {
      const intro = 'Tidy desks, calmer days: our organisers keep pens, cables and notes in reach, and they are made to last.';
      const links = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<a href="/t/${n}">Popular tag number ${n}</a>`).join(' ');
      const html = `<body>${menu}<div class="archive-head"><h1>Desk organisers</h1><p>${intro}</p></div>
        <div class="layout"><div class="results"><ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(card).join('')}</ul></div>
        <div class="tags">${links} <span>Browse more of our shop by tag, colour, material, size and price range to find the organiser you need.</span></div></div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Walnut desk organiser model 12');
      expect(md).toContain(intro);
      expect(md).not.toContain('Popular tag');
    });

    it('keeps the title and introduction before the <main> that holds only the series', () => {
      const intro = 'Quick and tidy: organisers for every desk, from pen trays to cable boxes, all made to last for years.';
      const html = `<body>${menu}<div class="archive-description"><h1>Desk organisers</h1><p>${intro}</p></div>
        <main><ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join('')}</ul></main>
        <div class="sidebar-widget"><p>${prose(1)}</p></div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Walnut desk organiser model 8');
      expect(md).toContain(intro);
      expect(md.match(/Desk organisers/g)?.length).toBe(1);
      expect(md).not.toContain('Chairs');
    });

    it('keeps the title in a wrapper of its own and the introduction beside it, before the <main> that holds only the series', () => {
      const intro = 'Quick and tidy: organisers for every desk, from pen trays to cable boxes, all made to last for years.';
      const html = `<body>${menu}<div class="archive-header"><div class="title-wrap"><h1>Desk organisers</h1></div><div class="archive-text"><p>${intro}</p></div></div>
        <main><ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join('')}</ul></main>
        <div class="sidebar-widget"><p>${prose(1)}</p></div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Walnut desk organiser model 8');
      expect(md).toContain(intro);
      expect(md.match(/Desk organisers/g)?.length).toBe(1);
    });

    it('is kept, with the other sections’ series, on a front page where together they outweigh a promotion’s blurb', () => {
      const section = (s: number) =>
        `<section class="rail"><h2>Section ${s}</h2><ul class="grid">${[1, 2, 3, 4].map((n) => card(s * 10 + n)).join('')}</ul></section>`;
      const promo = `<div class="promo"><p>${prose(1)}</p><p>${prose(2)}</p></div>`;
      const html = `<body>${menu}<div class="front">${promo}${[1, 2, 3, 4, 5, 6].map(section).join('')}</div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain('Walnut desk organiser model 11');
      expect(md).toContain('Walnut desk organiser model 64');
    });

    it('is not one section among several that each hold a series (a page of rails)', () => {
      const section = (s: number) =>
        `<section class="rail"><h2>Section ${s}</h2><ul class="grid">${[1, 2, 3, 4].map((n) => card(s * 10 + n)).join('')}</ul></section>`;
      const html = `<body><div><div class="story">${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `<p>${prose(n)}</p>`).join('')}</div>
        <div class="more">${[1, 2, 3, 4, 5, 6].map(section).join('')}</div></div></body>`;
      const md = transformPage(html, opts(), MD).markdown!;
      expect(md).toContain(prose(10));
      expect(md).not.toContain('Walnut desk organiser');
    });
  });
});
