/** Shop pages, galleries and rails: priced cards, specifications, slides and the widgets beside a product. */
import { describe, expect, it } from 'vitest';
import { transformPage } from './index.js';
import { isRailHeading } from './rules/rail-heading.js';
import { MD, opts, prose, productPage } from './main-content.fixtures.js';

describe('shop pages, galleries and rails', () => {
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
});
