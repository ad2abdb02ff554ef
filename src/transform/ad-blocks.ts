/**
 * `blockAds` in the transform: elements that are an ad or a cookie-consent notice are left out
 * of the content, whichever engine fetched the page (the browser engine also blocks ad requests
 * and hides consent overlays while the page loads; an HTTP fetch has the markup as served).
 *
 * The rule is a predicate over one element's tag and attributes, by kind of element, never keyed
 * to one site:
 *  - consent managers: ids and classes of the common consent platforms, and any element whose
 *    id or class words pair "cookie" (or "consent", "gdpr") with what a notice is called
 *    ("banner", "notice", "bar", "dialog"...), or a dialog labelled as a cookie notice;
 *  - ad slots: ids and classes whose words are an ad word ("ad", "ads", "advert", "adslot"...),
 *    alone or with a slot word ("slot", "unit", "container"...), and AdSense's `<ins>`;
 *  - frames from ad networks (the browser engine's host list).
 * The page-level elements (html, body, main, article) are never dropped: a body class such as
 * "has-cookie-banner" describes the page, not a notice.
 */
import { isAdRequest } from '../core/adblock.js';
import type { AttrSource } from './html-util.js';

const NEVER_DROPPED: ReadonlySet<string> = new Set(['html', 'head', 'body', 'main', 'article']);
/** Elements a consent dialog is built from, whose role and label are read. */
const LABELLED_CONTAINERS: ReadonlySet<string> = new Set(['div', 'section', 'aside', 'dialog', 'form']);

/** Ids and class names of consent platforms, matched as whole words of the id or class. */
const CONSENT_PLATFORMS = [
  'onetrust',
  'cybotcookiebot',
  'cookiebot',
  'didomi',
  'usercentrics',
  'truste',
  'trustarc',
  'qc-cmp2',
  'cmpbox',
  'cookieyes',
  'cky-consent',
  'osano-cm',
  'iubenda-cs',
  'cmplz',
  'cookie-law-info',
  'cookielawinfo',
  'termly',
  'klaro',
  'sp_message_container',
  'fc-consent',
  'cc-window',
  'cookieconsent',
  'cookienotice',
  'cookiebanner',
];

const COOKIE_WORDS: ReadonlySet<string> = new Set(['cookie', 'cookies', 'consent', 'gdpr', 'ccpa']);
/** What a notice is called; with a cookie word, a name of one ("cookie-banner", "consentModal"). */
const NOTICE_WORDS: ReadonlySet<string> = new Set([
  'banner', 'notice', 'notification', 'bar', 'popup', 'modal', 'dialog', 'overlay', 'wall', 'message',
  'law', 'alert', 'prompt', 'box', 'window', 'container', 'root', 'sdk', 'manager', 'preferences', 'settings',
]);

const AD_WORDS: ReadonlySet<string> = new Set([
  'ad', 'ads', 'advert', 'adverts', 'advertisement', 'advertisements', 'advertising', 'adsbygoogle', 'adslot', 'adunit',
  'adbox', 'adbanner', 'adcontainer', 'adsense', 'dfp', 'gpt',
]);
/** Ad words that name an ad only beside another ad word or a slot word ("gpt" alone may be anything). */
const WEAK_AD_WORDS: ReadonlySet<string> = new Set(['dfp', 'gpt']);
/** Where on a page or in what an ad sits: with an ad word, a name of an ad slot ("header-ad", "ad-slot-2"). */
const SLOT_WORDS: ReadonlySet<string> = new Set([
  'slot', 'unit', 'container', 'wrapper', 'wrap', 'banner', 'box', 'placeholder', 'label', 'space', 'zone', 'block',
  'leaderboard', 'skyscraper', 'billboard', 'sidebar', 'side', 'inline', 'top', 'bottom', 'header', 'footer', 'content',
  'sticky', 'mobile', 'desktop', 'div', 'frame', 'iframe',
]);
/** Numbers and sizes in ad slot names ("ad-2", "ad_300x250"). */
const SLOT_NUMBER = /^\d+(x\d+)?$/;

/** Words of an id or class: split on separators and camelCase humps, lower-cased. */
function wordsOf(value: string): string[] {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function isPlatformName(lower: string): boolean {
  for (const p of CONSENT_PLATFORMS) {
    if (!lower.startsWith(p)) continue;
    // Short names must end at a separator ("truste-consent", not "trusted-by").
    const next = lower.charCodeAt(p.length);
    if (p.length >= 8 || Number.isNaN(next) || next === 45 || next === 95) return true;
  }
  return false;
}

function isConsentName(name: string): boolean {
  if (isPlatformName(name.toLowerCase())) return true;
  const words = wordsOf(name);
  const cookieWords = words.filter((w) => COOKIE_WORDS.has(w)).length;
  // "cookie-banner", "consent-modal", "cookie-consent"; not "cookie-recipe" or "cookies".
  return cookieWords > 0 && (cookieWords > 1 || words.some((w) => NOTICE_WORDS.has(w)));
}

/** Whether an id or class name is an ad's: ad words with only places, slots and sizes beside them. */
export function isAdName(name: string): boolean {
  const words = wordsOf(name);
  const adWords = words.filter((w) => AD_WORDS.has(w));
  if (adWords.length === 0) return false;
  // Every other word says where the ad sits: "ad", "ad-slot", "header-ad", "div-gpt-ad-123".
  // Any other word makes it something else: "has-ads", "ads-enabled", "ad-hoc".
  if (!words.every((w) => AD_WORDS.has(w) || SLOT_WORDS.has(w) || SLOT_NUMBER.test(w))) return false;
  return adWords.some((w) => !WEAK_AD_WORDS.has(w)) || words.length > adWords.length;
}

/** Every id and class name of the element, as separate names. */
function namesOf(id: string | undefined, cls: string | undefined): string[] {
  const names: string[] = [];
  if (id) names.push(id.trim());
  if (cls) for (const c of cls.split(/\s+/)) if (c) names.push(c);
  return names;
}

/**
 * Ids and classes that may name an ad or a notice, tested before any splitting into words: this
 * runs for every element of every page while it streams, and almost none match.
 */
const NAME_HINT = /cookie|consent|gdpr|ccpa|onetrust|cybot|didomi|usercentrics|truste|cmp|cky-|osano|iubenda|termly|klaro|sp_message|cc-window|adv|adsbygoogle|adslot|adunit|adsense|gpt|dfp/i;
/** "ad" or "ads" as a word of its own: between separators, or a camelCase hump ("headerAd"). */
const AD_WORD_HINT = /(?:^|[^a-zA-Z])[aA][dD][sS]?(?![a-z])|[a-z]Ad[sS]?(?![a-z])/;
const mayNameBlock = (v: string | undefined): boolean => v !== undefined && (NAME_HINT.test(v) || AD_WORD_HINT.test(v));

/** Whether the element is an ad or a cookie-consent notice (see the module comment). */
export function isAdOrConsentBlock(tag: string, attrs: AttrSource): boolean {
  if (attrs.size === 0 || NEVER_DROPPED.has(tag)) return false;
  if (tag === 'iframe') {
    const src = attrs.get('src');
    if (src && isAdRequest(src)) return true;
  }
  // AdSense's slot, whatever its class says.
  if (tag === 'ins' && (attrs.get('data-ad-slot') !== undefined || attrs.get('data-ad-client') !== undefined)) return true;
  if (LABELLED_CONTAINERS.has(tag)) {
    const role = attrs.get('role');
    const label = role === 'dialog' || role === 'alertdialog' || role === 'region' ? attrs.get('aria-label') : undefined;
    // A dialog that mentions cookies is the notice; a region must be named as one.
    if (label !== undefined && (role === 'region' ? isConsentName(label) : wordsOf(label).some((w) => COOKIE_WORDS.has(w)))) return true;
  }
  const id = attrs.get('id');
  const cls = attrs.get('class');
  if (!mayNameBlock(id) && !mayNameBlock(cls)) return false;
  for (const name of namesOf(id, cls)) {
    if (isConsentName(name) || isAdName(name)) return true;
  }
  return false;
}
