/** Rules on the text of kept blocks: repeated renderings, publisher pitches, inline captions, a landing page's introduction, item lines. */
import { describe, expect, it } from 'vitest';
import { transformPage } from './index.js';
import { MD, opts, ARTICLE_TEXT } from './main-content.fixtures.js';

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
