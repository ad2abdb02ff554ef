/** The tag, role and class verdicts that mark an element as site furniture (boilerplateReason). */
import { describe, expect, it } from 'vitest';
import { transformPage } from './index.js';
import { attrsFrom } from './html-util.js';
import { boilerplateReason } from './main-content.js';
import { MD, opts, ARTICLE_TEXT } from './main-content.fixtures.js';

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
