import { describe, expect, it } from 'vitest';
import type { TransformOptions, TransformWants } from '../types.js';
import { transformPage } from './index.js';
import { attrsFrom } from './html-util.js';
import { boilerplateReason } from './main-content.js';
import { isRailHeading } from './rules/rail-heading.js';

const BASE = 'https://news.example.com/2024/story.html';
const MD: TransformWants = { markdown: true, html: false, links: false, images: false };
const opts = (o: Partial<TransformOptions> = {}): TransformOptions => ({
  baseUrl: BASE,
  onlyMainContent: true,
  includeTags: [],
  excludeTags: [],
  removeBase64Images: true,
  ...o,
});

const ARTICLE_TEXT =
  'The council approved the new budget on Tuesday after a long debate about transport funding and the future of the city library.';

const NEWS_PAGE = `<!doctype html><html lang="en"><head><title>Budget approved</title></head><body>
<div id="cookie-banner"><p>We use cookies to improve your experience.</p><button>Accept all</button></div>
<header class="site-header"><a href="/">Example News</a><nav><ul><li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li></ul></nav></header>
<div class="layout">
  <article>
    <h1>Budget approved</h1>
    <p>${ARTICLE_TEXT}</p>
    <div class="share-buttons"><a href="https://twitter.com/share">Share on Twitter</a></div>
    <p>Members will meet again next month to discuss the details of the plan.</p>
  </article>
  <aside class="sidebar"><h2>Most read</h2><ul><li><a href="/a">Another story</a></li></ul></aside>
</div>
<footer><p>Copyright 2024 Example News</p><a href="/privacy">Privacy</a></footer>
</body></html>`;

describe('onlyMainContent', () => {
  it('keeps the article and drops navigation, sidebars, footers, share widgets and cookie banners', () => {
    const md = transformPage(NEWS_PAGE, opts(), MD).markdown!;
    expect(md).toContain('# Budget approved');
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).toContain('Members will meet again next month');
    for (const gone of ['cookies', 'Accept all', 'World', 'Sport', 'Most read', 'Copyright', 'Privacy', 'Share on Twitter']) {
      expect(md).not.toContain(gone);
    }
  });

  it('keeps everything but non-content tags when off', () => {
    const md = transformPage(NEWS_PAGE, opts({ onlyMainContent: false }), MD).markdown!;
    for (const kept of ['cookies', 'World', 'Most read', 'Copyright', ARTICLE_TEXT]) expect(md).toContain(kept);
  });

  it('keeps a product\'s own header (its title and introduction) while dropping the site\'s', () => {
    const intro = 'This free course introduces developers to the key concepts of open source software development.';
    const html = `<body><div class="site-header"><a href="/">Training</a> <a href="/catalog">Catalog</a></div>
      <div id="pdp-header"><h1>Open Source Basics</h1><p>${intro}</p></div>
      <div class="details"><h2>Who is it for</h2><p>${ARTICLE_TEXT}</p><p>${ARTICLE_TEXT.replace('council', 'board')}</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(intro);
    expect(md).toContain('Who is it for');
    expect(md).not.toContain('Catalog');
  });

  it('puts a space between inline boxes laid out side by side whose words would run together', () => {
    const html = `<body><main><h1>Popular films</h1><ul>${['Scream', 'The Bluff', 'Shelter']
      .map((t) => `<li><h3>${t}</h3><div><span>Rated</span><span>R</span><span>2026</span><span>1h 54m</span></div><p><span>I</span><span>f</span> a drop cap opens a word, it stays <b>one</b>word. ${ARTICLE_TEXT}</p></li>`)
      .join('')}</ul></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    // Letters meeting letters are two words; digits are left as the markup has them.
    expect(md).toContain('Rated R2026');
    expect(md).toContain('If a drop cap');
    expect(md).toContain('**one**word');
  });

  it('keeps a word whose part is emphasised, and inline code, as the markup has them', () => {
    const html = `<body><main><h1>Search</h1><p>Results for <b>Glean</b><span>er</span>: call <code><span class="k">new</span><span class="n">Scraper</span></code>. ${ARTICLE_TEXT}</p></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('**Glean**er');
    expect(md).toContain('`newScraper`');
  });

  it('leaves out the "Loading..." placeholders a script had not yet filled in', () => {
    const html = `<body><main><h1>Video games</h1><p>${ARTICLE_TEXT}</p><h3>Loading...</h3><div>Loading</div>
      <div>Loading Reviews...</div><p>Loading paragraph…</p><p>Loading times are short on this console.</p></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toBe(`# Video games\n\n${ARTICLE_TEXT}\n\nLoading times are short on this console.`);
  });

  it('prefers <main> over the rest of the page and keeps the page H1 from a dropped header', () => {
    const html = `<body><header><h1>How to bake bread</h1></header>
      <div class="promo-strip">Free shipping on all orders over fifty dollars this week only</div>
      <main><p>${ARTICLE_TEXT}</p><p>Second paragraph of the recipe with enough words in it.</p></main>
      <div>Unrelated trailing block outside the main element that is not boilerplate by name</div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md.startsWith('# How to bake bread')).toBe(true);
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('Free shipping');
    expect(md).not.toContain('Unrelated trailing block');
  });

  it('keeps every entry of a listing instead of narrowing to one article', () => {
    const entry = (n: number) =>
      `<article><h2>Post ${n}</h2><p>Summary of post number ${n} with a few words of teaser text.</p></article>`;
    const html = `<body><main><h1>Blog</h1>${[1, 2, 3, 4].map(entry).join('')}</main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    for (const n of [1, 2, 3, 4]) expect(md).toContain(`Post ${n}`);
  });

  it('narrows to a single dominant article', () => {
    const html = `<body><div><p>Sign up for our weekly letter to get the best stories of the week.</p>
      <article><h1>Title</h1><p>${ARTICLE_TEXT}</p><p>${ARTICLE_TEXT}</p></article></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('Sign up');
  });

  it('drops hidden elements, search forms and form controls', () => {
    const html = `<body><main><h1>T</h1><p>${ARTICLE_TEXT}</p>
      <p hidden>hidden attribute</p><div aria-hidden="true">aria hidden</div>
      <div style="display: none">display none</div><span class="sr-only">screen reader</span>
      <form role="search"><label>Search the site</label><input name="q"></form>
      <form class="site-search"><label>Find</label></form></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    for (const gone of ['hidden attribute', 'aria hidden', 'display none', 'screen reader', 'Search the site', 'Find']) {
      expect(md).not.toContain(gone);
    }
  });

  it("drops a product form's pickers: labels, fieldsets and widgets that ARIA names as controls", () => {
    const html = `<body><main><h1>Linen shirt</h1><p>${ARTICLE_TEXT}</p>
      <form action="/cart/add"><fieldset><legend>Colour</legend><label><input type="radio" name="c">Sand</label></fieldset>
      <label for="qty">Quantity</label><input id="qty" type="number"></form>
      <div role="radiogroup" aria-label="Size"><span role="radio">Small</span><span role="radio">Large</span></div>
      <div role="listbox"><div role="option">Navy blue</div></div>
      <div role="switch">Gift wrap</div><div role="status">Added to your basket</div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('# Linen shirt');
    expect(md).toContain(ARTICLE_TEXT);
    for (const gone of ['Colour', 'Sand', 'Quantity', 'Small', 'Large', 'Navy blue', 'Gift wrap', 'Added to']) expect(md).not.toContain(gone);
  });

  it('drops a link without a target that says it is a button (a quote\'s expand toggle), and keeps one with a target', () => {
    const html = `<body><main><h1>Battery life</h1><div class="post"><blockquote>${ARTICLE_TEXT}
      <div class="quote-toggle"><a role="button" tabindex="0">Click to expand...</a></div></blockquote>
      <p>The library will open again in spring, and <a role="button" href="/hours">its new hours</a> are posted at the door.</p></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).toContain('its new hours');
    expect(md).not.toContain('Click to expand');
  });

  it("drops a forum post's author panel whose class names it in two words (user-info)", () => {
    const html = `<body><main><h1>Moving abroad</h1><div class="post"><p>${ARTICLE_TEXT}</p>
      <div class="user-info"><span>answered Mar 28, 2014</span><a href="/users/7/vartec">vartec</a><span>2,243 reputation, 15 silver badges</span></div></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    for (const gone of ['answered Mar', 'vartec', 'reputation']) expect(md).not.toContain(gone);
  });

  it('drops a tooltip whose class spells it in two words (tool-tip)', () => {
    const html = `<body><main><h1>Garden hose</h1><p>${ARTICLE_TEXT}</p>
      <div class="tool-tip"><span class="tool-tip__label">Delivery</span><div class="tool-tip__content">Orders placed before noon leave the warehouse the same day.</div></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('before noon');
  });

  it('drops furniture named after the content it belongs to (post-signature)', () => {
    const html = `<body><main><h1>Moving abroad</h1><div class="post-body"><p>${ARTICLE_TEXT}</p></div>
      <div class="post-signature"><p>Sent from my phone. Views are my own and not those of my employer.</p></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('Sent from my phone');
  });

  it("drops a post's schema.org interaction counter (its likes)", () => {
    const html = `<body><main><h1>Version bumps</h1><div class="post"><p>${ARTICLE_TEXT}</p>
      <div itemprop="interactionStatistic" itemscope><meta itemprop="userInteractionCount" content="7"><span>7 Likes</span></div></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('7 Likes');
  });

  it('drops a third-party review widget served into a product page', () => {
    const html = `<body><main><h1>Relax gummies</h1><p>${ARTICLE_TEXT}</p>
      <div class="yotpo yotpo-main-widget"><h3>Love them!</h3><p>I take two every evening and sleep much better than before.</p></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('sleep much better');
  });

  it("drops a forum post's left column, its author panel", () => {
    const html = `<body><div id="board"><h1>Forum software</h1><div class="blockpost"><h2>#1 2024-08-03</h2><div class="postbody">
      <div class="postleft"><dl><dt><strong>archuser</strong></dt><dd><span>Registered: 2024-01-27</span></dd><dd><span>Posts: 98</span></dd></dl></div>
      <div class="postright"><div class="postmsg"><p>${ARTICLE_TEXT}</p><p>${ARTICLE_TEXT}</p></div></div></div></div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    for (const gone of ['archuser', 'Registered', 'Posts: 98']) expect(md).not.toContain(gone);
  });

  it("drops a forum post's row of buttons named as one (postTools)", () => {
    const html = `<body><main><h1>Trip report</h1><div class="post"><p>${ARTICLE_TEXT}</p>
      <div class="postTools"><div class="replyButton"><a class="pid53">Reply</a></div><div class="inappropriate"><span>Report inappropriate content</span></div></div></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('Report inappropriate');
  });

  it("drops the lines of a forum poster's record (post count, join date), and keeps a sentence that starts alike", () => {
    const html = `<body><main><h1>Lounge access</h1><div class="post"><p>${ARTICLE_TEXT}</p>
      <div class="smallfont"><div>Join Date: <b>Aug 2008</b></div><div> Posts: <b>1,077</b> </div></div>
      <div>Registered: a trademark of the airline, used here with thanks.</div></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).toContain('Registered: a trademark');
    for (const gone of ['Join Date', 'Posts:', '1,077']) expect(md).not.toContain(gone);
  });

  it("drops a forum poster's presence marker alone in its block", () => {
    const html = `<body><main><h1>Forum software</h1><div class="post"><p>${ARTICLE_TEXT}</p>
      <div class="postfoot"><p><span>Offline</span></p></div><p>The library will open again in spring with longer hours on weekdays.</p></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('Offline');
  });

  it("drops a forum post's author panel whose class names it after a prefix (extraUserInfo)", () => {
    const html = `<body><main><h1>Forums today</h1><div class="post"><p>${ARTICLE_TEXT}</p>
      <div class="extraUserInfo"><dl><dt>Likes Received:</dt><dd>1</dd></dl><dl><dt>Trophy Points:</dt><dd>5</dd></dl></div></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    for (const gone of ['Likes Received', 'Trophy Points']) expect(md).not.toContain(gone);
  });

  it("drops the bar of readers' reactions under a post", () => {
    const html = `<body><main><h1>Messages storage</h1><div class="post"><p>${ARTICLE_TEXT}</p>
      <div class="reactionsBar"><span>Reactions:</span> unixfool, felixen and three other members liked this post</div>
      <p>The library will open again in spring with longer hours on weekdays.</p></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('unixfool');
  });

  it('drops a heading that only counts the answers below it, and keeps one that names them', () => {
    const html = `<body><main><h1>Moving abroad</h1><div class="question"><p>${ARTICLE_TEXT}</p></div>
      <h2 data-answercount="6">6 Answers</h2><h2>3 Answers to common questions</h2>
      <div class="answer"><p>The library will open again in spring with longer hours on weekdays.</p></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).toContain('3 Answers to common questions');
    expect(md).not.toContain('6 Answers');
  });

  it("keeps an accordion's questions, buttons inside headings, with their answers", () => {
    const html = `<body><main><h1>Library cards</h1><p>${ARTICLE_TEXT}</p><div class="accordion">
      <h3 class="accordion-header"><button class="accordion-button" aria-expanded="false" aria-controls="a1">Who can get a library card?</button></h3>
      <div id="a1" class="accordion-collapse collapse"><p>Anyone who lives, works or studies in the city can get a card for free at any branch.</p></div>
      <h3 class="accordion-header"><button class="accordion-button" aria-expanded="false" aria-controls="a2">How many books can I borrow?</button></h3>
      <div id="a2" class="accordion-collapse collapse"><p>Up to twenty books at a time, each for three weeks, renewable twice online.</p></div>
      </div><button class="load-more">Show more questions</button></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Who can get a library card?');
    expect(md).toContain('Up to twenty books at a time');
    expect(md).not.toContain('Show more questions');
  });

  it('keeps the prices a card shows though they are hidden from screen readers', () => {
    const card = (name: string, was: string, now: string) =>
      `<li class="product"><img src="/i/${name}.jpg" alt=""><h2><a href="/p/${name}">${name}</a></h2>
      <span class="price"><del aria-hidden="true">$${was}</del> <span class="screen-reader-text">Original price was: $${was}.</span>
      <ins aria-hidden="true">$${now}</ins><span class="screen-reader-text">Current price is: $${now}.</span></span>
      <span class="product-price--member" aria-hidden="true">Members $${now}</span></li>`;
    const html = `<body><main><h1>Camping gear</h1><p>Tables, tool rolls and mugs for the campsite, all at a third off until the end of the month.</p><ul class="products">${card('Folding camp table', '89.00', '62.30')}${card('Canvas tool roll', '28.00', '19.60')}${card('Enamel mug set', '24.00', '16.80')}</ul></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('$89.00');
    expect(md).toContain('$62.30');
    expect(md).toContain('Members $16.80');
    expect(md).not.toContain('Original price was');
  });

  it("keeps a shop's grid of priced cards above its category's description with the description", () => {
    const names = ['Steel hand trowel with ash handle', 'Bypass pruning shears, 20 mm cut', 'Galvanised watering can, 10 litres', 'Border fork with a treated handle', 'Hand weeder with a forked tip', 'Pair of suede gardening gloves'];
    const cards = names.map((n, i) => `<li class="product-card"><a href="/p/${i}"><img src="/i/${i}.jpg" alt=""></a><h3><a href="/p/${i}">${n}</a></h3><span class="price">$${12 + i}.00</span></li>`).join('');
    const html = `<body><h1>Garden tools</h1><ul class="product-grid">${cards}</ul>
      <div class="category-description"><h2>Choosing garden tools</h2><p>A good trowel and a sharp pair of shears will do most of the work in a small garden, and they last for years when cleaned after use.</p>
      <p>Forks and spades with treated handles cope better with wet soil, while a light watering can is easier to carry along the beds in summer.</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Galvanised watering can, 10 litres');
    expect(md).toContain('$17.00');
    expect(md).toContain('Forks and spades with treated handles');
  });

  it('keeps a carousel whose class styles its navigation arrows', () => {
    const html = `<body><div class="page"><h1>Spring offers</h1><p>${ARTICLE_TEXT}</p>
      <div class="offer-carousel light-nav-arrows"><button>Previous</button>
        <div class="slide"><h3>Rowing machines</h3><p>Save a fifth on every rowing machine until the end of the month.</p></div>
        <div class="slide"><h3>Exercise bikes</h3><p>Free delivery and assembly on all exercise bikes this spring.</p></div>
      <button>Next</button></div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Save a fifth on every rowing machine');
    expect(md).toContain('Free delivery and assembly');
    expect(boilerplateReason('div', attrsFrom({ class: 'site-nav' }), false)).toBe('class:nav');
  });

  it("drops a video's fallback text, shown only by browsers that cannot play it", () => {
    const html = `<body><main><h1>Teeth whitening</h1><p>${ARTICLE_TEXT}</p>
      <video autoplay muted><source src="/clip.mp4" type="video/mp4">Your browser does not support the video tag.</video>
      <audio controls><source src="/a.mp3">Your browser does not support audio.</audio></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('does not support');
  });

  it("drops a card's \"Learn more\" button after its text, and keeps one inside a sentence", () => {
    const card = (n: number) =>
      `<div class="x"><h3>Service ${n}</h3><p>What part ${n} of the offer covers, told in a sentence or two.</p><a href="/s${n}">Learn More</a></div>`;
    const html = `<body><main><h1>HR consulting</h1><p>${ARTICLE_TEXT}</p>${[1, 2].map(card).join('')}
      <p>Our fees are fixed and agreed before any work on the engagement starts. <a href="/fees">Learn more</a> about them.</p></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Service 2');
    expect(md.match(/Learn more/gi)?.length).toBe(1);
  });

  it('drops a card\'s "Watch demo" or "Read the case study" button', () => {
    const html = `<body><main><h1>Payroll platform</h1><p>${ARTICLE_TEXT}</p>
      <div><h3>How a bakery pays forty staff</h3><p>Payroll for two shops now runs in one afternoon a month.</p><a href="/cs">Read the case study</a></div>
      <div><h3>See it in action</h3><p>A short walk through a month's pay run, from hours to payslips.</p><a href="/demo">Watch demo</a></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('How a bakery');
    expect(md).not.toContain('case study');
    expect(md).not.toContain('Watch demo');
  });

  it('falls back to the whole page when the rules leave (nearly) nothing', () => {
    // Everything sits in an element whose class looks like a sidebar.
    const html = `<body><div class="sidebar"><p>${ARTICLE_TEXT}</p><p>${ARTICLE_TEXT}</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
  });

  it('still drops form controls, navigation, footers and dialogs when it falls back to the whole page', () => {
    const html = `<body><nav><a href="/">Home</a> <a href="/shop">Shop all</a></nav>
      <div class="sidebar"><p>${ARTICLE_TEXT}</p><p>${ARTICLE_TEXT}</p>
      <select name="size"><option>Small - $19.99</option><option>Large - $29.99</option></select><button>Add to cart</button>
      <div role="dialog"><p>Join our list, and get ten percent off your first order.</p></div></div>
      <footer><p>Free returns within thirty days, always, on every order.</p></footer></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    for (const gone of ['Small - $19.99', 'Add to cart', 'Shop all', 'Join our list', 'Free returns']) expect(md).not.toContain(gone);
  });

  it('drops blocks that are mostly links with little prose, whatever their names', () => {
    const html = `<body><div class="x1"><a href="/a">Alpha</a> | <a href="/b">Beta</a> | <a href="/c">Gamma</a></div>
      <div class="x2"><p>${ARTICLE_TEXT} It links to <a href="/source">the source</a> once.</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).toContain('[the source](https://news.example.com/source)');
    expect(md).not.toContain('Alpha');
  });

  it('does not mistake layout classes on wrappers for furniture', () => {
    const html = `<body class="page has-sidebar"><div class="content-with-sidebar"><div class="post-content"><p>${ARTICLE_TEXT}</p></div></div></body>`;
    expect(transformPage(html, opts(), MD).markdown).toBe(ARTICLE_TEXT);
  });

  it('reads a name that opens with a layout word as a state of the wrapper, however many words follow ("hide-read-more-ad")', () => {
    const html = `<body><main><h1>Budget</h1><p>${ARTICLE_TEXT}</p><div class="grid hide-read-more-ad"><p>Members will meet again next month.</p></div></main></body>`;
    expect(transformPage(html, opts(), MD).markdown).toContain('Members will meet again next month.');
  });

  it('never narrows the content down to one paragraph: short facts beside a long one are kept', () => {
    // A status page: one long line and several short ones, all of them the page's content.
    const html = `<body><main><h1>Device check</h1><p>UA: Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36</p><p>Width: 412</p><p>Language: ja-JP</p><p>Zone: Asia/Tokyo</p></main></body>`;
    const md = transformPage(html, opts(), MD).markdown;
    for (const fact of ['Mobile Safari', 'Width: 412', 'Language: ja-JP', 'Zone: Asia/Tokyo']) expect(md).toContain(fact);
  });
});

describe('boilerplateReason', () => {
  const reason = (name: string, attrs: Record<string, string>, inContent: boolean) =>
    boilerplateReason(name, attrsFrom(attrs), inContent);

  it('flags furniture by tag, role, visibility and class/id words', () => {
    expect(reason('nav', {}, false)).toBe('tag:nav');
    expect(reason('div', { role: 'navigation' }, false)).toBe('role:navigation');
    expect(reason('div', { 'aria-hidden': 'true' }, false)).toBe('aria-hidden');
    expect(reason('div', { class: 'cc-window cookieconsent' }, false)).toBe('class:cookie');
    expect(reason('div', { id: 'CybotCookiebotDialog' }, false)).toBe('id:cookie');
    expect(reason('div', { class: 'sidebar-left' }, false)).toBe('class:sidebar');
    expect(reason('section', { class: 'related-posts' }, true)).toBe('class:related');
    expect(reason('figure', { class: 'recirculation-wrapper' }, true)).toBe('class:recirculation');
    expect(reason('div', { class: 'recirc-module' }, true)).toBe('class:recirc');
  });

  it('flags a disclaimer block even inside the content: fine print, not the page\'s own text', () => {
    expect(reason('div', { class: 'product-disclaimer' }, true)).toBe('class:disclaimer');
    expect(reason('p', { id: 'disclaimers' }, true)).toBe('id:disclaimers');
    expect(reason('div', { class: 'has-disclaimer' }, true)).toBeUndefined();
    expect(reason('section', { class: 'footnotes' }, true)).toBe('class:footnotes');
    expect(reason('sup', { class: 'footnote-ref' }, true)).toBeUndefined();
    expect(reason('div', { id: 'game_area_legal' }, true)).toBe('id:legal');
    expect(reason('p', { class: 'copy-legal' }, true)).toBe('class:legal');
    expect(reason('div', { class: 'legal-content' }, true)).toBeUndefined(); // a terms page's own text
  });

  it("reads \"text\" after a furniture word as that furniture's, and before it as the content's", () => {
    expect(reason('div', { class: 'footer-bottom-text' }, false)).toBe('class:footer');
    expect(reason('p', { class: 'dpsp-share-text' }, true)).toBe('class:share');
    expect(reason('div', { class: 'text-share' }, true)).toBeUndefined();
    expect(reason('div', { class: 'entry-footer' }, true)).toBe('class:footer'); // the entry's footer
  });

  it('flags a breaking-news ticker, not the section a breaking story sits in', () => {
    expect(reason('div', { class: 'breaking-news' }, false)).toBe('class:breaking');
    expect(reason('div', { class: 'breaking-news-title' }, false)).toBe('class:breaking');
    expect(reason('div', { class: 'newsticker' }, false)).toBe('class:newsticker');
    expect(reason('div', { class: 'g-row-breaking-news' }, false)).toBeUndefined();
  });

  it('flags a byline or dateline inside an <article> only: in a listing it is part of each entry', () => {
    expect(boilerplateReason('div', attrsFrom({ class: 'article-byline byline' }), true, true)).toBe('class:byline');
    expect(boilerplateReason('p', attrsFrom({ class: 'byline__author' }), true, true)).toBe('class:byline');
    expect(boilerplateReason('div', attrsFrom({ class: 'byline' }), true, false)).toBeUndefined();
    expect(boilerplateReason('div', attrsFrom({ class: 'bylined-story' }), true, true)).toBeUndefined();
    expect(boilerplateReason('span', attrsFrom({ class: 'article-timestamp' }), true, true)).toBe('class:timestamp');
    expect(boilerplateReason('div', attrsFrom({ class: 'dateline' }), true, true)).toBe('class:dateline');
  });

  it("flags a story's date and its post-info line inside an <article> only, not a state word such as published", () => {
    expect(boilerplateReason('div', attrsFrom({ class: 'publish-info dates' }), true, true)).toBe('class:dates');
    expect(boilerplateReason('span', attrsFrom({ class: 'post-date' }), true, true)).toBe('class:date');
    expect(boilerplateReason('div', attrsFrom({ class: 'postinfo' }), true, true)).toBe('class:postinfo');
    expect(boilerplateReason('span', attrsFrom({ class: 'date' }), true, false)).toBeUndefined();
    expect(boilerplateReason('div', attrsFrom({ class: 'paragraph paragraph-published' }), true, true)).toBeUndefined();
    expect(boilerplateReason('div', attrsFrom({ class: 'update-notice' }), true, true)).toBeUndefined();
  });

  it('flags a footer named in the language of its template', () => {
    expect(boilerplateReason('div', attrsFrom({ class: 'rodape' }), false)).toBe('class:rodape');
    expect(boilerplateReason('div', attrsFrom({ id: 'fusszeile' }), true)).toBe('id:fusszeile');
  });

  it('flags an author panel, not a byline', () => {
    expect(reason('div', { class: 'author-box' }, true)).toBe('class:author');
    expect(reason('div', { class: 'about-author-bio' }, true)).toBe('class:author');
    expect(reason('div', { id: 'authorbox' }, true)).toBe('id:authorbox');
    expect(reason('span', { class: 'author' }, true)).toBeUndefined();
    expect(reason('span', { class: 'author-name' }, true)).toBeUndefined();
    expect(reason('div', { class: 'author-card' }, true)).toBe('class:author');
    expect(reason('div', { class: 'about_author' }, true)).toBe('class:author');
    expect(reason('div', { class: 'blog-post__author-description' }, true)).toBe('class:author');
    expect(reason('div', { class: 'post-author' }, true)).toBeUndefined();
    expect(reason('div', { class: 'author_detail_box' }, true)).toBe('class:author');
    expect(reason('section', { class: 'author-section' }, true)).toBe('class:author');
    expect(reason('div', { class: 'author-wrapper' }, true)).toBeUndefined();
  });

  it('reads a page as a desktop shows it: the copy of a part hidden on desktop screens goes', () => {
    const html = `<body><main><h1>Evening courses</h1>
      <section class="elementor-section elementor-hidden-desktop"><p>Learn to edit video in six evenings with a small group and a tutor.</p></section>
      <section class="elementor-section elementor-hidden-tablet elementor-hidden-mobile"><p>${ARTICLE_TEXT}</p></section></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('six evenings');
    expect(reason('span', { class: 'ipsResponsive_showPhone ipsResponsive_inline' }, true)).toBe('class:ipsresponsive_showphone');
  });

  it("reads a page at a desktop's width: the copies its style sheet hides there go, the desktop's stays", () => {
    const html = `<html><head><style>@media (min-width: 1200px){.hidden-a1{display:none!important}}
      @media (min-width: 810px) and (max-width: 1199px){.hidden-b2{display:none!important}}
      @media (max-width: 809px){.hidden-c3{display:none!important}}</style></head>
      <body><main><h1>Evening courses</h1>
      <div class="variant hidden-a1 hidden-b2"><p>Phone layout: learn to edit video in six evenings with a tutor.</p></div>
      <div class="variant hidden-b2 hidden-c3"><p>${ARTICLE_TEXT}</p></div></main></body></html>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('Phone layout');
    expect(transformPage(html, opts({ onlyMainContent: false }), MD).markdown).toContain('Phone layout');
  });

  it('reads every rule of a media block for the classes it hides at a desktop width, not only its first', () => {
    const html = `<html><head><style>@media screen and (min-width: 1024px){.menu{color:red}.nav-toggle{float:left}
      .phone-note, .tablet-note{margin:0;display:none}}</style></head>
      <body><main><h1>Evening courses</h1><p class="phone-note">Tap the menu to see the timetable for this week.</p>
      <p>${ARTICLE_TEXT}</p></main></body></html>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('Tap the menu');
  });

  it("reads a page at a desktop's width: a copy its style sheet shows on small screens only goes", () => {
    // A site builder's phone layout of a section: hidden by a rule of its own, shown again for
    // narrow screens; its rules come one after the other, with comments between them.
    const html = `<html><head><style>@charset "utf-8";/*start:x1*/.css-x1.builder-block{display:none;flex-direction:column}
      @media only screen and (max-width:991px){.css-x1.builder-block{display:flex}}/*end:x1*/
      @font-face{font-family:Body;src:url(/body.woff2)}.tab-pane{display:none}.tab-pane.active{display:block}@media (max-width: 767px){.tab-pane{display:block}}
      .menu-toggle{display:none}@media (max-width: 1600px) and (min-width: 1280px){.menu-toggle{display:block}}</style></head>
      <body><main><h1>Classic watch</h1><div class="builder-block css-d2"><p>${ARTICLE_TEXT}</p></div>
      <div class="builder-block css-x1"><p>Phone layout: the watch that started it all, ten years on.</p></div>
      <div class="tab-pane active"><p>Specifications: a stainless steel case, 44 millimetres across.</p></div>
      <div class="menu-toggle"><p>Wide screens: open the menu to browse the whole collection.</p></div></main></body></html>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('Phone layout');
    // A rule at every width shows the open tab; the media block is not only for narrow screens.
    expect(md).toContain('Specifications: a stainless steel case');
    expect(md).toContain('Wide screens: open the menu');
  });

  it('drops a call-to-action box set into a story, not a layout block named after one nor one outside an article', () => {
    expect(boilerplateReason('div', attrsFrom({ class: 'post-cta' }), true, true)).toBe('class:cta');
    expect(boilerplateReason('section', attrsFrom({ class: 'cta-banner cta-banner--dark' }), true, true)).toBe('class:cta');
    expect(boilerplateReason('div', attrsFrom({ class: 'post-cta' }), true, false)).toBeUndefined();
    expect(boilerplateReason('div', attrsFrom({ class: 'et_pb_row home_cta' }), true, true)).toBeUndefined();
    expect(boilerplateReason('div', attrsFrom({ class: 'kg-cta-content' }), true, true)).toBeUndefined();
    expect(boilerplateReason('a', attrsFrom({ class: 'cta', href: '/trial' }), true, true)).toBeUndefined();
    expect(boilerplateReason('div', attrsFrom({ class: 'factam' }), true, true)).toBeUndefined();
  });

  it("drops a site builder's copy of a block that a condition hides", () => {
    const html = `<body><main><h1>Yoga class prices</h1><p class="blog-summary">${ARTICLE_TEXT}</p>
      <p class="summary-fallback w-condition-invisible">A fallback summary nobody sees on this page.</p></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('fallback summary');
  });

  it("drops the author box a blog plugin adds under a post, named by the plugin's prefix", () => {
    const html = `<body><article class="post"><h1>Budget approved</h1><div class="entry-content"><p>${ARTICLE_TEXT}</p>
      <div class="saboxplugin-wrap"><div class="saboxplugin-desc"><p>Ann Smith writes about city politics and public transport.</p></div></div>
      <div class="abh_box abh_box_down"><div class="abh_text"><p>Ben Jones covers the city council.</p></div></div></div></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('Ann Smith');
    expect(md).not.toContain('Ben Jones');
  });

  it('flags badges beside a post or a user name', () => {
    expect(reason('span', { class: 'user-badges' }, true)).toBe('class:badges');
    expect(reason('div', { class: 'badge' }, true)).toBe('class:badge');
  });

  it('drops user badges from a forum post but keeps the post', () => {
    const page = `<!doctype html><html><body><main><article class="post">
      <div class="post-author"><a href="/u/ann">ann</a><span class="badge">Top Contributor</span>
      <span class="user-badges">3 bronze badges</span></div>
      <p>${ARTICLE_TEXT}</p></article></main></body></html>`;
    const md = transformPage(page, opts(), MD).markdown ?? '';
    expect(md).toContain('approved the new budget');
    expect(md).not.toContain('Top Contributor');
    expect(md).not.toContain('bronze badges');
  });

  it('is stricter inside a content landmark', () => {
    // Tabs of code examples inside an article are content; the same words outside are site chrome.
    expect(reason('ul', { class: 'nav nav-tabs' }, true)).toBeUndefined();
    expect(reason('ul', { class: 'nav nav-tabs' }, false)).toBe('class:nav');
    expect(reason('header', {}, true)).toBeUndefined();
    expect(reason('header', {}, false)).toBe('tag:header');
  });

  it('reads "header" after another word as a part\'s header, unless that word places it in the page', () => {
    // A product's, a card's or an accordion's header holds their title and introduction.
    expect(reason('div', { id: 'pdp-header' }, false)).toBeUndefined();
    expect(reason('div', { class: 'card-header' }, false)).toBeUndefined();
    expect(reason('div', { class: 'accordion__header' }, false)).toBeUndefined();
    // A section's header holds the section's heading and introduction, a page's its title.
    expect(reason('div', { class: 'row section-header' }, false)).toBeUndefined();
    expect(reason('div', { class: 'page-header' }, false)).toBeUndefined();
    // The site's header and the page's banner, however they are qualified.
    expect(reason('div', { class: 'header' }, false)).toBe('class:header');
    expect(reason('div', { class: 'header-inner' }, false)).toBe('class:header');
    expect(reason('div', { class: 'site-header' }, false)).toBe('class:header');
    expect(reason('div', { id: 'sticky-header' }, false)).toBe('id:header');
    expect(reason('div', { class: 'region-header' }, false)).toBe('class:header');
    expect(reason('div', { class: 'hero-header' }, false)).toBe('class:header');
  });

  it('never flags the document or its landmarks', () => {
    expect(reason('body', { class: 'sidebar' }, false)).toBeUndefined();
    expect(reason('main', { 'aria-hidden': 'true' }, false)).toBeUndefined();
    expect(reason('div', { role: 'main', class: 'sidebar' }, false)).toBeUndefined();
  });
});

describe('includeTags / excludeTags', () => {
  const html = `<body><div id="intro"><p>Intro text</p></div>
    <div class="item"><p>First item</p></div><nav><p>Nav text</p></nav>
    <div class="item"><p>Second item</p><span class="note">a note</span></div>
    <div id="outro"><p>Outro text</p></div></body>`;

  it('keeps only matching elements, in document order', () => {
    const md = transformPage(html, opts({ onlyMainContent: false, includeTags: ['#outro', '.item'] }), MD).markdown!;
    expect(md).toBe('First item\n\nSecond item\n\na note\n\nOutro text');
  });

  it('removes matching elements', () => {
    const md = transformPage(html, opts({ onlyMainContent: false, excludeTags: ['.item', 'nav'] }), MD).markdown!;
    expect(md).toBe('Intro text\n\nOutro text');
  });

  it('applies exclude inside included elements', () => {
    const md = transformPage(html, opts({ onlyMainContent: false, includeTags: ['.item'], excludeTags: ['.note'] }), MD)
      .markdown!;
    expect(md).toBe('First item\n\nSecond item');
  });

  it('keeps an included element even when it looks like boilerplate', () => {
    const md = transformPage(html, opts({ onlyMainContent: true, includeTags: ['nav'] }), MD).markdown!;
    expect(md).toBe('Nav text');
  });

  it('applies to html too, while links, images and metadata still come from the whole page', () => {
    const page = `<html><head><title>T</title><meta name="description" content="D"></head><body>
      <div class="keep"><a href="/in">in</a></div><div><a href="/out">out</a><img src="/o.png"></div></body></html>`;
    const r = transformPage(page, opts({ onlyMainContent: false, includeTags: ['.keep'] }), {
      markdown: true,
      html: true,
      links: true,
      images: true,
    });
    expect(r.markdown).toBe('[in](https://news.example.com/in)');
    expect(r.html).toBe('<div class="keep"><a href="https://news.example.com/in">in</a></div>');
    expect(r.links).toEqual(['https://news.example.com/in', 'https://news.example.com/out']);
    expect(r.images).toEqual(['https://news.example.com/o.png']);
    expect(r.metadata.title).toBe('T');
    expect(r.metadata.description).toBe('D');
  });

  it('matches elements in XHTML documents with self-closing tags', () => {
    const xhtml =
      '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><a id="a1"/><div class="x"><p>one</p></div>' +
      '<br/><div class="x"><p>two</p></div></body></html>';
    const md = transformPage(xhtml, opts({ onlyMainContent: false, includeTags: ['.x'] }), MD).markdown!;
    expect(md).toBe('one\n\ntwo');
  });
});

describe('html format', () => {
  it('returns the cleaned HTML with attributes kept, URLs absolute and handlers stripped', () => {
    const page = `<body><main><h1 class="t">Title</h1><p onclick="evil()">Text <a href="/x" class="l">x</a></p><script>bad()</script></main></body>`;
    const r = transformPage(page, opts(), { markdown: false, html: true, links: false, images: false });
    expect(r.html).toBe(
      '<main><h1 class="t">Title</h1><p>Text <a href="https://news.example.com/x" class="l">x</a></p></main>',
    );
    expect(r.markdown).toBeUndefined();
  });

  it('strips script URLs from every attribute', () => {
    const page = `<body><p><img src="javascript:alert(1)" alt="a"><a href=" JavaScript:evil()">x</a></p>
      <form action="javascript:go()"><p>f</p></form></body>`;
    const r = transformPage(page, opts({ onlyMainContent: false }), { markdown: false, html: true, links: false, images: false });
    expect(r.html).not.toMatch(/javascript/i);
  });
});

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

describe('onlyMainContent: repeated renderings', () => {
  const feature = (n: number) => `<h3>Feature ${n}</h3><p>Fibre number ${n} keeps your feet dry and warm.</p>`;
  const slides = `<div class="slides">${[1, 2, 3].map(feature).join('')}</div>`;
  const description =
    'This runner is knitted from soft merino wool and sits on a foam sole that stays comfortable all day long.';

  it('keeps one copy of a slider rendered twice (a run of repeated lines close to the first)', () => {
    const html = `<body><main><h1>Wool runner</h1><p>${description}</p>${slides}${slides}</main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md.split('Fibre number 2 keeps').length - 1).toBe(1);
    expect(md).toContain('Feature 3');
  });

  it('keeps one copy of a long paragraph repeated right after itself (a tab and its accordion twin)', () => {
    const html = `<body><main><h1>Wool runner</h1><div class="tab"><p>${description}</p></div><div class="accordion"><p>${description}</p></div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md.split('merino wool').length - 1).toBe(1);
  });

  it('keeps a short line repeated alone, list items and code lines', () => {
    const question = (n: number) =>
      `<h3>What inspired you?</h3><p>Interviewee ${n} answered that cooking for a large family, every single weekend, was the start.</p>`;
    const html = `<body><main><h1>Interviews</h1>${[1, 2, 3].map(question).join('')}
      <ul><li>Easy setup for all your devices</li></ul><ul><li>Easy setup for all your devices</li></ul>
      <pre><code>const total = items.reduce((sum, item) => sum + item.price, 0);\nconst total = items.reduce((sum, item) => sum + item.price, 0);</code></pre></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md.split('What inspired you?').length - 1).toBe(3);
    expect(md.split('Easy setup').length - 1).toBe(2);
    expect(md.split('const total').length - 1).toBe(2);
  });

  it('keeps one copy of a whole list rendered twice (a buy box repeated in a sticky bar), but lists that differ', () => {
    const list = (extra: string) => `<ul><li>Size: 42</li><li>Colour: slate grey</li><li>Sole: natural rubber</li>${extra}</ul>`;
    const html = `<body><main><h1>Wool runner</h1>${list('')}<p>${description}</p><p>${description.replace('runner', 'shoe')}</p>
      <div class="sticky-bar"><h3>Wool runner</h3>${list('')}</div><h2>Other sizes</h2>${list('<li>Width: wide</li>')}</main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md.split('Sole: natural rubber').length - 1).toBe(2);
    expect(md).toContain('Width: wide');
  });

  it('keeps a long passage restated far from its first telling (a summary, a second plan)', () => {
    const filler = Array.from({ length: 30 }, (_, n) => `<p>Step ${n}: mix, stir and wait for item ${n}.</p>`).join('');
    const html = `<body><main><h1>Plans</h1><p>${description}</p>${filler}<p>${description}</p></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md.split('merino wool').length - 1).toBe(2);
  });

  it('keeps one copy of a passage rendered again far from the first, copied sentence for sentence (a post shown twice)', () => {
    const post = [
      'I moved the build to the new compiler last week and the start-up time doubled on every machine we have.',
      'Profiling shows most of the time goes into loading plugins that the old version loaded lazily on demand.',
      'Has anyone found a setting that brings the lazy loading back, or do we have to pin the old release for now?',
    ];
    const filler = Array.from({ length: 30 }, (_, n) => `<p>Reply ${n}: try clearing the cache ${n}.</p>`).join('');
    const html = `<body><main><h1>Slow start-up</h1>${post.map((p) => `<p>${p}</p>`).join('')}${filler}${post.map((p) => `<p>${p}</p>`).join('')}</main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md.split('Profiling shows').length - 1).toBe(1);
    expect(md).toContain('Reply 29');
  });

  it('keeps one copy of a long run of short lines rendered again far from the first, line for line', () => {
    const topics = Array.from({ length: 12 }, (_, n) => `<p>Topic number ${n} online</p>`).join('');
    const filler = Array.from({ length: 30 }, (_, n) => `<p>Note ${n}: sessions run weekly for ${n + 2} months.</p>`).join('');
    const html = `<body><main><h1>Therapy online</h1><div class="topics">${topics}</div>${filler}<div class="topics">${topics}</div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md.split('Topic number 7 online').length - 1).toBe(1);
    expect(md).toContain('Note 29');
  });
});

describe('onlyMainContent: publisher pitches', () => {
  it('drops a short paragraph asking to subscribe or follow, keeps a story paragraph that starts alike', () => {
    const html = `<body><article><h1>Budget approved</h1><p>${ARTICLE_TEXT}</p>
      <p>Follow the council on Twitter and Facebook for updates.</p>
      <p>Get Example Monthly delivered through your letterbox every month.</p>
      <p>There is plenty more where that came from. Sign up for The Morning Brief newsletter today.</p>
      <ul><li>Subscribe to the podcast feed</li></ul>
      <p>Subscribe to the view that budgets matter, the mayor said, and you will see why the library and the buses both got more money this year than anyone on the council had expected, after a debate that ran well past midnight on Tuesday and left several members hoarse, tired and, in the end, surprisingly content with the compromise reached on transport funding and on the future of the old library.</p></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('Follow the council');
    expect(md).not.toContain('letterbox');
    expect(md).not.toContain('Morning Brief');
    expect(md).toContain('podcast feed');
    expect(md).toContain('the view that budgets matter');
  });

  it('drops a short paragraph asking to sign up now or below, or to join a mailing list', () => {
    const html = `<body><article><h1>Budget approved</h1><p>${ARTICLE_TEXT}</p>
      <p>Sign up now to get the week's council news in one short email.</p>
      <p><em>Be sure to sign up below so we can stay in touch!</em></p>
      <p><strong>Join our mailing list!</strong> One email a week, no more.</p>
      <p>Sign-up sheets for the library's reading club are at the front desk.</p></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain("week's council news");
    expect(md).not.toContain('stay in touch');
    expect(md).not.toContain('mailing list');
    expect(md).toContain('reading club');
  });

  it('drops a short paragraph telling how to reach or follow the author, keeps instructions to email the page', () => {
    const html = `<body><article><h1>Budget approved</h1><p>${ARTICLE_TEXT}</p>
      <p>Questions about the budget? Email us at budget@example.com.</p>
      <p>Have a tip? Jane Doe may be reached at jdoe@example.com. Follow her on Twitter @janedoe.</p></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Email us at');
    expect(md).not.toContain('Have a tip');
  });

  it("drops a short paragraph crediting the story's reporters and editors, keeps a sentence about reporting", () => {
    const html = `<body><article><h1>Budget approved</h1><p>${ARTICLE_TEXT}</p>
      <p>The council said the reporting by its auditors was late.</p>
      <p>(Reporting by Jane Doe; additional reporting by John Roe; Editing by Ann Poe)</p>
      <p>City Hall staff writer Max Moe contributed to this report.</p></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('reporting by its auditors');
    expect(md).not.toContain('Jane Doe');
    expect(md).not.toContain('Max Moe');
  });
});

describe('onlyMainContent: inline captions', () => {
  it('drops a caption span right after a picture, keeps one in a link and one after text', () => {
    const html = `<body><article><h1>Budget approved</h1><p>${ARTICLE_TEXT}</p>
      <div><img src="/a.jpg" alt="Council chamber"><span class="newsCaption">Members vote late on Tuesday (Image: GETTY)</span></div>
      <p>Members will meet again next month. <span class="caption-note">The vote was close.</span></p>
      <a href="/b"><img src="/b.jpg" alt=""><span class="caption">Library plans unveiled</span></a></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).toContain('Council chamber');
    expect(md).not.toContain('Members vote late');
    expect(md).toContain('The vote was close.');
    expect(md).toContain('Library plans unveiled');
  });

  it('drops a cite that credits a figure, keeps a cite in the text', () => {
    const html = `<body><article><h1>Budget approved</h1><p>${ARTICLE_TEXT}</p>
      <figure><img src="/a.jpg" alt="Smoke over the city"><span><figcaption>Smoke drifts in.</figcaption><cite>Sakib Ali/Getty Images</cite></span></figure>
      <p>As <cite>The Daily Ledger</cite> reported, members will meet again next month.</p></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Smoke over the city');
    expect(md).not.toContain('Sakib Ali');
    expect(md).toContain('The Daily Ledger');
  });

  it('drops an italic line right under a picture, keeps italics in the text and after it', () => {
    const html = `<body><article><h1>Budget approved</h1><p>${ARTICLE_TEXT}</p>
      <p><img src="/a.jpg" alt="Council chamber"></p><p class="post-text"><em>Light a Wish by OGE Group</em></p>
      <p><em>Members will meet again next month to discuss the details.</em></p>
      <p><img src="/b.jpg" alt="Library"></p><p><em>Library</em> plans were unveiled as well.</p></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Council chamber');
    expect(md).not.toContain('Light a Wish');
    expect(md).toContain('Members will meet again');
    expect(md).toContain('plans were unveiled');
  });

  it('drops a paragraph beside a picture in its wrapper, keeps paragraphs after a nested picture', () => {
    const html = `<body><div class="story"><h1>Budget approved</h1><p>${ARTICLE_TEXT}</p>
      <div class="image top"><img src="/a.jpg" alt="Council chamber"><p>In this file photo, members vote late on Tuesday.</p></div>
      <div class="hero-image"><div><img src="/b.jpg" alt="Library"></div><p>Members will meet again next month to discuss the details.</p></div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).toContain('Council chamber');
    expect(md).not.toContain('members vote late');
    expect(md).toContain('Members will meet again');
  });

  it("keeps a listed post card's footer (its author and date), drops a story's footer", () => {
    const card = (n: number) => `<li><div class="card"><article><h2><a href="/p/${n}">Release notes for version ${n}</a></h2>
      <p>What changed in version ${n}: faster builds, a new plugin system and many small fixes.</p>
      <footer><a href="/author/${n}">Writer${n} Name</a> · <time>March ${n}, 2026</time></footer></article></div></li>`;
    const feed = `<body><main><h1>Blog</h1><ul>${[1, 2, 3, 4].map(card).join('')}</ul></main></body>`;
    const md = transformPage(feed, opts(), MD).markdown!;
    expect(md).toContain('Writer1 Name');
    expect(md).toContain('March 4, 2026');
    const story = `<body><article><h1>Budget approved</h1><p>${ARTICLE_TEXT}</p>
      <footer><a href="/tags/budget">Budget</a> <a href="/tags/council">Council</a></footer></article></body>`;
    expect(transformPage(story, opts(), MD).markdown!).not.toContain('/tags/council');
  });

  it('drops a block of scripted filter options (links without a target), keeps an anchor around a heading', () => {
    const option = (r: string, n: number) => `<a class="filter-item"><span>${r}<span> (${n})</span></span></a>`;
    const html = `<body><div class="results"><h1>Lenses</h1><p>${ARTICLE_TEXT}</p>
      <div class="facet-group"><div>${option('$50 to $75', 25)}${option('$75 to $100', 36)}${option('$100 to $250', 217)}</div></div>
      <h2><a id="usage">Usage notes</a></h2><p>${ARTICLE_TEXT.replace('council', 'board')}</p></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain(ARTICLE_TEXT);
    expect(md).not.toContain('$75 to $100');
    expect(md).toContain('Usage notes');
  });

  it('drops a skip link that opens a section, keeps a link that names its target', () => {
    const html = `<body><article><h1>Bookcases</h1><p>${ARTICLE_TEXT}</p>
      <section><a href="#after">Skip listing</a><h2>Popular shelving</h2><p>${ARTICLE_TEXT.replace('council', 'board')}</p></section>
      <section><a href="/guides/shelving">Shelving guide</a><h2>Assembly</h2><p>${ARTICLE_TEXT.replace('council', 'team')}</p></section></article></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Popular shelving');
    expect(md).not.toContain('Skip listing');
    expect(md).toContain('Shelving guide');
  });

  it("keeps a product tile's title block that links where its picture links, drops a short button there", () => {
    const tile = (n: number, name: string) => `<div class="col-4"><div class="product-tile">
      <div class="image-container"><a href="/p/${n}"><img src="/${n}.jpg" alt=""></a></div>
      <div class="tile-body"><div class="pdp-link"><a href="/p/${n}">${name}</a></div><div class="price">$${n}4.95</div></div>
      <div class="buy"><a href="/p/${n}">View item</a></div></div></div>`;
    const names = ['Roc Loc Five LED Light', 'Caden Helmet Vent Light', 'Scamp Helmet Vent Light', 'Sport Recreational Vent Light'];
    const html = `<body><div class="page"><h1>Lights</h1><div class="grid">${names.map((n, i) => tile(i + 1, n)).join('')}</div></div></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Roc Loc Five LED Light');
    expect(md).toContain('Sport Recreational Vent Light');
    expect(md).not.toContain('View item');
  });

  it("keeps an accordion's header, a button inside a heading, as the heading of its panel's text", () => {
    const fold = (n: number, title: string, text: string) => `<div class="fold"><h3 class="fold__header"><button class="fold__button" aria-expanded="false" aria-controls="p${n}"><span>${title}</span></button></h3>
      <div class="fold__body" id="p${n}"><p>${text}</p></div></div>`;
    const html = `<body><main><h1>Camp stoves</h1><p>${ARTICLE_TEXT}</p><h2>Buying advice</h2>
      ${fold(1, 'Choosing a fuel type', ARTICLE_TEXT.replace('council', 'board'))}${fold(2, 'Cooking for a group', ARTICLE_TEXT.replace('council', 'team'))}
      <button class="load">Show more</button></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('### Choosing a fuel type');
    expect(md).toContain('### Cooking for a group');
    expect(md).not.toContain('Show more');
  });

  it("keeps a shop category's title and description before the <main> that holds its grid and buying guide", () => {
    const card = (n: number) => `<li class="product-card"><a href="/p/${n}"><img src="/${n}.jpg" alt=""></a><a href="/p/${n}">Garden kneeler model ${n}</a><span class="price">$${n}9.00</span></li>`;
    const guide = [1, 2, 3, 4, 5, 6].map((n) => `<p>${ARTICLE_TEXT.replace('council', `board ${n}`)}</p>`).join('');
    const html = `<body><header><nav><a href="/">Home</a></nav></header>
      <section class="category-header"><h1>Kneelers</h1><p class="category-description">Soft kneelers and benches that spare your knees while you weed, plant and prune.</p></section>
      <main><ul class="products">${[1, 2, 3, 4, 5].map(card).join('')}</ul><div class="guide"><h2>Choosing a kneeler</h2>${guide}</div></main><footer>foot</footer></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('Soft kneelers and benches that spare your knees');
    expect(md).toContain('The board 6 approved');
  });

  /** A shop's grid of four lamp tiles under the page's title; the third tile alone holds a sentence. */
  const lampGrid = (note: string) => {
    const tile = (n: number, name: string) => `<div class="col-4"><div class="product-tile">
      <div class="image-container"><a href="/p/${n}"><img src="/${n}.jpg" alt=""></a></div>
      <div class="tile-body"><div class="pdp-link"><a href="/p/${n}">${name}</a></div><div class="price">$${n}4.95</div>${n === 3 ? `<p class="note">${note}</p>` : ''}</div></div></div>`;
    const names = ['Harbour Five LED Lamp', 'Summit Vent Lamp Pro', 'Ridge Trail Vent Lamp', 'Meadow Street Vent Lamp'];
    return `<body><div class="page"><h1>Lamps</h1><div class="grid">${names.map((n, i) => tile(i + 1, n)).join('')}</div></div></body>`;
  };

  it("keeps a shop card's title with the rest of its card where the grid is kept for its text", () => {
    const md = transformPage(lampGrid('Price reduced from $39.95 to $34.95 while stocks last, and delivery is free on every order placed this week or next week.'), opts(), MD).markdown!;
    expect(md).toContain('Price reduced from $39.95');
    expect(md).toContain('[Ridge Trail Vent Lamp]');
  });

  it("keeps every item of a shop's grid that is the content, not only the one card that has a sentence", () => {
    const md = transformPage(lampGrid('Price reduced from $39.95 to $34.95 while stocks last.'), opts(), MD).markdown!;
    expect(md).toContain('Price reduced from $39.95');
    expect(md).toContain('Harbour Five LED Lamp');
    expect(md).toContain('Meadow Street Vent Lamp');
  });

  it("keeps a thread's replies under a long opening post, and leaves a widget's teasers under a story out", () => {
    const para = (n: number) => `<p>Step ${n} of the guide: check the card's power connectors and the case's clearance before you buy one.</p>`;
    const post = (n: number, body: string) => `<li class="message"><div class="message-inner"><div class="message-user">member${n}</div>
      <div class="message-content"><article class="message-body">${body}</article></div></div></li>`;
    const reply = (n: number) => `<p>Reply ${n}: thanks, this guide saved me from buying a card that would not fit my case.</p>`;
    const thread = `<body><ol class="messages">${post(1, [1, 2, 3, 4, 5, 6].map(para).join(''))}${[2, 3, 4].map((n) => post(n, reply(n))).join('')}</ol></body>`;
    const md = transformPage(thread, opts(), MD).markdown!;
    expect(md).toContain('Step 6 of the guide');
    for (const n of [2, 3, 4]) expect(md).toContain(`Reply ${n}: thanks`);

    const teaser = (n: number) => `<div class="teaser-slot"><article class="post"><p>Teaser ${n}: a short summary of another story on the site, with a few words.</p></article></div>`;
    const story = `<body><div class="page"><div class="single-slot"><article class="post">${[1, 2, 3, 4, 5, 6].map(para).join('')}</article></div>
      <div class="widget-slot">${[1, 2, 3].map(teaser).join('')}</div></div></body>`;
    const storyMd = transformPage(story, opts(), MD).markdown!;
    expect(storyMd).toContain('Step 6 of the guide');
    expect(storyMd).not.toContain('Teaser 1');
  });
});

describe("onlyMainContent: a landing page's introduction", () => {
  const lead = 'We repair boilers, radiators and heat pumps across the county, usually on the day you call us.';
  const names = ['boilers', 'radiators', 'pumps', 'checks'];
  const section = (n: number, body: string) =>
    `<div class="${names[n - 1]}"><h2>Service ${n}</h2><p>${body} Every visit comes with a written quote and a twelve month guarantee on parts.</p></div>`;
  const sections = ['Boiler repair', 'Radiator bleeding and balancing', 'Heat pump servicing', 'Annual safety checks'].map((b, i) => section(i + 1, b + ' is done by our own engineers.')).join('');
  const areas = Array.from({ length: 12 }, (_, i) => `Open weekdays from eight until six in <a href="/area/${i}">district number ${i}</a>`).join(' ');
  const page = (wrap: (inner: string) => string) =>
    `<body><div class="hero"><h1>Heating repairs</h1><p>${lead}</p></div>${wrap(`<div class="layout"><div class="services">${sections}</div><div class="areas">${areas}</div></div>`)}</body>`;

  it("keeps a landing page's hero (its title and introduction) before the sections picked as its content, but not a story's standfirst", () => {
    const md = transformPage(page((inner) => inner), opts(), MD).markdown!;
    expect(md).toContain(lead);
    expect(md).toContain('Heat pump servicing is done');
    expect(md).not.toContain('district number');
    // The same blocks in a story's <article>: the block around the headline is its standfirst.
    const story = transformPage(page((inner) => `<article>${inner}</article>`), opts(), MD).markdown!;
    expect(story).toContain('Heat pump servicing is done');
    expect(story).not.toContain(lead);
  });

  it('keeps the hero around a title in a wrapper of its own and the lead in the block beside it', () => {
    const wrapped = page((inner) => inner).replace(`<h1>Heating repairs</h1><p>${lead}</p>`, `<div class="title-wrap"><h1>Heating repairs</h1></div><div class="lead-text"><p>${lead}</p></div>`);
    expect(wrapped).toContain('title-wrap');
    expect(transformPage(wrapped, opts(), MD).markdown!).toContain(lead);
  });

  it('keeps the hero of a page with a body of prose that nothing marks as a story, not where its og:type says article', () => {
    const intro = 'Work out what your loan will cost each month, and how much interest you pay over its whole term.';
    const method = (count: number) =>
      Array.from({ length: count }, (_, i) => i + 1)
        .map((n) => `<p>Step ${n} of the method: enter the amount you borrow, the yearly rate and the term in years, and the table below shows each payment, the part of it that is interest and the balance left after it.</p>`)
        .join('');
    const calculator = (head: string, steps = method(5)) =>
      `<html><head>${head}</head><body><div class="hero"><h1>Loan calculator</h1><p>${intro}</p></div><div class="layout"><div class="guide">${steps}</div><div class="areas">${areas}</div></div></body></html>`;
    const md = transformPage(calculator(''), opts(), MD).markdown!;
    expect(md).toContain(intro);
    expect(md).toContain('Step 5 of the method');
    const story = transformPage(calculator('<meta property="og:type" content="article">'), opts(), MD).markdown!;
    expect(story).toContain('Step 5 of the method');
    expect(story).not.toContain(intro);
    // A lead that is a sliver of a long text is that text's standfirst.
    const long = transformPage(calculator('', method(40)), opts(), MD).markdown!;
    expect(long).toContain('Step 40 of the method');
    expect(long).not.toContain(intro);
  });
});

describe('onlyMainContent: item lines', () => {
  it("keeps the short linked line under each item's title in a list (its author), not its button", () => {
    const row = (n: number, title: string, author: string) => `<tr><td class="rank">${n}</td><td><a href="/book/${n}"><img src="/covers/${n}.jpg" alt=""></a></td>
      <td><a class="bookTitle" href="/book/${n}">${title}</a><br><span class="by">by</span> <div class="author-wrap"><a href="/writer/${n}">${author}</a></div>
      <div class="meta">4.${n} average rating from ${n}2,480 readers</div><div class="actions"><a class="btn" href="/shelf/${n}">Want to read</a></div></td></tr>`;
    const rows = [
      ['The Lighthouse Keeper', 'Maren Holt'],
      ['A Winter in the Valley', 'Teodor Vance'],
      ['Salt and Iron', 'Ines Calloway'],
      ['The Paper Orchard', 'Bram Ostrander'],
    ];
    const html = `<body><main><h1>Readers' favourite novels</h1><p>The novels our readers rated highest this year, in order of their average rating.</p>
      <table class="books">${rows.map(([t, a], i) => row(i + 1, t!, a!)).join('')}</table></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('[Maren Holt]');
    expect(md).toContain('[Bram Ostrander]');
    expect(md).toContain('The Paper Orchard');
    expect(md).not.toContain('Want to read');
  });

  it("keeps the row of tags under each item's title in a grid, not a rating widget's links to the page itself", () => {
    const card = (n: number, title: string, tags: string[]) => `<div class="game-card"><a href="/game/${n}"><img src="/shots/${n}.jpg" alt=""></a>
      <div class="body"><a class="title" href="/game/${n}">${title}</a><div class="tags">${tags.map((t) => `<a href="/tag/${t}">${t}</a>`).join('')}</div>
      <div class="stars">${[1, 2, 3, 4, 5].map((k) => `<a href="#">${k} of 5 stars</a>`).join('')}</div><div class="price">$${n}9.99</div></div></div>`;
    const games = [
      ['Harbour Lights', ['Puzzle', 'Relaxing', 'Story Rich', 'Singleplayer', 'Atmospheric', 'Casual', 'Indie', 'Exploration']],
      ['Iron Valley Rally', ['Racing', 'Driving', 'Multiplayer', 'Arcade', 'Split Screen', 'Sports', 'Offroad', 'Physics']],
      ['Crown of Embers', ['Strategy', 'Medieval', 'City Builder', 'Base Building', 'Management', 'Simulation', 'Fantasy', 'Economy']],
      ['Deep Signal', ['Horror', 'Survival', 'Underwater', 'First-Person', 'Psychological', 'Dark', 'Sci-fi', 'Mystery']],
    ] as const;
    const html = `<body><main><h1>Top sellers</h1><div class="results">${games.map(([t, g], i) => card(i + 1, t, [...g])).join('')}</div></main></body>`;
    const md = transformPage(html, opts(), MD).markdown!;
    expect(md).toContain('[City Builder]');
    expect(md).toContain('[Underwater]');
    expect(md).not.toContain('of 5 stars');
  });
});
