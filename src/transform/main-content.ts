/**
 * Deterministic main-content rules (`onlyMainContent`): which elements are boilerplate, and which
 * landmark (main / article) to narrow the page to. The rules only look at an element's own tag
 * and attributes plus whether it sits inside a content landmark, so they can run on a stream.
 */
import { type AttrSource, holds } from './html-util.js';
import { boundedMemo } from '../memo.js';
import { isDocumentationPart, isFootnoteAside } from './doc-parts.js';
import { isAdName } from './ad-blocks.js';

/** Never content, whatever the options: dropped with their whole subtree. */
export const NON_CONTENT_TAGS: ReadonlySet<string> = new Set([
  'head', 'script', 'style', 'noscript', 'template', 'title', 'meta', 'link', 'base',
  'svg', 'iframe', 'frame', 'frameset', 'object', 'embed', 'canvas', 'applet',
]);

/**
 * Page furniture by tag. `header` is only furniture outside a content landmark (see below).
 * A fieldset groups a form's controls (a product's colour or size picker) under their legend:
 * without the controls, the legend and option names are stray words, not content.
 */
const BOILERPLATE_TAGS: ReadonlySet<string> = new Set([
  'nav', 'aside', 'footer', 'dialog', 'menu', 'button', 'select', 'option', 'input', 'textarea', 'fieldset',
  // What a <video> or <audio> holds besides its sources is the fallback a browser shows only when
  // it cannot play media ("Your browser does not support the video tag"), never the page's text.
  'video', 'audio',
]);

const BOILERPLATE_ROLES: ReadonlySet<string> = new Set([
  'navigation', 'contentinfo', 'complementary', 'search', 'menu', 'menubar', 'dialog', 'alertdialog',
  'tooltip', 'toolbar', 'banner',
  // Widgets built from plain elements that ARIA marks as form controls (swatches, size pickers),
  // and the live message a shop's form updates ("Added to your basket"). Not "alert": notices
  // inside a post's own text carry that role too.
  'radiogroup', 'listbox', 'option', 'radio', 'checkbox', 'spinbutton', 'slider', 'combobox', 'switch', 'searchbox',
  'menuitemradio', 'menuitemcheckbox', 'progressbar', 'status',
]);

/**
 * A forum post's author panel (join date, post count, rank, badges), as forum software names it
 * (or the post's left column that holds it, "postleft"),
 * in one word or two ("userinfo", "user-info", "user_details"): see findFurniture.
 */
const AUTHOR_PANEL_WORDS: ReadonlySet<string> = new Set([
  'userinfo', 'userextras', 'userstats', 'usertitle', 'userdetails', 'userbanner', 'userbanners', 'memberinfo',
  'authorinfo', 'postprofile', 'postleft',
]);

/**
 * Furniture words that templates also spell in two ("user-info", "tool-tip"): see findFurniture.
 * Not every word: "breaking-news" may be the section a story itself sits in, "pop-up" a shop's
 * own panel.
 */
const SPLIT_WORDS: ReadonlySet<string> = new Set([...AUTHOR_PANEL_WORDS, 'tooltip']);

/**
 * Words in class/id names that mark furniture anywhere, even inside an article: sharing widgets,
 * ads, newsletter boxes, related-content rails, consent prompts, forum signatures and author panels.
 */
const ALWAYS_WORDS: ReadonlySet<string> = new Set([
  'share', 'shares', 'sharing', 'sharebar', 'sharethis', 'addthis', 'social', 'socials',
  'ad', 'ads', 'adsense', 'adslot', 'adunit', 'advert', 'adverts', 'advertisement', 'advertising', 'dfp',
  'sponsor', 'sponsored', 'newsletter', 'subscribe', 'subscription',
  'related', 'recommended', 'popup', 'breadcrumb', 'breadcrumbs', 'pagination', 'pager',
  'footer', 'skiplink', 'toolbar', 'tooltip', 'signature', 'signatures', 'copyright',
  // A forum poster's signature as forum software names it in one word.
  'postsignature', 'signaturecontainer',
  // "Footer" as templates written in Portuguese and German name it.
  'rodape', 'fusszeile',
  // A forum post's author panel (join date, post count, rank), as forum software names it.
  ...AUTHOR_PANEL_WORDS,
  // Fine print (offer terms, "prices may vary", affiliate notes) that shops and review sites
  // append to the content, and the notes section blog engines render under a post: apparatus,
  // not the text a reader came for. ("legal-content", a terms page's text, is spared by its
  // content word.)
  'disclaimer', 'disclaimers', 'footnotes', 'fineprint', 'legal',
  // A headline ticker that templates put above the story.
  'breakingnews', 'newsticker',
  // An author panel under a post, as themes name it in one word (see also "author-box" below).
  'authorbox', 'authorbio', 'aboutauthor',
  // The author boxes that common blog plugins add under a post, by the class word they prefix
  // every part of the box with ("saboxplugin-wrap", "abh_box").
  'saboxplugin', 'abh',
  // Badges beside a post or a user name (rank, reputation, "bronze badges", "top contributor"):
  // forum furniture, not the thread's text.
  'badge', 'badges',
  // A news site's recirculation module: other stories set into or under the article.
  'recirc', 'recirculation',
  // A forum post's row of buttons (reply, quote, report), as forum software names it in one word.
  'posttools', 'postcontrols', 'postactions',
  // Readers' reactions to a post or a story (who liked it, the emoji tally), as templates name the bar.
  'reactions', 'reactionsbar', 'reactionbar',
]);

/** Words that mark site chrome when they appear outside a content landmark. */
const OUTSIDE_WORDS: ReadonlySet<string> = new Set([
  'nav', 'navs', 'navbar', 'navheader', 'navfooter', 'navmenu', 'navlinks', 'navigation', 'sidenav',
  'menu', 'menus', 'menubar', 'megamenu', 'submenu', 'sidebar', 'sidebars', 'header', 'masthead',
  'topbar',
  // A site's popup (a sign-up form, a promotion) sits outside the page's main landmark; a
  // "modal" inside it is the page's own, shown in the page as well (a product's details, its
  // size guide).
  'modal',
]);

/**
 * A byline or dateline inside an <article> is the story's apparatus (who wrote it, for which
 * agency, when), as is its date and the post's info line (date, author, category); in a
 * listing's cards it is part of each entry, so it is furniture only inside an article. Not
 * "published": content systems mark the state of every block with it.
 */
const BYLINE_HINT = /byline|dateline|timestamp|pubdate|date|postinfo|postmeta/i;
const BYLINE_WORDS: ReadonlySet<string> = new Set(['byline', 'bylines', 'dateline', 'timestamp', 'pubdate', 'date', 'dates', 'postinfo', 'postmeta']);

function bylineWord(cls: string): string | undefined {
  return cls.toLowerCase().split(/[^a-z0-9]+/).find((p) => BYLINE_WORDS.has(p));
}

/**
 * A call-to-action box set into a story ("post-cta", "cta-banner", "newsletter-cta-wrap": a
 * sign-up, a free trial, the publisher's own product) is the publisher's promotion, not the
 * story; inside an <article> only, as a byline is (a landing page's "cta" sections are its offer).
 * Not a link (a button's label has rules of its own), nor a page builder's layout block named
 * after the module it holds ("row home_cta", "cta-card", "cta_container"), nor a name for the
 * box's own text ("cta-content"): the box around it decides.
 */
const CTA_HINT = /cta/i;
const CTA_LAYOUT_WORDS: ReadonlySet<string> = new Set(['row', 'section', 'column', 'col', 'container', 'grid', 'card', 'module', 'button', 'btn']);

function isCallToActionBox(cls: string): boolean {
  const parts = cls.toLowerCase().split(/[^a-z0-9]+/);
  let at = parts.indexOf('cta');
  if (at < 0) at = parts.indexOf('ctas');
  if (at < 0) return false;
  // A content word before it names whose box it is ("post-cta"); after it, the box's own text.
  for (let i = 0; i < parts.length; i++) if (CTA_LAYOUT_WORDS.has(parts[i]!) || (i > at && CONTENT_WORDS.has(parts[i]!))) return false;
  return true;
}

/**
 * Substrings that mark a third-party review widget (its star summary, its shoppers' reviews,
 * its "Write a review" form) as its vendors spell the class: the widget's own content served
 * into the page, not the page's. ("stamped-" with its dash: "stamped" alone is a style word.)
 */
const REVIEW_WIDGET_SUBSTRINGS = ['yotpo', 'okendo', 'jdgm', 'judgeme', 'loox', 'trustpilot', 'bazaarvoice', 'stamped-'];
/** Substrings that mark consent managers however their vendors spell the class. */
const CONSENT_SUBSTRINGS = ['cookie', 'consent', 'gdpr', 'onetrust', 'didomi'];

/**
 * Whole class names that hide an element or mark assistive-only or anchor-glyph text. Also those
 * that hide it on a desktop screen only, as page builders and themes name them: the small-screen
 * copy of a part laid out again for the desktop, which a page read as a desktop shows it does not
 * hold twice. (Not the utility frameworks' "lg:hidden" or "d-lg-none": their desktop copy is
 * marked "hidden" or "d-none" too, and only the small-screen one is kept.)
 */
const HIDDEN_CLASSES: ReadonlySet<string> = new Set([
  'hidden', 'hide', 'd-none', 'is-hidden', 'visually-hidden', 'visuallyhidden', 'sr-only', 'screen-reader-text',
  'screen-reader-only', 'offscreen', 'invisible', 'skip-link', 'skip-to-content', 'headerlink', 'anchorjs-link',
  'elementor-hidden-desktop', 'hidden-desktop', 'hide-desktop', 'hide-on-desktop',
  // A forum engine's own pair: "hide on desktop" and "show on phones only".
  'ipsresponsive_hidedesktop', 'ipsresponsive_showphone',
  // A site builder's mark on an element that a condition on the page's data hides (an empty
  // field's block, a template's fallback copy of the text): it is not shown at all.
  'w-condition-invisible',
]);

/**
 * Words after "nav" that name a carousel's or a slider's set of controls ("dark-nav-arrows",
 * "nav-btns"), not a site's navigation: themes put such a class on the carousel itself to style
 * its arrows, and the arrows are buttons, dropped as such. (A single "nav-btn" is as often a
 * site menu's toggle.)
 */
const NAV_CONTROLS: ReadonlySet<string> = new Set(['btns', 'buttons', 'arrows', 'dots']);

/** Hiding classes that scripts take off a panel to open it (not the screen-reader-only ones). */
const FOLDING_CLASSES: ReadonlySet<string> = new Set(['hidden', 'hide', 'd-none', 'is-hidden']);

/** A word before a furniture word that describes a layout rather than the furniture itself. */
const LAYOUT_PREFIXES: ReadonlySet<string> = new Set(['has', 'with', 'no', 'without', 'show', 'hide', 'toggle']);

/**
 * Words before "header" that still name the site's header or the page's banner ("site-header",
 * "main-header", "sticky-header", "region-header", "hero-header"), as opposed to a part's. Not
 * "section" or "page": a "section-header" is a section's own heading and introduction, a
 * "page-header" the page's title block (as the common CSS frameworks name it).
 */
const SITE_PREFIXES: ReadonlySet<string> = new Set([
  'site', 'global', 'main', 'top', 'app', 'layout', 'mobile', 'desktop', 'sticky', 'fixed', 'nav', 'navbar',
  'theme', 'region', 'hero', 'big',
]);

/** Words that mark the content itself: an element naming one is never treated as chrome by class. */
const CONTENT_WORDS: ReadonlySet<string> = new Set([
  'content', 'main', 'article', 'post', 'entry', 'story', 'body', 'text', 'prose', 'markdown',
]);

// Cheap pre-filter so most class/id values skip the split-and-lookup below.
const MAYBE_FURNITURE = /reaction|sabox|abh|postleft|postcontrols|postactions|yotpo|okendo|jdgm|judgeme|loox|trustpilot|bazaarvoice|stamped-|rodape|fusszeile|recirc|nav|menu|side|head|foot|mast|topbar|sig|copyright|shar|social|addthis|ad|dfp|spons|news|subscr|relat|recomm|popup|modal|bread|pag|skip|tool|cookie|consent|gdpr|onetrust|didomi|hid|none|only|screen|offscreen|invisible|anchor|user|member|authorinfo|postprofile|disclaim|footnote|fineprint|legal|break|newsticker|author/i;

// An FAQ's answer ("faq-answer", "faq__answer") and a toggle's content ("toggle__content") are
// the same kind of panel: hidden until the question or the toggle is clicked. A tab's pane is
// spelt with a separator as often as without ("tab-pane", as the common CSS frameworks name it),
// or with BEM's two ("tab__content").
const PANEL_NAME = /panel|accordion|collaps|tab[-_]*pane|tab[-_]*content|expand|answer|toggle[-_]*content/i;

/**
 * ... of those, the panels a class hides until they are opened (an accordion's or a tab's) with
 * one of FOLDING_CLASSES: not "expand", which marks the hidden remainder of a text cut short (a
 * "Read more" that repeats what is on show).
 */
const FOLDED_NAME = /panel|accordion|collaps|tab[-_]*pane|tab[-_]*content|answer|toggle[-_]*content/i;

const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/** Landmarks we may narrow the page to. */
export type LandmarkKind = 'main' | 'article';

export function landmarkKind(name: string, attrs: AttrSource): LandmarkKind | undefined {
  if (name === 'main') return 'main';
  if (name === 'article') return 'article';
  if (attrs.size !== 0 && attrs.get('role') === 'main') return 'main';
  return undefined;
}

/**
 * Why an element is boilerplate, or undefined when it is not. `inContent` is true inside a
 * main/article landmark, where only the unambiguous rules apply.
 */
export function boilerplateReason(name: string, attrs: AttrSource, inContent: boolean, inArticle = false): string | undefined {
  if (name === 'html' || name === 'body' || name === 'main' || name === 'article') return undefined;
  if (BOILERPLATE_TAGS.has(name) && !(name === 'aside' && isFootnoteAside(attrs))) return `tag:${name}`;
  if (name === 'header' && !inContent) return 'tag:header';
  if (attrs.size === 0) return undefined;
  if (name === 'form' && isSearchForm(attrs)) return 'search-form';

  const role = attrs.get('role');
  if (role !== undefined) {
    const r = role.trim().toLowerCase();
    if (r === 'main') return undefined;
    if (BOILERPLATE_ROLES.has(r) && (r !== 'banner' || !inContent)) return `role:${r}`;
    // A link that leads nowhere and says it is a button is a script's control drawn as a link
    // (a quote's "Click to expand...", a toggle), as a <button> is.
    if (r === 'button' && name === 'a' && attrs.get('href') === undefined) return 'role:button';
  }
  if (isInteractionCounter(attrs)) return 'interaction-counter';
  // A popover (the HTML attribute) is shown on top of the page when a control asks for it: a
  // menu, a search box, a prompt, like a dialog.
  if (attrs.get('popover') !== undefined) return 'popover';
  // A hidden tab or accordion panel is one click away, as the collapsed ones below.
  if (attrs.get('hidden') !== undefined && !isStreamedBoundary(attrs) && !isCollapsedPanel(attrs)) return 'hidden';
  if (attrs.get('aria-hidden') === 'true' && !isCollapsedPanel(attrs)) return 'aria-hidden';
  const style = attrs.get('style');
  if (style !== undefined && HIDDEN_STYLE.test(style) && !isCollapsedPanel(attrs)) return 'hidden-style';

  const cls = attrs.get('class');
  const id = attrs.get('id');
  if (cls !== undefined && isPinnedOverlay(cls)) return PINNED_OVERLAY;
  if (cls !== undefined) {
    const why = classFurniture(cls, inContent);
    if (why && !isDocumentationPart(name, cls, why)) return `class:${why}`;
  }
  // A long id is usually a heading's slug, unless its every word places an ad ("div-gpt-ad-1234-0").
  if (id !== undefined && MAYBE_FURNITURE.test(id) && (!isHeadingSlug(id) || isAdName(id))) {
    const why = idFurniture(id, inContent);
    if (why) return `id:${why}`;
  }
  if (inArticle && cls !== undefined && BYLINE_HINT.test(cls)) {
    const why = bylineWord(cls);
    if (why) return `class:${why}`;
  }
  if (inArticle && cls !== undefined && name !== 'a' && CTA_HINT.test(cls) && isCallToActionBox(cls)) return 'class:cta';
  return undefined;
}

/**
 * An element that utility classes pin over the whole viewport or along its top or bottom edge
 * ("fixed inset-0", "fixed top-0", "fixed bottom-0"): a layer drawn over the page (a modal, a
 * drawer, a cart or menu flyout, a size chart, a sticky bar), not the page's own text, which
 * scrolls with the page. Inside a landmark too, unlike a "modal" class word: the classes say how
 * the layer is drawn, not what someone named it. An app laid out in one pinned viewport is the
 * page itself: a layer that holds the page's only title, or more prose than was kept, is exempted
 * as a misfire (see mayMisfire and ContentFilter.finish).
 */
export const PINNED_OVERLAY = 'pinned-overlay';
const PINNED_EDGES: ReadonlySet<string> = new Set(['inset-0', 'top-0', 'bottom-0']);

export function isPinnedOverlay(cls: string): boolean {
  if (!holds(cls, 'fixed') || !holds(cls, '-0')) return false;
  const names = cls.split(/\s+/);
  return names.includes('fixed') && names.some((n) => PINNED_EDGES.has(n)) && !names.some(inFlowFromBreakpoint);
}

/**
 * "md:static", "lg:relative": from that screen width on, the element is laid out in the page's
 * flow (a small screen's drawer that is a column of the page on a desktop, which a page read as
 * a desktop shows).
 */
function inFlowFromBreakpoint(name: string): boolean {
  const colon = name.lastIndexOf(':');
  if (colon <= 0) return false;
  const v = name.slice(colon + 1);
  return v === 'static' || v === 'relative';
}

/**
 * A schema.org interaction counter ("7 Likes", "1,204 views"): a tally of readers' clicks beside a
 * post, which its markup itself says is a statistic, not the post's text.
 */
function isInteractionCounter(attrs: AttrSource): boolean {
  return attrs.get('itemprop') === 'interactionStatistic';
}

/**
 * Furniture that never holds a page's content, whatever the markup around it: form controls
 * (a size picker's options, a button's label), navigation, footers, dialogs and menus, by tag or
 * role. When the other rules left (nearly) nothing and are switched off (see
 * ContentOptions.lenient), these still apply: only the guesses (class words, headers, hidden
 * markers) can misfire on content.
 */
const CERTAIN_TAGS: ReadonlySet<string> = new Set(['button', 'select', 'option', 'input', 'textarea', 'nav', 'footer', 'dialog', 'menu']);
const CERTAIN_ROLES: ReadonlySet<string> = new Set(['navigation', 'contentinfo', 'menu', 'menubar', 'dialog', 'alertdialog']);

export function certainBoilerplateReason(name: string, attrs: AttrSource): string | undefined {
  if (CERTAIN_TAGS.has(name)) return `tag:${name}`;
  if (attrs.size === 0) return undefined;
  if (isInteractionCounter(attrs)) return 'interaction-counter';
  const role = attrs.get('role');
  if (role === undefined) return undefined;
  const r = role.trim().toLowerCase();
  return CERTAIN_ROLES.has(r) ? `role:${r}` : undefined;
}

/**
 * Whether a drop for this reason can be a misfire on content: the class/id vocabulary guesses (a
 * "widget" or "header" word on a content wrapper), a wrapper hidden until scripts show it
 * (see isScriptHidden), and a layer pinned over the viewport (see isPinnedOverlay); tags, roles,
 * screen-reader-only markers and consent names mean what they say.
 */
export function mayMisfire(reason: string): boolean {
  if (isScriptHidden(reason) || reason === PINNED_OVERLAY) return true;
  const colon = reason.indexOf(':');
  if (colon < 0) return false;
  const kind = reason.slice(0, colon);
  const word = reason.slice(colon + 1);
  return (kind === 'class' || kind === 'id') && (ALWAYS_WORDS.has(word) || OUTSIDE_WORDS.has(word));
}

/**
 * Whether a drop for this reason is only that the element is hidden now, in a way a script undoes
 * (an attribute, ARIA, an inline style, or a class scripts take off): an app that keeps a shop's
 * product hidden until it has checked access, a block deferred until scripts run, a page that
 * fades in. Such a wrapper is a misfire only when it holds the page's title and the rules left the
 * page (nearly) empty without it (see ContentFilter.finish): a popup hidden until it is called
 * holds prose too, but not the <h1>; a copy of the story for crawlers sits beside the story.
 */
export function isScriptHidden(reason: string): boolean {
  if (reason === 'hidden' || reason === 'aria-hidden' || reason === 'hidden-style') return true;
  return reason.startsWith('class:') && FOLDING_CLASSES.has(reason.slice(6));
}

/**
 * React's streaming server rendering sends each suspended part of the page late, as
 * `<div hidden id="S:n">` (n in hex: "S:2e"), and a script moves it into place: that is the
 * page's content, hidden only until scripts run.
 */
function isStreamedBoundary(attrs: AttrSource): boolean {
  const id = attrs.get('id');
  return id !== undefined && id.length > 2 && id.charCodeAt(0) === 83 && id.charCodeAt(1) === 58 && /^S:[0-9a-f]+$/.test(id);
}

/**
 * A collapsed accordion or tab panel is hidden only until a reader opens it: its text is the
 * page's content, not furniture.
 */
function isCollapsedPanel(attrs: AttrSource): boolean {
  const role = attrs.get('role');
  if (role === 'tabpanel' || role === 'region') return true;
  const names = `${attrs.get('class') ?? ''} ${attrs.get('id') ?? ''}`;
  return PANEL_NAME.test(names);
}

/**
 * An id of more words than this is a heading's slug ("new-features-related-to-type-hints", "how-
 * do-i-share-global-variables"): the anchor of a section of the document's outline, which says
 * what the section is about, not what kind of block it is.
 */
const SLUG_WORDS = 4;

function isHeadingSlug(id: string): boolean {
  let words = 1;
  for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) === 45 || id.charCodeAt(i) === 95) words++;
  return words > SLUG_WORDS;
}

function isSearchForm(attrs: AttrSource): boolean {
  if (attrs.get('role') === 'search') return true;
  const hay = `${attrs.get('class') ?? ''} ${attrs.get('id') ?? ''} ${attrs.get('action') ?? ''} ${attrs.get('name') ?? ''}`.toLowerCase();
  return hay.includes('search');
}

// A class list repeats on hundreds of a page's elements, so its verdict (in and out of content)
// is kept whether MAYBE_FURNITURE passes it or not: one lookup instead of that pattern each time.
const classVerdicts = [false, true].map((inContent) =>
  boundedMemo((cls) => (MAYBE_FURNITURE.test(cls) ? findFurniture(cls, inContent, true) : undefined)),
);
const idVerdicts = [false, true].map((inContent) => boundedMemo((id) => findFurniture(id, inContent, false)));

/** Returns the furniture word found in a class list, if any. */
function classFurniture(cls: string, inContent: boolean): string | undefined {
  return classVerdicts[inContent ? 1 : 0]!(cls);
}

/** Returns the furniture word found in an id, if any. */
function idFurniture(id: string, inContent: boolean): string | undefined {
  return idVerdicts[inContent ? 1 : 0]!(id);
}

function findFurniture(value: string, inContent: boolean, isClassList: boolean): string | undefined {
  const lower = value.toLowerCase();
  for (const s of CONSENT_SUBSTRINGS) if (lower.includes(s)) return s;
  for (const s of REVIEW_WIDGET_SUBSTRINGS) if (lower.includes(s)) return s;
  const names = isClassList ? lower.split(/\s+/) : [lower];
  if (isClassList) for (const n of names) if (HIDDEN_CLASSES.has(n) && !(FOLDING_CLASSES.has(n) && FOLDED_NAME.test(value))) return n;
  const split = names.map((n) => n.split(/[^a-z0-9]+/));
  // One name for the content itself ("article-body pagination-first") outweighs the others. But
  // "text" after a furniture word in one name is that furniture's ("footer-text", "share-text":
  // the footer's small print, the share bar's label), where "legal-content" is a terms page's;
  // and a content word right before a furniture word may name whose furniture it is (see ownsFurniture).
  const furnitureWord = (p: string, prev: string) => (ALWAYS_WORDS.has(p) || (!inContent && OUTSIDE_WORDS.has(p))) && !LAYOUT_PREFIXES.has(prev);
  const named = (parts: string[]) => {
    // An author panel's name is the panel's, whatever content word it also holds: the one it
    // belongs to ("blog-post__author-bio", "post-page-author-card") or its own ("author-bio-text").
    if (parts.some(isAuthorPanelAt)) return false;
    let furniture = false;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (CONTENT_WORDS.has(p) && !(furniture && p === 'text') && !ownsFurniture(p, parts[i + 1])) return true;
      if (furnitureWord(p, i > 0 ? parts[i - 1]! : '')) furniture = true;
    }
    return false;
  };
  if (split.some(named)) return undefined;
  for (const parts of split) {
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      // "breaking-news" names the ticker only when it leads the name: "row-breaking-news" is the
      // section a breaking story itself sits in. "author" alone may be a byline; "author-box" and
      // "about-author" are the panel (see isAuthorPanelAt). Some names are spelled in two words
      // (see SPLIT_WORDS).
      const furniture =
        ALWAYS_WORDS.has(p) || (i + 1 < parts.length && SPLIT_WORDS.has(p + parts[i + 1])) || endsInAuthorPanel(p) || (!inContent && OUTSIDE_WORDS.has(p)) || (i === 0 && p === 'breaking' && parts[1] === 'news') || isAuthorPanelAt(p, i, parts);
      if (!furniture || isSocialEmbed(parts, i)) continue;
      const prev = i > 0 ? parts[i - 1]! : '';
      // A name that opens with a layout word is a state of the wrapper, however many words follow
      // ("hide-read-more-ad": the wrapper hides its "read more" ad; "no-sidebar-ads").
      if (LAYOUT_PREFIXES.has(prev) || (i > 0 && LAYOUT_PREFIXES.has(parts[0]!))) continue;
      if (p === 'nav' && i + 1 < parts.length && NAV_CONTROLS.has(parts[i + 1]!)) continue;
      // "header" after another word names a part's header (a product's, a card's, an accordion's:
      // "pdp-header", "card-header"), not the site's, unless that word places it in the page.
      if (p === 'header' && i > 0 && !SITE_PREFIXES.has(prev)) continue;
      return p;
    }
  }
  return undefined;
}

/**
 * What follows "author" in the name of the panel about the writer under a story ("author-box",
 * "author-bio", "author-card", "author-description", "author__about", "author-details",
 * "author-section"), as opposed to the byline's parts ("author-name", "author-link", and the
 * "author-wrapper" around them).
 */
const AUTHOR_PANEL_NEXT: ReadonlySet<string> = new Set(['box', 'bio', 'bios', 'card', 'description', 'desc', 'about', 'detail', 'details', 'block', 'section', 'profile']);

/** Whether parts[i] is the "author" of an author panel's name: "author-card", "about-author", "about-the-author". */
function isAuthorPanelAt(p: string, i: number, parts: string[]): boolean {
  if (p !== 'author') return false;
  if (AUTHOR_PANEL_NEXT.has(parts[i + 1] ?? '')) return true;
  const prev = i > 0 ? parts[i - 1] : undefined;
  return prev === 'about' || (prev === 'the' && i > 1 && parts[i - 2] === 'about');
}

/**
 * Whether a content word names whose furniture the next word is ("post-signature", "entry-share",
 * "entry-footer": the post's signature, the entry's share bar, its footer of tags and edit links).
 * Not "text": "text-share" is the text itself, offered for sharing.
 */
function ownsFurniture(word: string, next: string | undefined): boolean {
  return next !== undefined && word !== 'text' && ALWAYS_WORDS.has(next);
}

/**
 * Whether a class word ends in an author panel's name after a prefix of its own: forum software
 * names the panel's parts after their place ("messageUserInfo", "extraUserInfo").
 */
function endsInAuthorPanel(word: string): boolean {
  for (const w of AUTHOR_PANEL_WORDS) if (word.length > w.length && word.endsWith(w)) return true;
  return false;
}

/**
 * "social-embed", "social-media-embed": a post from a social network quoted in the story (a
 * tweet, which its text cites), not a share bar.
 */
function isSocialEmbed(parts: string[], i: number): boolean {
  if (parts[i] !== 'social') return false;
  const next = parts[i + 1] === 'media' ? parts[i + 2] : parts[i + 1];
  return next === 'embed';
}

/**
 * True when main-content cleaning left (nearly) nothing of a page that has text, so the caller
 * should fall back to the whole page rather than return an empty document.
 */
export function isNearlyEmpty(keptText: number, pageText: number): boolean {
  if (pageText <= 0) return false;
  return keptText < 0.1 * pageText && keptText < 250;
}
