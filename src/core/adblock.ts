/**
 * `blockAds`: the project's own small rule set, kept offline and in this file so it can be read
 * and reviewed in one place. Three kinds of rule:
 *  - ad, analytics and tracker hosts (a request to the host or any subdomain is refused);
 *  - URL path fragments that ad servers and header-bidding scripts commonly use;
 *  - selectors of cookie-consent managers' banners and overlays, removed before actions run
 *    and again before capture (and hidden by a style sheet meanwhile, for screenshots).
 * It is deliberately small: the widely used filter lists are under licences this project does
 * not take on, and the hosts below cover most of the ad and consent traffic of ordinary pages.
 */

const AD_HOSTS = [
  'doubleclick.net',
  'googlesyndication.com',
  'googleadservices.com',
  'googletagservices.com',
  'google-analytics.com',
  'googletagmanager.com',
  'adservice.google.com',
  'adnxs.com',
  'adsrvr.org',
  'advertising.com',
  'amazon-adsystem.com',
  'criteo.com',
  'criteo.net',
  'outbrain.com',
  'taboola.com',
  'pubmatic.com',
  'rubiconproject.com',
  'openx.net',
  'casalemedia.com',
  'moatads.com',
  'scorecardresearch.com',
  'quantserve.com',
  'adform.net',
  'smartadserver.com',
  'yieldmo.com',
  'media.net',
  'bidswitch.net',
  'hotjar.com',
  'mixpanel.com',
  'segment.io',
  'connect.facebook.net',
  'ads-twitter.com',
  'static.ads-twitter.com',
  'analytics.tiktok.com',
  'bat.bing.com',
  'clarity.ms',
  'chartbeat.com',
  'newrelic.com',
  'nr-data.net',
  'zedo.com',
  'popads.net',
  'propellerads.com',
  'adcolony.com',
  'teads.tv',
  'sharethrough.com',
  'indexww.com',
  '3lift.com',
  'adroll.com',
  'zemanta.com',
];

/** Path fragments of ad servers and bidding scripts, matched case-insensitively. */
const AD_PATHS = ['/adserver/', '/pagead/', '/prebid', '/ads.js', '/adsbygoogle', '/banner-ads/', '/ad-loader', '/gpt.js'];

/** Banners and overlays of the common consent managers, and generic cookie-notice containers. */
export const CONSENT_SELECTORS = [
  '#onetrust-consent-sdk',
  '#onetrust-banner-sdk',
  '#CybotCookiebotDialog',
  '#cookiebanner',
  '#cookie-banner',
  '#cookie-notice',
  '#cookie-law-info-bar',
  '#cookieConsent',
  '#cmpbox',
  '#usercentrics-root',
  '#didomi-host',
  '#truste-consent-track',
  '#qc-cmp2-container',
  '.cc-window',
  '.cookie-banner',
  '.cookie-consent',
  '.cookie-notice',
  '.fc-consent-root',
  '.qc-cmp2-container',
  '[id^="sp_message_container"]',
  '[aria-label="cookieconsent"]',
];

const hostSet = new Set(AD_HOSTS);

/** True when the URL goes to a listed host (or a subdomain of one) or has an ad-server path. */
export function isAdRequest(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  let host = u.hostname.toLowerCase();
  for (;;) {
    if (hostSet.has(host)) return true;
    const dot = host.indexOf('.');
    if (dot < 0) break;
    host = host.slice(dot + 1);
  }
  const path = u.pathname.toLowerCase();
  return AD_PATHS.some((p) => path.includes(p));
}

/** Installed in every frame before page scripts: hides consent overlays as soon as they appear. */
export const HIDE_CONSENT_SCRIPT = `(() => {
  const css = ${JSON.stringify(CONSENT_SELECTORS.join(',') + '{display:none !important;visibility:hidden !important}')};
  const add = () => { const s = document.createElement('style'); s.textContent = css; (document.head || document.documentElement).appendChild(s); };
  if (document.documentElement) add(); else document.addEventListener('DOMContentLoaded', add, { once: true });
})();`;

/** Removes consent overlays from the DOM, so they are neither clicked into nor captured. */
export const REMOVE_CONSENT_SCRIPT = `(() => {
  let removed = 0;
  for (const el of Array.from(document.querySelectorAll(${JSON.stringify(CONSENT_SELECTORS.join(','))}))) { el.remove(); removed++; }
  // Consent managers often lock scrolling on the body while their dialog is open.
  for (const el of [document.documentElement, document.body]) if (el && getComputedStyle(el).overflow === 'hidden') el.style.overflow = 'auto';
  return removed;
})()`;
