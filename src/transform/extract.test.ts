import { describe, expect, it } from 'vitest';
import { extractImages, extractLinks, extractMetadata } from './extract.js';
import { bestSrcsetCandidate } from './images.js';
import { transformPage } from './index.js';

const BASE = 'https://shop.example.com/catalog/item.html';

describe('links', () => {
  it('returns every <a href> absolute, de-duplicated, in document order', () => {
    const html = `<a href="/b">b</a><a href="a.html">a</a><a href="https://other.org/x">x</a><a href="/b">again</a>
      <a href="#top">top</a><a href="mailto:sales@example.com">mail</a>`;
    expect(extractLinks(html, BASE)).toEqual([
      'https://shop.example.com/b',
      'https://shop.example.com/catalog/a.html',
      'https://other.org/x',
      'https://shop.example.com/catalog/item.html#top',
      'mailto:sales@example.com',
    ]);
  });

  it('drops javascript:, tel: and other non-web targets, and anchors without href', () => {
    const html = `<a href="javascript:void(0)">j</a><a href="tel:+123">t</a><a href="data:text/html,hi">d</a><a name="n">n</a><a href="">empty</a>`;
    expect(extractLinks(html, BASE)).toEqual([]);
  });

  it('resolves against <base href> and decodes entities', () => {
    const html = `<head><base href="https://cdn.example.net/root/"></head><a href="p?a=1&amp;b=2">p</a>`;
    expect(extractLinks(html, BASE)).toEqual(['https://cdn.example.net/root/p?a=1&b=2']);
  });

  it('finds links anywhere, including in boilerplate', () => {
    const html = `<nav><a href="/nav">n</a></nav><footer><a href="/foot">f</a></footer>`;
    expect(extractLinks(html, BASE)).toEqual(['https://shop.example.com/nav', 'https://shop.example.com/foot']);
  });
});

describe('images', () => {
  it('collects img src, the best srcset candidate, <source srcset> and og:image, absolute and de-duplicated', () => {
    const html = `<head><meta property="og:image" content="/og.jpg"></head><body>
      <img src="small.jpg" srcset="small.jpg 320w, large.jpg 1024w, medium.jpg 640w">
      <picture><source srcset="/hero.webp 1x, /hero@2x.webp 2x" type="image/webp"><img src="/hero.jpg"></picture>
      <img src="/og.jpg"><img src="data:image/png;base64,AAAA"></body>`;
    expect(extractImages(html, BASE)).toEqual([
      'https://shop.example.com/og.jpg',
      'https://shop.example.com/catalog/small.jpg',
      'https://shop.example.com/catalog/large.jpg',
      'https://shop.example.com/hero@2x.webp',
      'https://shop.example.com/hero.jpg',
    ]);
  });

  it('uses lazy-loading attributes when src is a placeholder', () => {
    const html = `<img src="data:image/gif;base64,R0lGOD=" data-src="/real.png">`;
    expect(extractImages(html, BASE)).toEqual(['https://shop.example.com/real.png']);
  });

  it('picks srcset candidates by width, then density, then order', () => {
    expect(bestSrcsetCandidate('a.jpg 100w, b.jpg 300w, c.jpg 200w')).toBe('b.jpg');
    expect(bestSrcsetCandidate('a.jpg, b.jpg 2x, c.jpg 1.5x')).toBe('b.jpg');
    expect(bestSrcsetCandidate('only.jpg')).toBe('only.jpg');
    expect(bestSrcsetCandidate('https://cdn.example.com/i/w_200,h_100/x.jpg 200w, https://cdn.example.com/i/w_400,h_200/x.jpg 400w')).toBe(
      'https://cdn.example.com/i/w_400,h_200/x.jpg',
    );
    expect(bestSrcsetCandidate('')).toBeUndefined();
  });
});

describe('metadata', () => {
  const html = `<!doctype html><html lang="en-GB"><head>
    <meta charset="utf-8">
    <title>  Blue &amp; Green
      Widgets </title>
    <meta name="description" content="Widgets in &quot;two&quot; colours">
    <meta name="keywords" content="widgets, blue, green">
    <meta name="robots" content="index, follow">
    <meta name="viewport" content="width=device-width">
    <meta property="og:title" content="OG Widgets">
    <meta property="og:description" content="OG description">
    <meta property="og:url" content="https://shop.example.com/w">
    <meta property="og:image" content="https://shop.example.com/w.jpg">
    <meta property="og:site_name" content="Example Shop">
    <meta property="og:locale" content="en_GB">
    <meta property="og:locale:alternate" content="fr_FR">
    <meta property="og:locale:alternate" content="de_DE">
    <meta name="twitter:card" content="summary">
    <meta name="DCTERMS.created" content="2020-01-02">
    <meta name="dc.subject" content="Hardware">
    <meta property="article:published_time" content="2024-05-01T10:00:00Z">
    <meta property="article:modified_time" content="2024-05-02T10:00:00Z">
    <meta property="article:section" content="Products">
    <meta property="article:tag" content="blue">
    <meta property="article:tag" content="green">
    <link rel="canonical" href="/catalog/widgets">
    <link rel="shortcut icon" href="/favicon.ico">
    </head><body><svg><title>Icon title</title></svg><p>Body</p>
    <div itemscope><meta itemprop="price" content="9.99"></div></body></html>`;

  it('reads the named fields of the v2 Document metadata', () => {
    const md = extractMetadata(html, BASE);
    expect(md).toMatchObject({
      title: 'Blue & Green Widgets',
      description: 'Widgets in "two" colours',
      language: 'en-GB',
      keywords: 'widgets, blue, green',
      robots: 'index, follow',
      favicon: 'https://shop.example.com/favicon.ico',
      canonical: 'https://shop.example.com/catalog/widgets',
      ogTitle: 'OG Widgets',
      ogDescription: 'OG description',
      ogUrl: 'https://shop.example.com/w',
      ogImage: 'https://shop.example.com/w.jpg',
      ogSiteName: 'Example Shop',
      ogLocale: 'en_GB',
      ogLocaleAlternate: ['fr_FR', 'de_DE'],
      dcTermsCreated: '2020-01-02',
      dcSubject: 'Hardware',
      publishedTime: '2024-05-01T10:00:00Z',
      modifiedTime: '2024-05-02T10:00:00Z',
      articleSection: 'Products',
      articleTag: 'blue, green',
    });
  });

  it('keeps a raw copy of every meta tag under its own key, repeats as arrays', () => {
    const md = extractMetadata(html, BASE);
    expect(md['og:title']).toBe('OG Widgets');
    expect(md.viewport).toBe('width=device-width');
    expect(md['twitter:card']).toBe('summary');
    expect(md['DCTERMS.created']).toBe('2020-01-02');
    expect(md['og:locale:alternate']).toEqual(['fr_FR', 'de_DE']);
    expect(md['article:tag']).toEqual(['blue', 'green']);
    expect(md.price).toBe('9.99');
    expect(md.charset).toBeUndefined();
  });

  it('lets the document title win over a <meta name="title"> and ignores SVG titles', () => {
    const md = extractMetadata('<svg><title>svg</title></svg><meta name="title" content="meta"><title>doc</title>', BASE);
    expect(md.title).toBe('doc');
  });

  it('falls back to apple-touch-icon and ignores unsafe keys', () => {
    const md = extractMetadata(
      '<link rel="apple-touch-icon" href="/touch.png"><meta name="__proto__" content="x"><meta name="constructor" content="y">',
      BASE,
    );
    expect(md.favicon).toBe('https://shop.example.com/touch.png');
    expect(Object.getPrototypeOf(md)).toBe(Object.prototype);
    expect(Object.hasOwn(md, 'constructor')).toBe(false);
  });

  it('never throws on odd HTML', () => {
    const odd = [
      '',
      '<',
      '<<<>>>',
      '<meta content>',
      '<html lang><title>',
      '<meta name="a" content="1"><meta name="a" content="2"><meta name="a" content="3">',
      '<link rel="canonical" href="http://[bad">',
      '\u0000\ud800<p',
      '<title>' + 'x'.repeat(100_000),
    ];
    for (const h of odd) expect(() => extractMetadata(h, BASE)).not.toThrow();
    expect(extractMetadata(odd[5]!, BASE).a).toEqual(['1', '2', '3']);
    expect(extractMetadata(odd[6]!, BASE).canonical).toBeUndefined();
  });

  it('is always returned by transformPage, from the whole page', () => {
    const r = transformPage(html, {
      baseUrl: BASE,
      onlyMainContent: true,
      includeTags: ['p'],
      excludeTags: [],
      removeBase64Images: true,
    }, { markdown: true, html: false, links: false, images: false });
    expect(r.metadata.title).toBe('Blue & Green Widgets');
    expect(r.markdown).toBe('Body');
  });
});
