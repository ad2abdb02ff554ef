/**
 * blockAds in the transform: ad slots and cookie-consent notices are recognised by kind of
 * element (consent platforms and notice names, ad slot names, AdSense markup, ad network frames),
 * and things that only share a word with them stay.
 */
import { describe, expect, it } from 'vitest';
import { pages } from '../../test/fixture-site/pages.js';
import { attrsFrom } from './html-util.js';
import { isAdOrConsentBlock } from './ad-blocks.js';
import { transformPage } from './index.js';

const is = (tag: string, attrs: Record<string, string>) => isAdOrConsentBlock(tag, { ...attrsFrom(attrs), size: Object.keys(attrs).length });

describe('isAdOrConsentBlock', () => {
  it.each([
    ['div', { id: 'onetrust-consent-sdk' }],
    ['div', { id: 'CybotCookiebotDialog' }],
    ['div', { id: 'didomi-host' }],
    ['div', { id: 'truste-consent-track' }],
    ['div', { id: 'sp_message_container_1234' }],
    ['div', { class: 'cookie-banner' }],
    ['div', { class: 'wrapper cookieConsent' }],
    ['div', { class: 'consent-modal' }],
    ['div', { class: 'gdpr-notice' }],
    ['section', { role: 'dialog', 'aria-label': 'We use cookies' }],
    ['div', { role: 'region', 'aria-label': 'Cookie banner' }],
    ['div', { class: 'ad' }],
    ['div', { class: 'ad-slot' }],
    ['div', { class: 'adSlot' }],
    ['div', { class: 'header-ad' }],
    ['div', { class: 'ad_300x250' }],
    ['div', { id: 'div-gpt-ad-1234-0' }],
    ['aside', { class: 'sidebar-ads' }],
    ['div', { class: 'advertisement' }],
    ['ins', { class: 'adsbygoogle' }],
    ['ins', { 'data-ad-slot': '123' }],
    ['iframe', { src: 'https://googleads.g.doubleclick.net/pagead/ads?x=1' }],
    ['iframe', { src: 'https://cdn.taboola.com/widget' }],
  ])('drops <%s %o>', (tag, attrs) => {
    expect(is(tag, attrs)).toBe(true);
  });

  it.each([
    ['div', { class: 'cookie-recipe' }],
    ['div', { class: 'cookies' }],
    ['div', { class: 'has-ads' }],
    ['div', { class: 'ads-enabled' }],
    ['div', { class: 'ad-hoc' }],
    ['button', { class: 'add-to-cart' }],
    ['div', { class: 'address' }],
    ['div', { class: 'gpt' }],
    ['div', { class: 'trusted-by' }],
    ['section', { role: 'region', 'aria-label': 'Cookies we baked' }],
    ['body', { class: 'has-cookie-banner ad' }],
    ['main', { class: 'ad-container' }],
    ['article', { id: 'cookie-banner' }],
    ['iframe', { src: 'https://www.youtube.com/embed/xyz' }],
    ['div', {}],
  ])('keeps <%s %o>', (tag, attrs) => {
    expect(is(tag, attrs)).toBe(false);
  });
});

describe('transform with blockAds', () => {
  const html = pages['/ads-and-cookies']!('http://example.test');
  const opts = { baseUrl: 'http://example.test/ads-and-cookies', onlyMainContent: false, includeTags: [], excludeTags: [], removeBase64Images: true };
  const wants = { markdown: true, html: true, links: false, images: false };
  const removed = ['ONETRUST-BANNER-TEXT', 'GENERIC-COOKIE-NOTICE', 'DIALOG-COOKIE-TEXT', 'ADSENSE-SLOT-TEXT', 'GPT-SLOT-TEXT', 'SIDEBAR-AD-TEXT', 'AD-FRAME-TEXT'];
  const kept = ['KEPT-CONTENT', 'RECIPE-STAYS', 'ADD-TO-CART-STAYS', 'ADDRESS-STAYS', 'Chocolate chip cookies'];

  it('leaves ads and consent notices out of markdown and html, even with onlyMainContent off', () => {
    const r = transformPage(html, { ...opts, blockAds: true }, wants);
    for (const t of removed) {
      expect(r.markdown, t).not.toContain(t);
      expect(r.html, t).not.toContain(t);
    }
    for (const t of kept) expect(r.markdown, t).toContain(t);
  });

  it('keeps everything with blockAds off', () => {
    const r = transformPage(html, { ...opts, blockAds: false }, wants);
    for (const t of [...removed.filter((t) => t !== 'AD-FRAME-TEXT'), ...kept]) expect(r.markdown, t).toContain(t);
  });

  it('works beside excludeTags', () => {
    const r = transformPage(html, { ...opts, blockAds: true, excludeTags: ['.cookie-recipe'] }, wants);
    expect(r.markdown).not.toContain('RECIPE-STAYS');
    expect(r.markdown).not.toContain('ONETRUST-BANNER-TEXT');
    expect(r.markdown).toContain('KEPT-CONTENT');
  });
});
