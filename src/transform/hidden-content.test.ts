/** Content a page hides until a reader asks (accordions, tabs, slides), narrowing to <main>, captions and edges. */
import { describe, expect, it } from 'vitest';
import { transformPage } from './index.js';
import { MD, opts, prose } from './main-content.fixtures.js';

describe('hidden content, narrowing and edges', () => {
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
