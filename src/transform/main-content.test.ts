/** Main-content extraction as a whole: what a page keeps with onlyMainContent, includeTags / excludeTags, the html format. */
import { describe, expect, it } from 'vitest';
import { transformPage } from './index.js';
import { attrsFrom } from './html-util.js';
import { boilerplateReason } from './main-content.js';
import { MD, opts, ARTICLE_TEXT, NEWS_PAGE } from './main-content.fixtures.js';

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
