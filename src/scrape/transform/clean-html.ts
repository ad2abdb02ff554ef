/**
 * The content half of the streaming pass: re-serializes the document as clean HTML while it is
 * parsed, dropping non-content and (optionally) boilerplate subtrees, resolving URLs, and
 * recording where main/article landmarks start and end in the output so the page can be
 * narrowed afterwards without a DOM.
 */
import {
  type AttrSource,
  VOID_ELEMENTS,
  cleanText,
  codeAt,
  decodeAttr,
  escapeAttr,
  escapeText,
  requoteRaw,
} from './html-util.js';
import { imgSource, bestSrcsetCandidate } from './images.js';
import {
  type Candidate,
  NON_CONTENT_TAGS,
  boilerplateReason,
  certainBoilerplateReason,
  candidateText,
  chooseLandmark,
  isRailHeading,
  isScriptHidden,
  PINNED_OVERLAY,
  mayMisfire,
  isNearlyEmpty,
  landmarkKind,
} from './main-content.js';
import { type BlockNode, blockHint, bodyOutside, introBefore, selectContent, withoutPruned } from './content-score.js';
import { codeLanguage } from './markdown.js';
import { type MdMark, type MdOpen, MarkdownWriter, countWords, withoutRepeatedImages, withoutRepeatedText } from './markdown-writer.js';
import type { AttrView } from './stream.js';
import { type Resolver, isHttp } from './url.js';
import { boundedMemo } from '../../memo.js';

export interface ContentOptions {
  onlyMainContent: boolean;
  /**
   * 'markdown' writes markdown as the page streams past; 'html' writes cleaned HTML that keeps
   * every attribute except event handlers, for the `html` format.
   */
  output: 'markdown' | 'html';
  /** Start offsets of elements matched by includeTags; when set, only those subtrees are kept. */
  includeStarts?: ReadonlySet<number>;
  /** Start offsets of elements matched by excludeTags. */
  excludeStarts?: ReadonlySet<number>;
  /**
   * Main-content mode without the tag/class boilerplate rules: for pages where those rules
   * removed nearly everything (content inside a mis-nested header, say), so only link pruning
   * and content scoring decide. `<noscript>` is read too: some sites serve their content only there.
   */
  lenient?: boolean;
  /**
   * Main-content mode that reads `<noscript>` with the rules on: for pages whose content is only
   * there (a forum's view for crawlers), tried before turning the rules off (see lenient).
   */
  noscript?: boolean;
  /** Start offsets of elements the boilerplate rules must not drop (see ContentResult.misfire). */
  keepStarts?: ReadonlySet<number>;
  /** Elements left out with their subtree, as excludeTags' are (blockAds: see ad-blocks.ts). */
  dropElement?: (name: string, attrs: AttrView) => boolean;
}

export interface ContentResult {
  /** The kept content, as markdown or HTML (see ContentOptions.output). */
  content: string;
  /** Length of the text kept in `html`. */
  keptText: number;
  /** Length of the text the page would keep without boilerplate removal. */
  baseText: number;
  /** Main-content cleaning left almost nothing of a page that has text. */
  nearlyEmpty: boolean;
  /**
   * Start offset of a subtree the boilerplate rules dropped although it holds more prose than
   * everything kept: the rules misfired on the page's content (a page builder's "widget"
   * wrapper, say), and the page should be cleaned again with that subtree exempt.
   */
  misfire?: number;
}

/**
 * schema.org types by which a page declares itself a discussion (a forum thread, a question and
 * its answers), in its microdata or its JSON-LD: there the replies are the page's content
 * however the template names them ("comment"), not readers' comments under an article.
 */
const DISCUSSION_TYPE = /DiscussionForumPosting|QAPage/;
/**
 * The types of a story (schema.org's Article and its news, blog and report kinds): a page that
 * declares one in its microdata or JSON-LD, or as its og:type, is an article however its markup
 * is laid out (see selectContent's landing pages).
 */
const STORY_TYPE = /\b(?:News|Tech|Scholarly|Analysis|Opinion|Reportage)?Article\b|BlogPosting/;

/** Blocks that may be dropped for being mostly links (see pruneLinkBlock). */
const LINK_BLOCKS: ReadonlySet<string> = new Set(['ul', 'ol', 'dl', 'div', 'section', 'table', 'menu']);
// A block is pruned when over half its text is link text and under this much is not: chosen on
// the aggregate of both datasets (WCXB word F1 and Scrapinghub shingle F1), not page by page.
const LINK_DENSITY_MAX = 0.5;
const LINK_BLOCK_MIN_PROSE = 200;
/** A paragraph at least this long with at least this share of link text is a teaser (see pruneTeaserParagraph). */
const TEASER_MIN_TEXT = 30;
/** Where a paragraph is an item's own text, not a paragraph of the flow: a list's item, a definition, a table's cell. */
const ITEM_PARTS: ReadonlySet<string> = new Set(['li', 'td', 'th', 'dd']);
const TEASER_LINK_SHARE = 0.8;
/** ... and this much text outside links before it in its parent (it stands between paragraphs). */
const TEASER_CONTEXT = 100;
/** Text runs at least this long, with sentence punctuation and outside links, count as prose. */
const PROSE_CHUNK = 25;
/**
 * When one subtree dropped by the boilerplate rules holds more prose than everything kept (and
 * at least this much), the rules misfired on the page's content (a builder's "widget" wrapper,
 * say): the page is cleaned again with that subtree exempt.
 */
const MISFIRE_MIN_PROSE = 500;
/**
 * A site's footer holds prose of its own (how to reach customer service, what the site is, its
 * copyright), which can outweigh a short article: a subtree named a footer counts as a misfire
 * only when it holds this many times the prose kept (the page's content in a "page-footer"
 * wrapper holds far more).
 */
const FOOTER_MISFIRE_FACTOR = 2;
/**
 * A form with this many text-entry fields, little prose and little text is a contact, sign-up or
 * login form: its labels and hints are not content. (Some frameworks wrap the whole page in one
 * form; that one holds the page's text and stays.)
 */
const FORM_MIN_FIELDS = 2;
const FORM_MAX_PROSE = 200;
const FORM_MAX_TEXT = 1000;
const LABEL_MAX_TEXT = 200;
/**
 * A link with at least this much text is an item title or teaser (a card in a listing, a post
 * in a feed), not navigation: it neither makes its block link-dense nor votes against it.
 */
const LONG_LINK_TEXT = 100;
/**
 * A series of items (see repeatedItems): at least this many siblings of one shape, this share of
 * them with an image, a heading or unlinked text, this much text each on average.
 */
const ITEM_MIN = 3;
const ITEM_RICH_SHARE = 0.5;
const ITEM_MIN_TEXT = 20;
/** A list of bare links is a series of items only this long, and this much of its text linked (see repeatedItems). */
const LINK_LIST_MIN = 15;
const LINK_LIST_SHARE = 0.8;
const LINK_LIST_TEXT = 200;
/**
 * Class words of menus: their columns and entries repeat like items (and are only seen when the
 * boilerplate rules are off, see ContentOptions.lenient, or inside a landmark).
 */
const MENU_SHAPE = /menu|nav|dropdown/i;
// "Loading reviews..." names what was to come; a word or two after "loading" only with the
// ellipsis ("Loading dock" is a heading like any other).
const LOADING = /^\s*loading(?:\s*(?:\.{1,3}|…)|(?:\s+[\p{L}_-]+){1,2}\s*(?:\.{3}|…))?\s*$/iu;
const LOADING_MAX = 40;
/** A cheap test first, on the first letter: most short texts are not placeholders. */
function mayBeLoading(text: string): boolean {
  const len = text.length;
  for (let i = 0; i < len; i++) {
    const c = codeAt(text, i);
    if (c > 127) return true;
    if (c !== 32 && (c < 9 || c > 13)) return (c | 32) === 108;
  }
  return false;
}
/**
 * The label an ad slot shows above or inside it ("Advertisement", "Anzeige", "Publicidade"): a
 * block holding only that word is the slot's, left behind when its script-filled ad is not.
 */
const AD_LABEL = /^[\s\p{P}\p{S}]*(?:advertisements?|adverts?|ads?|sponsored|publicidade|publicidad|publicit[ée]|pubblicit[àa]|anzeige|werbung|advertentie|reklama|реклама|iklan|광고|広告)[\s\p{P}\p{S}]*$/iu;
/**
 * A line of a forum poster's panel: how many posts, when they joined ("Posts: 1,077", "Join Date:
 * Aug 2008", "Registered: 2024-01-27"), whether they are on line now ("Offline"), alone in its
 * block: the poster's record, not the post.
 * Only a count or a date after the name: "Registered: trademark of ..." is a sentence.
 */
const MEMBER_STAT = /^\s*(?:online|offline|(?:posts|messages|reaction score)\s*:\s*[\d.,]+k?|(?:join(?:ed)?(?: date)?|registered|member since)\s*:\s*(?:\d|[a-z]{3,9}\.? \d)[^:]*)\s*$/i;
/**
 * A heading that only counts the replies below it ("6 Answers", "12 Comments"): a tally the
 * software prints over the posts, not a title of the page's text.
 */
const COUNT_HEADING = /^\s*\d[\d,.]*\s+(?:answers?|repl(?:y|ies)|comments?|responses?)\s*$/i;
/**
 * A style sheet's block of rules for a range of screen widths ("@media (min-width: 1200px) {
 * .hidden-x { display: none } }"), whose rules may hide classes there: a site laid out once per
 * screen size (a site builder's variants) marks each copy with the classes that hide it elsewhere.
 */
const MEDIA_HIDE = /@media\s*(?:(?:only\s+)?screen\s+and\s*)?\(\s*min-width\s*:\s*(\d+(?:\.\d+)?)px\s*\)(?:\s*and\s*\(\s*max-width\s*:\s*(\d+(?:\.\d+)?)px\s*\))?\s*\{/g;
/** A rule inside such a block that hides bare classes: ".a, .b { ... display: none". */
const CLASS_HIDE = /(?:^|[{};])\s*((?:\.[\w-]+\s*,\s*)*\.[\w-]+)\s*\{[^{}]*?display\s*:\s*none/g;
/**
 * A style sheet's block of rules for screens narrower than some width ("@media (max-width:
 * 991px) {"), and a selector list of classes alone (".a", ".a.b"), as MEDIA_HIDE and CLASS_HIDE.
 */
const MEDIA_MAX = /^@media\s*(?:(?:only\s+)?screen\s+and\s*)?\(\s*max-width\s*:\s*(\d+(?:\.\d+)?)px\s*\)$/;
const CLASS_SELECTORS = /^(?:\.[\w-]+)+(?:\s*,\s*(?:\.[\w-]+)+)*$/;
const CLASS_NAME = /\.([\w-]+)/g;
const CSS_COMMENT = /\/\*[\s\S]*?\*\//g;
const BRACE = /[{}]/g;
const DISPLAY = /(?:^|;)\s*display\s*:\s*([\w-]+)/g;
/** The screen width a page is read at: a desktop's. */
const DESKTOP_WIDTH = 1280;
/** Style sheets longer than this are not read for such rules (a site's whole framework inlined). */
const STYLE_MAX = 1 << 20;
/** A counter's parts sit in elements of their own, with the markup's whitespace between them. */
const LABEL_MAX = 64;
/** Blocks that stand alone as a slot's label or a gallery's control (see isLabel). */
const LABEL_BLOCKS: ReadonlySet<string> = new Set(['div', 'p', 'center', 'section', 'aside', 'figure', 'header']);
/**
 * A paragraph that asks the reader to subscribe or follow ("Subscribe to our newsletter", "Get
 * the magazine delivered", "Follow us on Twitter", "Sign up now ...", "Be sure to sign up below",
 * "Join our mailing list") is the publisher's pitch set after or into the story, not its text.
 * Only its opening is read, and only a short paragraph qualifies: a pitch is a line or two, a
 * paragraph of the story that starts so goes on. A newsletter's sign-up may come
 * after a line of lead-in ("There's plenty more where that came from. Sign up for our newsletter").
 */
const PITCH = /^\s*(?:click here to |please |be sure to )?(?:subscribe (?:to|for|now)\b|sign up (?:for|to|now|today|below|here)\b|join (?:our|my) (?:mailing list|newsletter|email list)\b|get\b.{0,60}?\b(?:delivered|(?:in|to) your inbox)|follow\b.{0,60}?\bon (?:twitter|facebook|instagram|youtube|linkedin|tiktok|social))|\b(?:sign up|subscribe) (?:for|to)\b.{0,50}?\bnewsletters?\b/i;
/**
 * A paragraph that credits the story's reporters and editors ("Reporting by ...; Editing by
 * ...", "Jane Doe contributed to this report.") is its byline, set at its end. Only the
 * paragraph's opening is read (see PITCH_HEAD): a longer credit is missed, not guessed at.
 */
const CREDIT = /^[\s(*_]*(?:(?:additional |with )?reporting by|editing by|writing by)\b|\bcontributed (?:to this (?:report|story)|reporting)\b/i;
/**
 * A short paragraph telling how to reach or follow the author ("Jane Doe may be reached at ...",
 * "Email Jane at ... or follow her on Twitter") is the author's box without its class name. An
 * email address alone does not tell it: a page's own instructions say "email us at".
 */
const CONTACT = /\b(?:can|may) be reached at\b|\bfollow (?:him|her|them|me)\b.{0,20}?(?:\bon (?:twitter|facebook|instagram|linkedin)\b|@\w)/i;
/** How much of a paragraph's opening PITCH reads, and the longest pitch. */
const PITCH_HEAD = 96;
const PITCH_MAX = 320;
/** The longest italic line under a picture taken for its caption (see isItalicCaption). */
const ITALIC_CAPTION_MAX = 200;
/** A picture's wrapper by its class words (see isWrappedCaption), and the longest caption in one. */
const IMAGE_WRAP = /(?:^|[^a-z])(?:image|img|photo|picture|figure)(?:[-_]?(?:wrap(?:per)?|container|box|block|holder|frame))?(?![a-z])/i;
const WRAPPED_CAPTION_MAX = 300;
/**
 * Class words of a slider and its slides ("swiper-slide", "carousel-item", "thumbnails", the slider
 * libraries' own names): see the slides in close. Not "gallery": a gallery's wrapper also holds its
 * main picture, whose alt text is written once (see withoutRepeatedImages).
 */
const SLIDER_CLASS = /slide|carousel|swiper|slick|flickity|owl-item|thumb/i;
/**
 * A gallery's or slider's controls, when they are text: its counter ("Image 1 of 8", "Photo 3 / 12")
 * and its buttons built from plain elements ("Caption", "Close", "Next"), a collapsed text's
 * toggle ("Read more", "Show less") and a comment counter ("12 Comments", the button that opens
 * them), alone in a div or a paragraph and not a link. A heading, a
 * list's term or a table's cell with such a word is the text's ("Next" steps, a "close" event, a
 * column of closing prices).
 */
const SLIDE_CONTROL = /^\s*(?:(?:image|photo|picture|slide|foto|bild)\s*\d+\s*(?:of|\/|de|von|di|sur)\s*\/?\s*\d+|(?:show |hide |toggle )?captions?|close|enlarge|expand|full ?screen|prev(?:ious)?|next|(?:read|show|see|load) (?:more|less)|\d*\s*comments?)\s*$/i;
/**
 * Inline elements that lay out side by side as separate boxes (see ContentFilter.inlineGap).
 * Not emphasis (b, strong, i, em): it marks part of a word as often as a word ("<b>Glean</b>er").
 */
const GAP_INLINE: ReadonlySet<string> = new Set(['span', 'font', 'a', 'small', 'time']);
/** Inline code: its highlighted tokens sit side by side exactly as the code has them. */
const CODE_INLINE: ReadonlySet<string> = new Set(['code', 'kbd', 'samp']);
const LETTER = /\p{L}/u;
/**
 * A link's whole text that only invites a click (see isCallToAction), and the longest such text.
 * Generic phrases only: what a link says about its own target ("Pricing", "Contact us") stays.
 * A skip link ("Skip to content", "Skip listing") jumps a keyboard user past a block: a control.
 */
const CTA_MAX = 40;
const CTA = /^\s*(?:read (?:more|the full (?:article|story|post|review)|full (?:article|story|post|review))|continue reading|learn more|find out more|see (?:more|all|details)|view (?:more|all|details)|show (?:more|all)|load more|shop (?:now|all)|buy now|apply now|discover more|explore more|more|watch (?:the )?demo|start (?:for free|(?:a |your )?free trial)|read the (?:full )?case study|skip (?:to\b.{1,30}|listing|carousel))\s*(?:[.…›»→>]+)?\s*$/i;

/** A letter, of any script; ASCII without the regular expression, which runs on every text. */
function isLetter(c: number): boolean {
  if (c < 128) return ((c | 32) >= 97 && (c | 32) <= 122);
  return LETTER.test(String.fromCharCode(c));
}
/** How far above a post's <article> its list item may sit: the item may wrap it in one layout block. */
const LISTED_ARTICLE_DEPTH = 2;
/** A notice that the page needs scripts: to enable or turn them on, or that they are off or required. */
const JS_NOTICE = /\b(?:enable|enabling|turn on|activate|allow)\s+(?:your\s+)?javascript\b|\bjavascript\s+(?:is\s+|must\s+be\s+)?(?:required|disabled|enabled|turned off|switched off)\b|\brequires?\s+javascript\b/i;
/** Longest <noscript> text taken for such a notice; one with more holds a page of its own. */
const JS_NOTICE_MAX = 200;
/**
 * A card's title names a thing in a few words ("Roc Loc 5 LED Light"); a word or two beside a
 * picture's link is its button ("Start course", "Shop") or a label.
 */
const CARD_TITLE_MIN_WORDS = 3;
/**
 * A line of an item that is only a link or two (a book's author, a post's date, its tags, a
 * rating's count) is at most this long; a longer one is a list of links of its own.
 */
const ITEM_LINE_MAX = 50;
/** ... unless it is a row of tags: at least this many links, this long on average, this long in all. */
const TAG_LIST_MIN = 3;
const TAG_MAX = 20;
const TAG_LIST_MAX = 300;
/**
 * ... and one whose link opens with a verb is the item's button ("Add to cart", "Apply now",
 * "Get started", "View map"), not one of its facts.
 */
const ITEM_ACTION = /^\s*(?:add to|apply|buy|book|get|order|shop|start|view|visit|read|see|learn|explore|discover|download|sign|join|register|subscribe|contact|request|try|watch|compare|select|choose|more|details)\b/i;
/** Tags items are built from; paragraphs (an article's body is a run of them) are not items. */
const ITEM_TAGS: ReadonlySet<string> = new Set(['li', 'article', 'div', 'section', 'tr', 'figure', 'dl']);

/** Inline wrappers that carry nothing markdown can express; their children are kept. */
const UNWRAP: ReadonlySet<string> = new Set(['span', 'font']);

/**
 * Block-level elements: whitespace right after their tags is not rendered by browsers, and the
 * converter would otherwise keep it as stray leading spaces.
 */
const BLOCK: ReadonlySet<string> = new Set([
  'html', 'body', 'main', 'article', 'section', 'header', 'footer', 'aside', 'nav', 'div', 'p', 'blockquote',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'hr', 'br', 'figure', 'figcaption', 'form', 'fieldset',
  'details', 'summary', 'address', 'center', 'hgroup', 'colgroup', 'col',
]);

const HEADINGS: ReadonlySet<string> = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);

/** Blocks that hold a collapsible section's text (see ContentFilter.open). */
const HIDDEN_SECTION_TAGS: ReadonlySet<string> = new Set(['div', 'section', 'p', 'ul', 'ol', 'dl', 'table']);

/**
 * A carousel's slide as slider libraries name it ("slide", "swiper-slide", "slick-slide",
 * "splide__slide"), and the copies of slides they clone to loop the carousel round.
 */
const SLIDE_CLASS = /(?:^|[\s_-])slide(?:$|\s)/;
const CLONED_SLIDE = /clone|duplicate/;

/** Whether an element is one of a carousel's own slides (not a clone of one): see ContentFilter.open. */
function isCarouselSlide(attrs: AttrSource): boolean {
  const cls = attrs.get('class');
  return cls !== undefined && SLIDE_CLASS.test(cls) && !CLONED_SLIDE.test(cls);
}

/** Whether a boilerplate reason is that the element is hidden (an attribute, ARIA or a style), not what it is. */
function isHiddenReason(why: string | undefined): boolean {
  return why === 'hidden' || why === 'aria-hidden' || why === 'hidden-style';
}

function isHeadingTag(name: string): boolean {
  return name === 'h1' || HEADINGS.has(name);
}

// Which of the sets above a tag belongs to, as bits looked up once per element: the sets are
// consulted a dozen times for each of a page's elements.
const IS_BLOCK = 1;
const IS_VOID = 2;
const IS_GAP_INLINE = 4;
const IS_CODE_INLINE = 8;
const IS_NON_CONTENT = 16;
const IS_UNWRAP = 32;
const IS_SUBHEADING = 64;
const IS_LINK_BLOCK = 128;
const tagBits = new Map<string, number>();

function tagBitsOf(name: string): number {
  let bits = tagBits.get(name);
  if (bits === undefined) {
    bits =
      (BLOCK.has(name) ? IS_BLOCK : 0) |
      (VOID_ELEMENTS.has(name) ? IS_VOID : 0) |
      (GAP_INLINE.has(name) ? IS_GAP_INLINE : 0) |
      (CODE_INLINE.has(name) ? IS_CODE_INLINE : 0) |
      (NON_CONTENT_TAGS.has(name) ? IS_NON_CONTENT : 0) |
      (UNWRAP.has(name) ? IS_UNWRAP : 0) |
      (HEADINGS.has(name) ? IS_SUBHEADING : 0) |
      (LINK_BLOCKS.has(name) ? IS_LINK_BLOCK : 0);
    // Custom elements have names of their own; the table stays bounded on hostile pages.
    if (tagBits.size < 1024) tagBits.set(name, bits);
  }
  return bits;
}

const SCRIPT_URL = /^[\s\p{Cc}]*(?:javascript|vbscript):/iu;

function isHtmlSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 12;
}

/** A position in the output, with the counters to restore when it is cut back to. */
interface Mark {
  startChunk: number;
  startText: number;
  startLink: number;
  startH1: number;
  /** Block nodes and landmark candidates recorded before it. */
  startNode: number;
  startCandidate: number;
  startDoomedText: number;
  startDoomedLink: number;
  md: MdMark;
}

/** Per-open-element state; restored when the element closes. Frames are reused by depth. */
class Frame {
  name = '';
  /** The tag's bits (see tagBitsOf). */
  bits = 0;
  emitted = false;
  candidate: Candidate | undefined = undefined;
  langSet = false;
  prevLang: string | undefined = undefined;
  navLike = false;
  landmark = false;
  /** An <article> landmark. */
  article = false;
  link = false;
  /** An `<a>` outside dropped non-content, emitted or not. */
  anchor = false;
  /** For a link: the first block node opened inside it, and its enclosing block's link text then. */
  linkNodeStart = 0;
  linkOuterNode = -1;
  linkOuterAtOpen = 0;
  /** A block a rail heading introduces (see isRailHeading): dropped when it closes. */
  rail = false;
  /** A link hidden from screen readers (see open). */
  hiddenLink = false;
  /** A <noscript> being read (see ContentOptions.lenient and noscript). */
  noscript = false;
  /** A block whose class names a caption or credit (see isCaptionName): dropped when it closes without an image. */
  caption = false;
  /** A span right after a picture (see isImageCaption), and how many pictures had been kept when it (or a link) opened. */
  spanCaption = false;
  startImages = 0;
  /** A list's item or a block named a slider's part (see SLIDER_CLASS): a slide when it holds only pictures. */
  slide = false;
  /** An em or i (see emText); a block that opens right after a picture, and the italic text kept when it opened (see isItalicCaption). */
  em = false;
  afterImage = false;
  /** A block whose class names a picture's wrapper (see IMAGE_WRAP). */
  imageWrap = false;
  /** The block the picture right before it sits in (see isWrappedCaption). */
  imageBlock = -1;
  startEm = 0;
  /** Links opened before it (see isTagList). */
  startLinks = 0;
  /** The markdown writer's state when this element opened, to restore if it is removed. */
  readonly md: MdMark = {
    sep: 0,
    sepPrefix: '',
    space: false,
    lineStart: true,
    fresh: 0,
    flushed: 0,
    cells: 0,
    rows: 0,
    rowOpen: false,
    heading: '',
  };
  startChunk = 0;
  startText = 0;
  startLink = 0;
  startH1 = 0;
  startProse = 0;
  startFields = 0;
  startDoomedText = 0;
  startDoomedLink = 0;
  startNode = 0;
  startCandidate = 0;
  node = -1;

  reset(name: string, bits: number): this {
    this.name = name;
    this.bits = bits;
    this.emitted = false;
    this.candidate = undefined;
    this.langSet = false;
    this.prevLang = undefined;
    this.navLike = false;
    this.landmark = false;
    this.article = false;
    this.link = false;
    this.anchor = false;
    this.rail = false;
    this.hiddenLink = false;
    this.noscript = false;
    this.caption = false;
    this.slide = false;
    this.spanCaption = false;
    this.em = false;
    this.afterImage = false;
    this.imageWrap = false;
    this.imageBlock = -1;
    this.node = -1;
    return this;
  }
}

// Serialized closing tags, built once per tag name rather than once per element.
const bareClose = new Map<string, string>();

function closeTagFor(name: string): string {
  let t = bareClose.get(name);
  if (t === undefined) {
    t = `</${name}>`;
    if (bareClose.size < 512) bareClose.set(name, t);
  }
  return t;
}

export class ContentFilter {
  private readonly out: string[] = [];
  private readonly stack: Frame[] = [];
  private readonly pool: Frame[] = [];
  private readonly candidates: Candidate[] = [];
  private landmarkSeq = 0;
  private readonly onlyMain: boolean;
  private readonly lenient: boolean;
  private readonly readNoscript: boolean;
  /** Writes markdown instead of HTML (see ContentOptions.output). */
  private readonly md: MarkdownWriter | undefined;
  private readonly includeStarts: ReadonlySet<number> | undefined;
  private readonly excludeStarts: ReadonlySet<number> | undefined;
  private readonly dropElement: ((name: string, attrs: AttrView) => boolean) | undefined;
  /** Stack index of the subtree being dropped as non-content / excluded / outside includes. */
  private hardDrop = -1;
  /** Inside a <style> or <script> (raw text; they never nest). */
  private inStyleOrScript = false;
  /** Inside a JSON-LD <script>, and whether the page declared itself a discussion (see DISCUSSION_TYPE). */
  private inJsonLd = false;
  private discussion = false;
  /** Whether the page declared itself a story (see STORY_TYPE). */
  private story = false;
  /** The text of the <style> being read, and the classes the page's style sheets hide at a desktop's width (see MEDIA_HIDE). */
  private styleText: string | undefined = undefined;
  private desktopHidden: Set<string> | undefined = undefined;
  /**
   * What the page's style sheets say of class selectors (".a.b" as "a.b"), for copies shown on
   * small screens only (see noteMobileOnly): hidden at every width, shown on a small screen, and
   * the classes of the rules that show elements at every width. The copies found, by first class.
   */
  private cssHidden: Set<string> | undefined = undefined;
  private cssShownSmall: Set<string> | undefined = undefined;
  private cssShown: string[][] = [];
  private mobileOnly: Map<string, string[][]> | undefined = undefined;
  /** Stack index of the subtree being dropped as boilerplate. */
  private softDrop = -1;
  private includeDepth = -1;
  private landmarks = 0;
  /** Open <article> landmarks (see boilerplateReason). */
  private articles = 0;
  /** The subtree being dropped is only hidden from screen readers (see open's img). */
  private softDropDecorative = false;
  /** The subtree being dropped is named a footer (see FOOTER_MISFIRE_FACTOR). */
  private softDropFooter = false;
  /** The subtree being dropped is only hidden until scripts run (see isScriptHidden), and whether the page's <h1> opened in it. */
  private softDropScriptHidden = false;
  private softDropH1 = false;
  /** The subtree being dropped is a layer pinned over the viewport (see isPinnedOverlay), and the first such layer that held an <h1>. */
  private softDropOverlay = false;
  private overlayH1Start = -1;
  private navLike = 0;
  private lang: string | undefined = undefined;
  private inPre = 0;
  private keptText = 0;
  private linkText = 0;
  private inLink = 0;
  private baseText = 0;
  private droppingNoscript = false;
  /** Open `<a>` elements, kept or dropped as boilerplate. */
  private anchors = 0;
  /** The text of the outermost open link, up to CTA_MAX and a chunk. */
  private linkWords = '';
  /** Open links hidden from screen readers and kept (see open). */
  private hiddenLinks = 0;
  /** Prose-like text (see PROSE_CHUNK) kept, in the boilerplate subtree being dropped, and in the largest one dropped. */
  private keptProse = 0;
  /** Text-entry fields seen (see FORM_MIN_FIELDS). */
  private fields = 0;
  private droppedProse = 0;
  /** Ids of the panels disclosure buttons open (see open). */
  private readonly disclosed = new Set<string>();
  /** Depth of the h2-h6 that closed last, until the next tag opens or closes (see open). */
  private headingClosed = -1;
  /** Text and link text of marked cards (see pruneLinkBlock), left out of their ancestors' density. */
  private doomedText = 0;
  private doomedLink = 0;
  private maxDroppedProse = 0;
  private softDropStart = -1;
  private maxDroppedStart = -1;
  /** The same for a subtree hidden until scripts run: a misfire only on a page left (nearly) empty (see finish). */
  private maxHiddenProse = 0;
  private maxHiddenStart = -1;
  private readonly keepStarts: ReadonlySet<number> | undefined;
  private h1Kept = 0;
  private h1Capture = -1;
  private h1Buf = '';
  /** The h2-h6 being read (its depth, text and where its text starts), for rail headings. */
  private headCapture = -1;
  private headBuf = '';
  private headStartText = 0;
  /** The paragraph being read (its depth) and the opening of its kept text (see PITCH). */
  private paraDepth = -1;
  /** Pictures kept so far, and the kept text when the last one came (see isImageCaption). */
  private images = 0;
  /** The target of the last link opened, and of the last link that held a picture (see pruneLinkBlock). */
  private linkHref: string | undefined;
  /** The last link opened is styled or marked as a button (see isItemLine). */
  private linkButton = false;
  /** Links opened so far, to count a block's links (see isTagList). */
  private linksOpened = 0;
  private pictureHref: string | undefined;
  /** Open em and i elements, and the text kept inside them (see isItalicCaption). */
  private inEm = 0;
  private emText = 0;
  private imageText = -1;
  private imageBlock = -1;
  private paraHead = '';
  private firstH1: string | undefined = undefined;
  private atBlockStart = true;
  /** A paragraph that names a rail, and where the output stood when it closed (see pruneTeaserParagraph). */
  private railLabel: (Mark & { endChunk: number; endText: number }) | undefined = undefined;
  /**
   * The text kept since the last block boundary that text followed, while it is at most
   * LABEL_MAX long: a short block's own text when it closes (see isLabel), less than its text
   * when it held blocks with text. A boundary only marks the tail stale, so blocks without text
   * (an ad slot's empty box under its label) leave the text before them in place.
   */
  private tail = '';
  private tailStale = false;
  /**
   * Inline elements side by side with no space between them in the source
   * ("<span>Drama</span><span>Thriller</span>"): 1 after an inline element closed, 2 once the
   * next one opened; and whether the text written last ended in a letter.
   */
  private inlineGap = 0;
  private lastWord = false;
  private inCode = 0;
  /** Block tree of the kept output, for choosing the content subtree (onlyMainContent only). */
  private readonly nodes: BlockNode[] = [];
  private blockTop = -1;

  constructor(
    opts: ContentOptions,
    private readonly resolve: Resolver,
  ) {
    this.onlyMain = opts.onlyMainContent;
    this.lenient = opts.lenient === true;
    this.readNoscript = this.lenient || opts.noscript === true;
    this.md = opts.output === 'markdown' ? new MarkdownWriter(this.out) : undefined;
    this.includeStarts = opts.includeStarts;
    this.keepStarts = opts.keepStarts;
    this.excludeStarts = opts.excludeStarts && opts.excludeStarts.size > 0 ? opts.excludeStarts : undefined;
    this.dropElement = opts.dropElement;
  }

  open(name: string, attrs: AttrView, start: number): void {
    if (name === 'style' || name === 'script') {
      this.inStyleOrScript = true;
      if (name === 'script' && this.onlyMain && attrs.get('type') === 'application/ld+json') this.inJsonLd = true;
    }
    if (name === 'style' && this.onlyMain && !this.lenient) this.styleText = '';
    if (this.onlyMain && (!this.discussion || !this.story) && attrs.size !== 0) {
      const t = attrs.get('itemtype');
      if (t !== undefined) {
        if (DISCUSSION_TYPE.test(t)) this.discussion = true;
        if (STORY_TYPE.test(t)) this.story = true;
      } else if (name === 'meta' && attrs.get('property') === 'og:type' && attrs.get('content') === 'article') this.story = true;
    }
    // Parts of a heading set apart in elements of their own (see isRailHeading) are told apart.
    if (this.headCapture >= 0 && this.headBuf.length < 200) this.headBuf += PART;
    const bits = tagBitsOf(name);
    const afterHeading = this.headingClosed === this.stack.length;
    this.headingClosed = -1;
    if (this.inlineGap !== 0) this.inlineGap = bits & IS_GAP_INLINE ? 2 : 0;
    if (bits & IS_CODE_INLINE) this.inCode++;
    const depth = this.stack.length;
    const frame = (this.pool[depth] ??= new Frame()).reset(name, bits);
    this.stack.push(frame);
    if (name === 'nav' || name === 'footer' || name === 'aside') {
      frame.navLike = true;
      this.navLike++;
    }
    if (this.hardDrop >= 0) return;
    if ((name === 'input' && isEntryField(attrs)) || name === 'textarea') this.fields++;
    if (
      name === 'h1' &&
      this.h1Capture < 0 &&
      this.firstH1 === undefined &&
      this.navLike === 0 &&
      this.includeStarts === undefined
    ) {
      this.h1Capture = depth;
      this.h1Buf = '';
    }
    if (this.includeStarts !== undefined && this.includeDepth < 0) {
      if (!this.includeStarts.has(start)) return;
      this.includeDepth = depth;
    }
    if (
      (bits & IS_NON_CONTENT && !(this.readNoscript && name === 'noscript')) ||
      (this.excludeStarts !== undefined && this.excludeStarts.has(start)) ||
      (this.dropElement !== undefined && this.dropElement(name, attrs))) {
      this.hardDrop = depth;
      this.droppingNoscript = name === 'noscript';
      return;
    }
    if (name === 'noscript') frame.noscript = true;
    if (name === 'a') {
      frame.anchor = true;
      this.anchors++;
    }
    if (this.softDrop >= 0) {
      // A picture hidden from screen readers (a card's image beside its own title) is still the
      // picture a card shows: its block is one of a grid's items although the image is not kept.
      if (name === 'img' && this.softDropDecorative && this.blockTop >= 0) this.nodes[this.blockTop]!.rich++;
      if (name === 'h1') this.softDropH1 = true;
      return;
    }
    if (this.onlyMain && this.includeDepth !== depth) {
      // A disclosure button names the panel it opens (aria-controls, with aria-expanded: an
      // accordion's question, a tab): that panel, hidden until the button is clicked, is a
      // collapsed panel, as one whose class names it is (see boilerplateReason).
      if (attrs.size !== 0) {
        const controls = attrs.get('aria-controls');
        if (controls !== undefined && attrs.get('aria-expanded') !== undefined) for (const id of controls.split(' ')) if (id !== '') this.disclosed.add(id);
      }
      let why = this.lenient ? certainBoilerplateReason(name, attrs) : boilerplateReason(name, attrs, this.landmarks > 0, this.articles > 0);
      if (isHiddenReason(why) && this.disclosed.size > 0) {
        const id = attrs.get('id');
        if (id !== undefined && this.disclosed.has(id)) why = undefined;
      }
      // A hidden block right after a subheading is the section that heading opens when clicked (an
      // FAQ's answer under its question, a collapsible section under its title), whatever its class.
      if (afterHeading && isHiddenReason(why) && HIDDEN_SECTION_TAGS.has(name)) why = undefined;
      if (why === undefined && (this.desktopHidden !== undefined || this.mobileOnly !== undefined) && this.hiddenOnDesktop(attrs)) why = 'desktop-hidden';
      // A link hidden from screen readers is still on screen: a card's teaser that repeats what
      // its title link says to them. Its text is the card's; its picture is the card's other
      // picture, and its alt text a caption nobody sees.
      if (why === 'aria-hidden' && name === 'a') {
        why = undefined;
        frame.hiddenLink = true;
        this.hiddenLinks++;
      } else if (why === undefined && name === 'img' && this.hiddenLinks > 0) why = 'aria-hidden';
      // A price hidden from screen readers is still the price on screen: shops hide the figures
      // a card shows (the struck-out old price, the new one) from them and spell them out in
      // visually hidden words of their own ("Original price was: $30.00"), which go.
      else if (why === 'aria-hidden' && isShownPrice(name, attrs)) why = undefined;
      // Slider libraries hide the slides off screen from screen readers until they scroll in (a
      // product's feature cards, a service's testimonials): they are the carousel's text as much
      // as the slide on show. The clones they add to loop round still go.
      else if (why === 'aria-hidden' && isCarouselSlide(attrs)) why = undefined;
      // A button right inside a heading (an accordion's question, a collapsible section's title)
      // is the heading's text made clickable: its panel is kept, and so is its title.
      else if (why === 'tag:button' && depth > 0 && isHeadingTag(this.stack[depth - 1]!.name)) why = undefined;
      // A post card's footer holds its byline and date, which a feed shows as the card's text.
      else if (why === 'tag:footer' && this.articles > 0 && this.inListedArticle()) why = undefined;
      if (why !== undefined && !(this.keepStarts !== undefined && this.keepStarts.has(start))) {
        this.softDrop = depth;
        this.softDropStart = mayMisfire(why) ? start : -1;
        this.softDropDecorative = why === 'aria-hidden';
        this.softDropFooter = why.endsWith(':footer');
        this.softDropScriptHidden = isScriptHidden(why);
        this.softDropOverlay = why === PINNED_OVERLAY;
        this.softDropH1 = false;
        if (name === 'img' && this.softDropDecorative && this.blockTop >= 0) this.nodes[this.blockTop]!.rich++;
        return;
      }
    }

    if (this.onlyMain) {
      const kind = landmarkKind(name, attrs);
      if (kind !== undefined) {
        frame.landmark = true;
        if (this.includeStarts === undefined) {
          frame.candidate = {
            kind,
            startChunk: this.out.length,
            endChunk: -1,
            startNode: this.nodes.length,
            endNode: -1,
            seq: this.landmarkSeq++,
            closeSeq: -1,
            startText: this.keptText - this.doomedText,
            endText: -1,
            startH1: this.h1Kept,
            endH1: -1,
            closed: false,
          };
          this.candidates.push(frame.candidate);
        }
        this.landmarks++;
        if (kind === 'article') {
          frame.article = true;
          this.articles++;
        }
      }
    }

    if (name !== 'pre' && name !== 'code') {
      // Wrappers such as Sphinx's div.highlight-python3 name the language of the <pre> inside.
      const cls = attrs.get('class');
      const facts = classFacts(cls);
      if (facts & NAMES_CODE) {
        const l = codeLanguage(cls);
        if (l !== undefined) {
          frame.langSet = true;
          frame.prevLang = this.lang;
          this.lang = l;
        }
      }
      // A price tells a product's buy box from other blocks around a title (see content-score's pick).
      if (this.blockTop >= 0 && !this.nodes[this.blockTop]!.priced && namesPrice(facts, attrs)) this.nodes[this.blockTop]!.priced = true;
      // The html format keeps every element; markdown has nothing to write for attribute-only wrappers.
      if (this.md !== undefined && bits & IS_UNWRAP && !this.isImageCaption(name, cls)) return;
    }

    frame.emitted = true;
    frame.startChunk = this.out.length;
    frame.startText = this.keptText;
    frame.startLink = this.linkText;
    frame.startH1 = this.h1Kept;
    frame.startProse = this.keptProse;
    frame.startFields = this.fields;
    frame.startDoomedText = this.doomedText;
    frame.startDoomedLink = this.doomedLink;
    frame.startNode = this.nodes.length;
    frame.startEm = this.emText;
    frame.startLinks = this.linksOpened;
    if (this.onlyMain && (name === 'div' || name === 'figure')) {
      frame.imageWrap = (classFacts(attrs.get('class')) & NAMES_IMAGE_WRAP) !== 0;
    }
    if (name === 'em' || name === 'i') {
      frame.em = true;
      this.inEm++;
    } else if (this.onlyMain && this.keptText === this.imageText && (name === 'p' || name === 'div' || name === 'center')) {
      frame.afterImage = true;
      frame.imageBlock = this.imageBlock;
    }
    if ((name === 'span' && this.isImageCaption(name, attrs.get('class'))) || (name === 'cite' && this.onlyMain && this.inFigure())) {
      frame.spanCaption = true;
      frame.startImages = this.images;
    }
    frame.startCandidate = frame.candidate !== undefined ? this.candidates.length - 1 : this.candidates.length;
    // An <a> without a target is a script's control (a filter's option, a tab, a sort order): its
    // text counts as link text, as a real link's would. One with only an id or a name is a jump
    // target round a heading's words, not a control.
    if (name === 'a' && (attrs.get('href') !== undefined || (this.onlyMain && attrs.get('id') === undefined && attrs.get('name') === undefined))) {
      frame.link = true;
      if (this.inLink === 0) this.linkWords = '';
      this.inLink++;
      frame.linkNodeStart = this.nodes.length;
      frame.linkOuterNode = this.blockTop;
      frame.linkOuterAtOpen = this.blockTop >= 0 ? this.nodes[this.blockTop]!.link : 0;
      frame.startImages = this.images;
      this.linkHref = attrs.get('href');
      this.linksOpened++;
      const linkClass = attrs.get('class');
      this.linkButton = attrs.get('role') === 'button' || (linkClass !== undefined && (linkClass.includes('btn') || linkClass.includes('button')));
    }
    if (bits & IS_BLOCK) {
      this.atBlockStart = true;
      if (!(bits & IS_VOID)) this.tailStale = true;
      if (this.onlyMain && !(bits & IS_VOID)) {
        frame.node = this.nodes.length;
        const parent = this.blockTop >= 0 ? this.nodes[this.blockTop]! : undefined;
        this.nodes.push({
          name,
          parent: this.blockTop,
          depth,
          startChunk: this.out.length,
          endChunk: -1,
          plain: 0,
          link: 0,
          card: 0,
          punct: 0,
          hint: blockHint(attrs, this.blockTop >= 0 ? this.nodes[this.blockTop]!.hint : 0),
          startH1: this.h1Kept,
          endH1: -1,
          shape: shapeOf(name, attrs.get('class')),
          prev: parent !== undefined ? parent.last : -1,
          last: -1,
          text: 0,
          links: 0,
          all: 0,
          allLinks: 0,
          rich: 0,
          priced: false,
          pricesShown: false,
          items: 0,
          itemLinks: 0,
          doomed: false,
          linky: false,
          claimed: false,
          title: false,
          nested: false,
        });
        if (parent !== undefined) parent.last = frame.node;
        this.blockTop = frame.node;
        frame.caption = isCaptionName(attrs.get('class'));
        if (name === 'li' || (classFacts(attrs.get('class')) & NAMES_SLIDER) !== 0) {
          frame.slide = true;
          frame.startImages = this.images;
        }
      }
    } else if (name === 'img') {
      this.atBlockStart = false;
      this.images++;
      this.imageText = this.keptText;
      this.imageBlock = this.blockTop;
      if (this.blockTop >= 0) this.nodes[this.blockTop]!.rich++;
    }
    if (name === 'p' && this.onlyMain) {
      this.paraDepth = depth;
      this.paraHead = '';
    }
    if (name === 'h1') this.h1Kept++;
    // A disclosure's <summary> titles the panel it opens, as a heading titles its section.
    else if (this.onlyMain && this.headCapture < 0 && (bits & IS_SUBHEADING || name === 'summary')) {
      this.headCapture = depth;
      this.headBuf = '';
      this.headStartText = this.keptText;
    }
    if (this.md !== undefined) {
      // Blocks, labels and links may be cut back to (see truncateTo).
      if (frame.node >= 0 || name === 'label' || frame.link || frame.spanCaption || frame.noscript) this.md.mark(frame.md);
      this.md.open(name, this.mdInfo(name, attrs, frame));
    } else this.out.push(this.fullOpenTag(name, attrs, frame));
  }

  text(data: string): void {
    if (this.inJsonLd && !this.discussion && DISCUSSION_TYPE.test(data)) this.discussion = true;
    if (this.inJsonLd && !this.story && STORY_TYPE.test(data)) this.story = true;
    if (this.styleText !== undefined && this.styleText.length < STYLE_MAX) this.styleText += data;
    // CSS-in-JS libraries put <style> inside the very heading being read; its rules are no title.
    if (!this.inStyleOrScript) {
      if (this.h1Capture >= 0) this.h1Buf += data;
      if (this.headCapture >= 0 && this.headBuf.length < 200) this.headBuf += data;
    }
    if (this.hardDrop >= 0 || (this.includeStarts !== undefined && this.includeDepth < 0)) {
      // Text only <noscript> holds still counts as the page's: see ContentOptions.lenient.
      if (this.droppingNoscript && this.onlyMain) this.baseText += data.length;
      return;
    }
    const n = data.length;
    this.baseText += n;
    // -1: not looked at yet; whether the chunk has sentence punctuation is wanted at most twice.
    let punct = -1;
    if (this.onlyMain && this.anchors === 0 && n >= PROSE_CHUNK) {
      punct = PUNCT.test(data) ? 1 : 0;
      if (punct === 1) {
        if (this.softDrop >= 0) this.droppedProse += n;
        else this.keptProse += n;
      }
    }
    if (this.softDrop >= 0) return;
    // "Loading..." is a script's placeholder for content it had not fetched when the page was
    // saved: no reader sees it once the page is up.
    if (this.onlyMain && n <= LOADING_MAX && this.inPre === 0 && mayBeLoading(data) && LOADING.test(data)) return;
    if (this.inPre === 0) {
      let i = 0;
      while (i < n && isHtmlSpace(codeAt(data, i))) i++;
      if (i === n) {
        this.inlineGap = 0;
        // Whitespace between elements carries no content: it is not counted, and right after a
        // block boundary it is not rendered either.
        if (!this.atBlockStart) {
          if (this.md !== undefined) this.md.text(data);
          else this.out.push(data);
        }
        return;
      }
      // (The markdown writer handles leading whitespace itself.)
      if (i > 0 && this.atBlockStart && this.md === undefined) data = data.slice(i);
      // Such elements are laid out apart (flex items, inline blocks): "Drama" and "Thriller" are
      // two words, not "DramaThriller". Only letters meeting letters: numbers beside their units
      // ("12<span>px</span>") are left as the markup has them.
      if (this.inlineGap === 2 && i === 0 && this.lastWord && !this.atBlockStart && isLetter(codeAt(data, 0))) data = ' ' + data;
      this.inlineGap = 0;
      // (A drop cap, "<span>I</span><span>f</span>", is one letter of the word after it.)
      this.lastWord = data.length > 1 && isLetter(codeAt(data, data.length - 1));
    }
    this.keptText += n;
    // Only a short block's text is ever read back, so the tail stops growing past that.
    if (this.tailStale) {
      this.tail = data;
      this.tailStale = false;
    } else if (this.tail.length <= LABEL_MAX) this.tail += data;
    if (this.paraDepth >= 0 && this.paraHead.length < PITCH_HEAD) this.paraHead += data;
    if (this.inEm > 0) this.emText += n;
    if (this.inLink > 0) {
      this.linkText += n;
      if (this.linkWords.length <= CTA_MAX) this.linkWords += data;
    }
    if (this.blockTop >= 0) {
      const node = this.nodes[this.blockTop]!;
      if (this.inLink > 0) node.link += n;
      else node.plain += n;
      // Only whether a block has any punctuation matters (see content-score.ts).
      if (node.punct === 0) node.punct = punct >= 0 ? punct : PUNCT.test(data) ? 1 : 0;
    }
    this.atBlockStart = false;
    if (this.md !== undefined) this.md.text(data);
    else this.out.push(data);
  }

  close(name: string): void {
    if (name === 'style' || name === 'script') {
      this.inStyleOrScript = false;
      this.inJsonLd = false;
    }
    if (name === 'style' && this.styleText !== undefined) {
      this.noteDesktopHidden(this.styleText);
      this.styleText = undefined;
    }
    const frame = this.stack.pop();
    if (frame === undefined) return;
    const bits = frame.bits;
    this.headingClosed = bits & IS_SUBHEADING ? this.stack.length : -1;
    if (bits & IS_CODE_INLINE) this.inCode--;
    this.inlineGap = bits & IS_GAP_INLINE && this.md !== undefined && this.inPre === 0 && this.inCode === 0 ? 1 : 0;
    const depth = this.stack.length;
    if (frame.emitted) {
      if (this.md !== undefined) this.md.close();
      else if (frame.link && this.isEmptyLink(frame)) {
        // A link with nothing to show (an icon font, a share button) renders as nothing.
        this.out[frame.startChunk] = '';
      } else if (!(bits & IS_VOID)) this.out.push(closeTagFor(name));
      if (bits & IS_BLOCK) this.atBlockStart = true;
    }
    if (frame.em) this.inEm--;
    if (frame.link) {
      this.inLink--;
      if (this.images > frame.startImages) this.pictureHref = this.linkHref;
      this.longLinkAsText(frame);
    }
    if (frame.landmark) this.landmarks--;
    if (frame.noscript) {
      // What a page shows a browser without scripts ("You need to enable JavaScript to run this
      // app") tells about the page and is none of its content: a <noscript> that says only that goes.
      const text = this.keptText - frame.startText;
      if (this.onlyMain && text > 0 && text <= JS_NOTICE_MAX && JS_NOTICE.test(this.out.slice(frame.startChunk).join(''))) this.truncateTo(frame);
    }
    if (frame.article) this.articles--;
    if (frame.node >= 0) {
      const node = this.nodes[frame.node]!;
      node.endChunk = this.out.length;
      node.endH1 = this.h1Kept;
      node.text = this.keptText - frame.startText - (this.doomedText - frame.startDoomedText);
      node.links = this.linkText - frame.startLink - (this.doomedLink - frame.startDoomedLink);
      node.all = this.keptText - frame.startText;
      node.allLinks = this.linkText - frame.startLink;
      if (name === 'h1' || bits & IS_SUBHEADING) node.rich++;
      if (node.last >= 0) this.repeatedItems(frame.node);
      // A list's item or a slider's block that holds nothing but pictures is a gallery's slide (a
      // product's photos, a slider's frames): its alt text describes a photo the page shows, not
      // the page's text, also when the photo links to a larger copy of itself.
      if (frame.slide && node.all === 0 && this.images > frame.startImages) this.md?.blankAlts(frame.startChunk, this.out.length);
      this.blockTop = node.parent;
    }
    if (frame.emitted && this.onlyMain && this.inPre === 0 && frame.rail && this.h1Kept === frame.startH1 && depth !== this.includeDepth) {
      this.truncateTo(frame);
      // A dropped rail <article> is no longer a landmark to narrow the page to.
      frame.candidate = undefined;
    } else if (frame.emitted && this.onlyMain && this.inPre === 0 && frame.candidate === undefined && depth !== this.includeDepth) {
      if (
        ((name === 'figcaption' || frame.caption) && this.isCaption(frame)) ||
        (frame.spanCaption && this.images === frame.startImages) ||
        (frame.afterImage && (this.isItalicCaption(frame) || this.isWrappedCaption(frame)))
      ) {
        this.md?.blankCaptionAlt(frame.startChunk);
        this.truncateTo(frame);
      } else if (
        (name === 'form' && this.isEntryForm(frame)) ||
        (name === 'label' && this.isControlLabel(frame)) ||
        (frame.link && this.inLink === 0 && this.isCallToAction(frame)) ||
        (frame.node >= 0 && this.isLabel(frame))
      ) {
        this.truncateTo(frame);
      } else this.pruneLinkBlock(frame);
    }
    if (frame.node >= 0 && frame.node < this.nodes.length && this.blockTop >= 0) {
      const node = this.nodes[frame.node]!;
      const parent = this.nodes[this.blockTop]!;
      parent.rich += node.rich;
      if (node.priced) parent.priced = true;
      if (node.items > 0 || node.nested) parent.nested = true;
    }
    if (depth === this.paraDepth) this.paraDepth = -1;
    if (depth === this.headCapture) {
      this.headCapture = -1;
      if (isRailHeadingParts(this.headBuf)) this.markRail();
    }
    const c = frame.candidate;
    if (c !== undefined) {
      c.endChunk = this.out.length;
      c.endNode = this.nodes.length;
      c.closeSeq = this.landmarkSeq++;
      c.endText = this.keptText - this.doomedText;
      c.endH1 = this.h1Kept;
      c.closed = true;
    }
    if (frame.langSet) this.lang = frame.prevLang;
    if (name === 'pre' && frame.emitted) this.inPre--;
    if (frame.navLike) this.navLike--;
    if (depth === this.h1Capture) {
      const t = cleanText(this.h1Buf);
      if (t) this.firstH1 = t;
      this.h1Capture = -1;
    }
    if (depth === this.hardDrop) this.hardDrop = -1;
    if (frame.anchor) this.anchors--;
    if (frame.hiddenLink) this.hiddenLinks--;
    if (depth === this.softDrop) {
      this.softDrop = -1;
      const prose = this.softDropFooter ? this.droppedProse / FOOTER_MISFIRE_FACTOR : this.droppedProse;
      if (this.softDropOverlay && this.softDropH1 && this.overlayH1Start < 0) this.overlayH1Start = this.softDropStart;
      if (this.softDropStart >= 0 && this.softDropScriptHidden) {
        if (this.softDropH1 && prose > this.maxHiddenProse) {
          this.maxHiddenProse = prose;
          this.maxHiddenStart = this.softDropStart;
        }
      } else if (this.softDropStart >= 0 && prose > this.maxDroppedProse) {
        this.maxDroppedProse = prose;
        this.maxDroppedStart = this.softDropStart;
      }
      this.droppedProse = 0;
    }
    if (depth === this.includeDepth) this.includeDepth = -1;
    if ((bits & (IS_BLOCK | IS_VOID)) === IS_BLOCK) this.tailStale = true;
  }

  finish(): ContentResult {
    // The parser closes every open element at the end; this guards a truncated event stream.
    while (this.stack.length > 0) this.close(this.stack[this.stack.length - 1]!.name);
    let chunks: string[] = this.out;
    let keptText = this.keptText - this.doomedText;
    let h1s = this.h1Kept;
    let rootName: string | undefined;
    if (this.onlyMain) {
      let chosen = chooseLandmark(this.candidates, keptText, this.nodes);
      // A <main> beside a longer body of prose outside it is not the page's content on its own.
      if (chosen !== undefined && chosen.kind === 'main' && bodyOutside(this.nodes, chosen.startNode, chosen.endNode)) chosen = undefined;
      let from = 0;
      let to = this.nodes.length;
      let start = 0;
      let end = this.out.length;
      if (chosen !== undefined) {
        start = chosen.startChunk;
        end = chosen.endChunk;
        chunks = this.out.slice(start, end);
        keptText = candidateText(chosen);
        h1s = chosen.endH1 - chosen.startH1;
        from = chosen.startNode;
        to = chosen.endNode;
      }
      let picked = selectContent(this.nodes, from, to, this.discussion, this.story);
      // A pick that leaves (nearly) nothing of a page the rules left text on anchored on a stray
      // sentence (a comment policy under an unpunctuated table or list): what the rules kept is
      // the content, rather than the page without them.
      if (picked !== undefined && !this.lenient && isNearlyEmpty(picked.text, this.baseText) && !isNearlyEmpty(keptText, this.baseText)) picked = undefined;
      let ranges: Array<[number, number]> | undefined = chosen !== undefined ? [[start, end]] : undefined;
      if (picked !== undefined) {
        ranges = picked.ranges;
        keptText = picked.text;
        h1s = picked.h1s;
        rootName = picked.root;
        // A series narrowed to its <main> leaves the page's title and introduction before it out;
        // so does a shop's category narrowed to a <main> that holds its buying guide and grid.
        if (chosen !== undefined && (picked.series === true || picked.catalogue === true) && h1s === 0 && ranges.length > 0) {
          const intro = introBefore(this.nodes, from);
          if (intro >= 0) {
            const box = this.nodes[intro]!;
            // (Less the cards it holds that no series claimed: a course's links under its blurb.)
            let last = intro + 1;
            while (last < this.nodes.length && this.nodes[last]!.startChunk < box.endChunk) last++;
            const cut = withoutPruned(this.nodes, intro, last, box.startChunk, box.endChunk);
            ranges = [...(cut?.ranges ?? [[box.startChunk, box.endChunk]]), ...ranges];
            keptText += box.text;
            h1s += box.endH1 - box.startH1;
            rootName = 'div';
          }
        }
      } else {
        const cut = withoutPruned(this.nodes, from, to, start, end);
        if (cut !== undefined) {
          ranges = cut.ranges;
          keptText -= cut.text;
          h1s -= cut.h1s;
        }
      }
      if (ranges !== undefined) {
        // Links and emphasis cut in two by the selection lose their other half too.
        this.md?.dropUnpaired(ranges);
        chunks = ranges.length === 1 ? this.out.slice(ranges[0]![0], ranges[0]![1]) : ranges.flatMap(([s, e]) => this.out.slice(s, e));
      }
    }
    let content = chunks.join('');
    if (rootName !== undefined) content = this.md !== undefined ? standaloneMarkdown(content, rootName) : standalone(content, rootName);
    // Templates render some text twice (a slider's cloned slides, a tab and its accordion twin),
    // and galleries a picture twice (its thumbnail strip): the markdown says it once. (The html
    // format keeps the page's own markup as it is.)
    if (this.onlyMain && this.md !== undefined) content = withoutRepeatedImages(withoutRepeatedText(content));
    // The page's own title heading often sits in a header we dropped or outside the landmark.
    if (this.onlyMain && h1s === 0 && this.firstH1 !== undefined) {
      content = this.md !== undefined ? MarkdownWriter.title(this.firstH1) + content : `<h1>${escapeText(this.firstH1)}</h1>\n${content}`;
      keptText += this.firstH1.length;
    }
    const nearlyEmpty = this.onlyMain && !this.lenient && isNearlyEmpty(keptText, this.baseText);
    let misfire: number | undefined;
    if (this.onlyMain && this.maxDroppedProse >= MISFIRE_MIN_PROSE && this.maxDroppedProse > this.keptProse) misfire = this.maxDroppedStart;
    // A wrapper hidden until scripts run that holds the content (an app that shows a shop's product
    // once it has checked access, a block deferred until scripts run, a page that fades in) holds
    // the page's title and leaves the page (nearly) empty: it is exempted rather than the whole
    // page read without the rules. Beside content that was kept, a hidden copy with the title is a
    // copy for crawlers; a hidden block without it is a popup (a policy, a sign-up form).
    else if (nearlyEmpty && this.maxHiddenProse >= MISFIRE_MIN_PROSE && this.maxHiddenProse > this.keptProse) misfire = this.maxHiddenStart;
    // A layer pinned over the viewport that holds the page's title, with no title kept elsewhere,
    // is the page itself laid out in one fixed viewport (an app's shell), not a modal over it.
    else if (this.onlyMain && this.overlayH1Start >= 0 && this.h1Kept === 0) misfire = this.overlayH1Start;
    return { content, keptText, baseText: this.baseText, nearlyEmpty, misfire };
  }

  /**
   * A label captions a form control (a filter's option, a field's name), and controls are not
   * kept; a long one is a clickable card built as a label, and stays.
   */
  private isControlLabel(frame: Frame): boolean {
    return this.keptText - frame.startText < LABEL_MAX_TEXT;
  }

  /**
   * A link that only invites a click ("Read more", "Shop now", "View all") and opens its block,
   * or sits in an item's block rather than a paragraph: a card's or a section's button, not words
   * of the text (a "more" inside a sentence stays).
   */
  private isCallToAction(frame: Frame): boolean {
    if (this.linkWords.length > CTA_MAX || !CTA.test(this.linkWords)) return false;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const f = this.stack[i]!;
      if (f.node >= 0) return f.startText === frame.startText || ITEM_TAGS.has(f.name);
    }
    return false;
  }

  /**
   * A caption describes a picture (and credits its photographer); the picture's alt text stays,
   * the caption is not the page's text. One that holds an image is a layout wrapper, and stays.
   */
  private isCaption(frame: Frame): boolean {
    return frame.node >= 0 && this.nodes[frame.node]!.rich === 0;
  }

  /**
   * A span whose class names a caption or credit, opening right after a picture with no text
   * between them and outside a link, is the picture's caption set inline ("<img><span
   * class="newsCaption">Protesters in the square (Image: AP)</span>"). In a link it is a card's
   * title, and elsewhere a span so named is often a type style (a listing's "caption" line): both
   * stay. Any span after a picture would take a card's unnamed title with it.
   */
  private isImageCaption(name: string, cls: string | undefined): boolean {
    return name === 'span' && this.onlyMain && this.inLink === 0 && this.keptText === this.imageText && cls !== undefined && (isCaptionName(cls) || CAMEL_CAPTION.test(cls));
  }

  /**
   * A cite in a figure credits the picture's photographer or agency ("Sakib Ali/Getty Images"),
   * as a caption does; a quotation's source is cited in a blockquote, not a figure.
   */
  private inFigure(): boolean {
    for (let i = this.stack.length - 1; i >= 0; i--) if (this.stack[i]!.name === 'figure') return true;
    return false;
  }

  /**
   * A short line set in italics right under a picture, with no text between them, is its caption
   * ("<img><br><em>The best new character in 2019.</em>"), written by hand in an editor that has
   * no caption field. A picture in it makes it a layout wrapper, and text outside the italics
   * makes it the story's paragraph.
   */
  private isItalicCaption(frame: Frame): boolean {
    const text = this.keptText - frame.startText;
    return text > 0 && text <= ITALIC_CAPTION_MAX && this.emText - frame.startEm === text && frame.node >= 0 && this.nodes[frame.node]!.rich === 0;
  }

  /**
   * A paragraph right under a picture, beside it in a wrapper named for the picture ("<div
   * class="image top"><img><p>Astronauts at work...</p></div>"), is its caption: the story's
   * paragraphs are not set inside a picture's box. The picture must sit in that wrapper itself: a
   * section named for its hero image holds the page's text after the image.
   */
  private isWrappedCaption(frame: Frame): boolean {
    if (frame.name !== 'p') return false;
    const text = this.keptText - frame.startText;
    if (text <= 0 || text > WRAPPED_CAPTION_MAX || frame.node < 0 || this.nodes[frame.node]!.rich > 0) return false;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const f = this.stack[i]!;
      if (f.node >= 0) return f.imageWrap && f.node === frame.imageBlock;
    }
    return false;
  }

  /** Whether the block being closed holds nothing but an ad slot's label, a gallery's control or a line of a poster's record (see AD_LABEL, SLIDE_CONTROL, MEMBER_STAT). */
  /**
   * Reads a style sheet for classes it hides at a desktop's width (see MEDIA_HIDE): the copies of
   * a part a site lays out again for other screens, of which a desktop shows one.
   */
  private noteDesktopHidden(css: string): void {
    if (css.includes('display')) this.noteMobileOnly(css);
    if (!css.includes('@media') || !css.includes('none')) return;
    MEDIA_HIDE.lastIndex = 0;
    for (let m = MEDIA_HIDE.exec(css); m !== null; m = MEDIA_HIDE.exec(css)) {
      const min = Number(m[1]);
      const max = m[2] === undefined ? Infinity : Number(m[2]);
      if (min > DESKTOP_WIDTH || max < DESKTOP_WIDTH) continue;
      // The block's body, up to its closing brace.
      const from = MEDIA_HIDE.lastIndex;
      let depth = 1;
      let end = from;
      for (; end < css.length && depth > 0; end++) {
        const c = css.charCodeAt(end);
        if (c === 123) depth++;
        else if (c === 125) depth--;
      }
      const body = css.slice(from - 1, end);
      CLASS_HIDE.lastIndex = 0;
      for (let r = CLASS_HIDE.exec(body); r !== null; r = CLASS_HIDE.exec(body)) {
        this.desktopHidden ??= new Set();
        for (const sel of r[1]!.split(',')) this.desktopHidden.add(sel.trim().slice(1));
      }
      MEDIA_HIDE.lastIndex = end;
    }
  }

  /**
   * Reads a style sheet for the copies of a part shown on small screens only (a site builder's
   * phone layout of a section it lays out again for the desktop): a rule at the top level hides
   * them ("display: none") and one for screens narrower than a desktop's shows them again. Not
   * when a rule at the top level shows them after all (".tab-pane.active", ".menu.open .panel").
   */
  private noteMobileOnly(sheet: string): void {
    const css = sheet.includes('/*') ? sheet.replace(CSS_COMMENT, '') : sheet;
    // Depth of the at-rule blocks open (a @media block's rules sit at depth 1), and whether the
    // @media block open at depth 1 is for small screens.
    let depth = 0;
    let small = false;
    let start = 0;
    BRACE.lastIndex = 0;
    for (let b = BRACE.exec(css); b !== null; b = BRACE.exec(css)) {
      const i = b.index;
      if (css.charCodeAt(i) === 125) {
        if (depth > 0) depth--;
        start = i + 1;
        continue;
      }
      let head = css.slice(start, i);
      // A statement before it ("@import url(a.css);") is not its selector.
      const semi = head.lastIndexOf(';');
      head = (semi >= 0 ? head.slice(semi + 1) : head).trim();
      start = i + 1;
      if (head.charCodeAt(0) === 64 /* @ */ || depth > 1) {
        if (depth === 0) {
          const m = MEDIA_MAX.exec(head);
          small = m !== null && Number(m[1]) < DESKTOP_WIDTH;
        }
        depth++;
        continue;
      }
      // A rule: its declarations run to the next closing brace.
      let end = css.indexOf('}', i + 1);
      if (end < 0) end = css.length;
      if (depth === 0 || small) this.noteRule(head, css.slice(i + 1, end), depth === 1);
      start = end + 1;
      BRACE.lastIndex = start;
    }
    if (this.cssHidden === undefined || this.cssShownSmall === undefined) return;
    for (const key of this.cssShownSmall) {
      if (!this.cssHidden.has(key)) continue;
      const parts = key.split('.');
      if (this.cssShown.some((shown) => parts.every((p) => shown.includes(p)))) continue;
      this.mobileOnly ??= new Map();
      const list = this.mobileOnly.get(parts[0]!) ?? [];
      if (!list.some((l) => l.join('.') === key)) list.push(parts);
      this.mobileOnly.set(parts[0]!, list);
    }
  }

  /** Notes what one rule does to the display of its selectors' elements (see noteMobileOnly). */
  private noteRule(selectors: string, body: string, smallScreen: boolean): void {
    if (!body.includes('display')) return;
    let display: string | undefined;
    DISPLAY.lastIndex = 0;
    for (let d = DISPLAY.exec(body); d !== null; d = DISPLAY.exec(body)) display = d[1]!.toLowerCase();
    if (display === undefined) return;
    const shows = display !== 'none';
    if (!smallScreen && shows) {
      for (const sel of selectors.split(',')) {
        const classes = [...sel.matchAll(CLASS_NAME)].map((c) => c[1]!);
        if (classes.length > 0) this.cssShown.push(classes);
      }
    } else if (smallScreen === shows && CLASS_SELECTORS.test(selectors)) {
      const into = smallScreen ? (this.cssShownSmall ??= new Set()) : (this.cssHidden ??= new Set());
      for (const sel of selectors.split(',')) into.add(sel.trim().slice(1));
    }
  }

  /** Whether a class of the element is one the page's style sheets hide at a desktop's width. */
  private hiddenOnDesktop(attrs: AttrView): boolean {
    const cls = attrs.get('class');
    if (cls === undefined) return false;
    const names = cls.split(/\s+/);
    for (const c of names) {
      if (c === '') continue;
      if (this.desktopHidden?.has(c)) return true;
      const copies = this.mobileOnly?.get(c);
      if (copies !== undefined && copies.some((parts) => parts.every((p) => names.includes(p)))) return true;
    }
    return false;
  }

  private isLabel(frame: Frame): boolean {
    // A heading, a list's item or term and a table's cell with such a word are the text's; a
    // heading may only count the posts below it.
    const heading = (frame.bits & IS_SUBHEADING) !== 0;
    if (!heading && !LABEL_BLOCKS.has(frame.name)) return false;
    const text = this.keptText - frame.startText;
    // (The tail is emptied when a block opens or closes: it then holds less than the block's text.)
    if (text <= 0 || text > LABEL_MAX || this.tail.length < text) return false;
    const t = this.tail.slice(-text);
    if (heading) return COUNT_HEADING.test(t);
    return AD_LABEL.test(t) || ((frame.name === 'div' || frame.name === 'p') && this.linkText === frame.startLink && (SLIDE_CONTROL.test(t) || MEMBER_STAT.test(t)));
  }

  private isEntryForm(frame: Frame): boolean {
    return (
      this.fields - frame.startFields >= FORM_MIN_FIELDS &&
      this.keptProse - frame.startProse < FORM_MAX_PROSE &&
      this.keptText - frame.startText < FORM_MAX_TEXT
    );
  }

  /** Whether the link being closed holds no text and no image. */
  private isEmptyLink(frame: Frame): boolean {
    if (this.keptText - frame.startText > 32) return false;
    for (let i = frame.startChunk + 1; i < this.out.length; i++) {
      const c = this.out[i]!;
      if (c.charCodeAt(0) === 60) {
        if (c.startsWith('<img')) return false;
      } else if (c.trim() !== '') return false;
    }
    return true;
  }

  /** Moves a just-closed long link's text from link text to card text (see LONG_LINK_TEXT). */
  private longLinkAsText(frame: Frame): void {
    const text = this.linkText - frame.startLink;
    if (text < LONG_LINK_TEXT) return;
    this.linkText -= text;
    for (let i = frame.linkNodeStart; i < this.nodes.length; i++) {
      const n = this.nodes[i]!;
      n.card += n.link;
      n.link = 0;
    }
    if (frame.linkOuterNode >= 0 && frame.linkOuterNode < this.nodes.length) {
      const n = this.nodes[frame.linkOuterNode]!;
      const d = n.link - frame.linkOuterAtOpen;
      n.card += d;
      n.link -= d;
    }
  }

  /**
   * Drops a just-closed block that is mostly link text with little else (menus, tag clouds,
   * "related" rails without telling class names). Its serialization is the tail of the output,
   * so removing it after the fact is a truncation.
   */
  /**
   * A paragraph of the text flow that is (nearly) all link text is a teaser for another page
   * between the paragraphs ("READ MORE: ...", a related story's headline, a row of such links),
   * not the text. In a list item, a cell or a card (no prose before it in its parent) it may be
   * an item's title or teaser, which the scoring weighs.
   */
  private pruneTeaserParagraph(frame: Frame): void {
    const text = this.keptText - frame.startText;
    if (text < TEASER_MIN_TEXT) return;
    const parent = this.emittedParent();
    if (parent === undefined || ITEM_PARTS.has(parent.name)) return;
    // Between paragraphs: the text before it in its parent is prose, not a card's linked title.
    if (frame.startText - parent.startText - (frame.startLink - parent.startLink) < TEASER_CONTEXT) return;
    if ((this.linkText - frame.startLink) / text < TEASER_LINK_SHARE) return;
    // A paragraph of its own right before it that names a rail ("You may also like", "Don't
    // miss") is the teasers' label and goes with them.
    const label = this.railLabel;
    this.truncateTo(label !== undefined && label.endChunk === frame.startChunk && label.endText === frame.startText ? label : frame);
  }

  /** Whether the paragraph being closed is a subscription or follow pitch, a reporting credit or the author's contact line (see PITCH, CREDIT, CONTACT). */
  private isPitch(frame: Frame): boolean {
    const text = this.keptText - frame.startText;
    if (text <= 0 || text > PITCH_MAX || this.paraDepth < 0) return false;
    const parent = this.emittedParent();
    if (parent !== undefined && ITEM_PARTS.has(parent.name)) return false;
    return PITCH.test(this.paraHead) || CREDIT.test(this.paraHead) || CONTACT.test(this.paraHead);
  }

  /**
   * Whether the innermost open <article> is one entry of a list (a feed's post cards, each an
   * <article> in an <li>, perhaps inside a layout wrapper): its <footer> is the entry's author
   * and date line, not a page's or a story's footer.
   */
  private inListedArticle(): boolean {
    for (let i = this.stack.length - 1; i > 0; i--) {
      if (!this.stack[i]!.article) continue;
      for (let j = i - 1; j >= 0 && j >= i - LISTED_ARTICLE_DEPTH; j--) if (this.stack[j]!.name === 'li') return true;
      return false;
    }
    return false;
  }

  /** The innermost written element around a block that has just left the stack. */
  private emittedParent(): Frame | undefined {
    for (let i = this.stack.length - 1; i >= 0; i--) if (this.stack[i]!.emitted) return this.stack[i];
    return undefined;
  }

  /** Remembers a just-closed paragraph that names a rail (see pruneTeaserParagraph). */
  private noteRailLabel(frame: Frame): void {
    const text = this.keptText - frame.startText;
    if (text <= 0 || text > LABEL_MAX || this.tail.length < text || this.linkText !== frame.startLink || !isRailHeading(cleanText(this.tail.slice(-text)))) return;
    this.railLabel = {
      startChunk: frame.startChunk,
      startText: frame.startText,
      startLink: frame.startLink,
      startH1: frame.startH1,
      startNode: frame.startNode,
      startCandidate: frame.startCandidate,
      startDoomedText: frame.startDoomedText,
      startDoomedLink: frame.startDoomedLink,
      md: { ...frame.md },
      endChunk: this.out.length,
      endText: this.keptText,
    };
  }

  private pruneLinkBlock(frame: Frame): void {
    // A block inside a link is all link text; the link is judged when the block around it closes.
    if (this.inLink > 0) return;
    if (frame.name === 'p') {
      if (this.isPitch(frame)) return this.truncateTo(frame);
      this.pruneTeaserParagraph(frame);
      return this.noteRailLabel(frame);
    }
    if (!(frame.bits & IS_LINK_BLOCK)) return;
    const text = this.keptText - frame.startText - (this.doomedText - frame.startDoomedText);
    if (text <= 0) return;
    const links = this.linkText - frame.startLink - (this.doomedLink - frame.startDoomedLink);
    if (links / text <= LINK_DENSITY_MAX || text - links >= LINK_BLOCK_MIN_PROSE) return;
    const node = frame.node >= 0 ? this.nodes[frame.node] : undefined;
    if (node !== undefined) {
      // A grid or list of items may be the page's content however linked its items are; the
      // scoring decides (it is marked, and its links stop counting against its ancestors).
      if (node.items > 0) {
        node.linky = true;
        this.doomedLink += links;
        return;
      }
      // A card (a linked title over an image, a heading) may be one item of such a grid, which
      // only its parent can tell: it is left in place, marked, and left out later unless its
      // parent turns out to hold a series of them. A linked title with a price is a card too,
      // though its picture sits beside it (a chart's entry): menus name no prices, by class or
      // in their text. So is a block that only links where the picture before it links (see
      // namesPicturedTarget), and a short line of links under an item's title (see isItemLine).
      if (node.parent >= 0 && (node.rich > 0 || node.priced || (links === text && this.namesPicturedTarget()) || (links < text && this.showsPrice(frame, text)) || (this.landmarks > 0 && this.isLinkList(frame.node)) || (links === text && this.isItemLine(frame, text, node.parent)))) {
        node.doomed = true;
        if (links === text && this.namesPicturedTarget()) node.title = true;
        this.doomedText += text;
        this.doomedLink += links;
        return;
      }
    }
    this.truncateTo(frame);
  }

  /**
   * A short block of links that follows text in its parent (a row's "by <author>" under the
   * book's title, a post's date and tags under its title, "4.7 out of 5 stars 58,483") is a fact
   * of the item it sits in, when it is one of a series' items. A line that opens its parent is
   * the item's kicker (a category or section name above the title, which listings link to their
   * archive), and a button is the item's action: both go, as before. So does a widget's row of
   * links to the page itself ("1 of 5 stars" to "#"), a control.
   */
  private isItemLine(frame: Frame, text: number, parent: number): boolean {
    if (text > ITEM_LINE_MAX && !this.isTagList(frame, text)) return false;
    if (this.linkButton || (this.linkHref !== undefined && this.linkHref.startsWith('#')) || ITEM_ACTION.test(this.linkWords)) return false;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const f = this.stack[i]!;
      if (f.node === parent) return f.startText < frame.startText;
    }
    return false;
  }

  /** A row of short links, a few words each (a game's tags, a recipe's categories): longer than an item's line, no longer than a tag list. */
  private isTagList(frame: Frame, text: number): boolean {
    const count = this.linksOpened - frame.startLinks;
    return count >= TAG_LIST_MIN && text <= TAG_LIST_MAX && text <= TAG_MAX * count;
  }

  /**
   * A block that is one link to the page the picture just before it links to is a card's title
   * (a product tile links its photo and its name to the product): a menu does not link a picture
   * and a name to one page.
   */
  private namesPicturedTarget(): boolean {
    return this.linkHref !== undefined && this.linkHref === this.pictureHref && countWords(this.linkWords) >= CARD_TITLE_MIN_WORDS;
  }

  /**
   * Whether a short block just closed shows a price (a currency sign beside a figure) though no
   * class names one: with text beside its links, a product card's text, as menus show none. (A
   * link that is all price, "$899 at the store", is a buying button.)
   */
  private showsPrice(frame: Frame, text: number): boolean {
    return text <= SHOWN_PRICE_MAX_TEXT && this.chunksShowPrice(frame.startChunk, this.out.length);
  }

  /**
   * A list of links inside the page's landmark may be one group of an index split into sections
   * (a category's members under each letter): like a card, only its parent's parent can tell.
   */
  private isLinkList(at: number): boolean {
    const node = this.nodes[at]!;
    if (node.name !== 'ul' && node.name !== 'ol') return false;
    let items = 0;
    for (let c = node.last; c >= 0; c = this.nodes[c]!.prev) if (this.nodes[c]!.name === 'li') items++;
    return items >= ITEM_MIN;
  }

  /**
   * Records whether a just-closed block's children are a series of items of one shape (cards of
   * a product grid, rows of a listing, entries of a feed): enough of them, each with some text
   * and most with an image, a heading or text beside their link. A menu's items (a link each,
   * one or two words) are not.
   */
  private repeatedItems(at: number): void {
    const nodes = this.nodes;
    if (MENU_SHAPE.test(nodes[at]!.shape)) return;
    let shapes: Map<string, number[]> | undefined;
    let kids = 0;
    for (let c = nodes[at]!.last; c >= 0; c = nodes[c]!.prev) {
      kids++;
      const k = nodes[c]!;
      // A block holding a series of its own is a section of a page of sections, not an item.
      // (Bare divs are layout as often as items: a series needs a named shape or an item tag.)
      if (k.all <= 0 || k.items > 0 || k.nested || k.shape === 'div' || !ITEM_TAGS.has(k.name) || MENU_SHAPE.test(k.shape)) continue;
      shapes ??= new Map();
      let g = shapes.get(k.shape);
      if (g === undefined) shapes.set(k.shape, (g = [0, 0, 0, 0]));
      g[0]!++;
      if (k.rich > 0 || (k.allLinks > 0 && k.allLinks < k.all)) g[1]!++;
      g[2]! += k.all;
      g[3]! += k.allLinks;
    }
    if (shapes === undefined || kids < ITEM_MIN) return;
    let best: number[] | undefined;
    let bestShape = '';
    // A long list of bare links inside the page's main or article landmark (an index, a "List
    // of ..." page, a category's members) is what such a page is for; in a menu it would have
    // been dropped by the boilerplate rules before it got here.
    const index = this.landmarks > 0 && (nodes[at]!.name === 'ul' || nodes[at]!.name === 'ol');
    for (const [shape, g] of shapes) {
      const linkList = index && shape === 'li' && g[0]! >= LINK_LIST_MIN && g[3]! >= LINK_LIST_SHARE * g[2]!;
      if (g[0]! < ITEM_MIN || (linkList ? g[2]! < LINK_LIST_TEXT : g[1]! < ITEM_RICH_SHARE * g[0]! || g[2]! < ITEM_MIN_TEXT * g[0]!)) continue;
      if (best === undefined || g[2]! > best[2]!) {
        best = g;
        bestShape = shape;
      }
    }
    if (best === undefined) return;
    const node = nodes[at]!;
    node.items = best[2]!;
    node.itemLinks = best[3]!;
    let shown = 0;
    // The items' cards, wherever they sit inside them, are claimed.
    for (let c = node.last; c >= 0; c = nodes[c]!.prev) {
      const k = nodes[c]!;
      if (k.shape !== bestShape) continue;
      if (!node.priced && k.all <= SHOWN_PRICE_MAX_TEXT && this.chunksShowPrice(k.startChunk, k.endChunk)) shown++;
      // An item's picture outside its links is what the item's title link names: its alt text
      // repeats the title or describes a photo (as a picture link's alt text is, see MarkdownWriter).
      if (k.allLinks > 0) this.md?.blankLooseAlts(k.startChunk, k.endChunk);
      for (let i = c; i < nodes.length && nodes[i]!.startChunk < k.endChunk; i++) {
        const d = nodes[i]!;
        if (!d.doomed) continue;
        d.doomed = false;
        d.linky = true;
        d.claimed = true;
        this.doomedText -= d.text;
        this.doomedLink -= d.links;
      }
    }
    node.pricesShown = shown >= ITEM_RICH_SHARE * best[0]!;
    // A card's title stays with its series' other text only in a shop's grid (see pick): elsewhere
    // (a blog's teasers) the titles go with the rest of the series when it is not the content.
    if (!node.priced && !node.pricesShown) {
      for (let i = at + 1; i < nodes.length; i++) nodes[i]!.title = false;
    }
  }

  /** Whether the output between two chunks shows a price (see SHOWN_PRICE). */
  private chunksShowPrice(start: number, end: number): boolean {
    let s = '';
    for (let i = start; i < end; i++) s += this.out[i];
    return SHOWN_PRICE.test(s);
  }

  /** Cuts the output back to a mark (a just-closed element's start: its serialization is the output's tail). */
  private truncateTo(frame: Mark): void {
    for (let p = this.blockTop; p >= 0 && this.nodes[p]!.last >= frame.startNode; ) {
      const n = this.nodes[p]!;
      n.last = this.nodes[n.last]!.prev;
    }
    this.out.length = frame.startChunk;
    this.md?.restore(frame.md);
    this.nodes.length = frame.startNode;
    this.keptText = frame.startText;
    this.imageText = -1;
    this.linkText = frame.startLink;
    this.doomedText = frame.startDoomedText;
    this.doomedLink = frame.startDoomedLink;
    this.h1Kept = frame.startH1;
    this.tail = '';
    // (A rail's label cut back to, or output cut back below it, is no longer there to drop.)
    this.railLabel = undefined;
    for (let i = frame.startCandidate; i < this.candidates.length; i++) this.candidates[i]!.closed = false;
    this.atBlockStart = true;
  }

  /**
   * The heading just closed introduces a teaser rail: the open blocks that start with it (hold no
   * text before it) are marked, and the outermost that holds no <h1> when it closes is the rail,
   * dropped. A block that goes on to the page's title is a wrapper the rail merely opens (a
   * shop's "viewed also" strip above the product in one column), not the rail. Landmarks and the
   * document are never a rail.
   */
  private markRail(): void {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const f = this.stack[i]!;
      // The inline wrappers markdown writes nothing for (an accordion's <span role="button">
      // trigger around its heading) are looked through, as the html format's would be.
      if (!f.emitted && i > this.includeDepth) continue;
      // An <article> a rail heading opens is a teaser card wrapper (themes reuse the post markup
      // for the rail); a <main> never is.
      const railArticle = f.candidate?.kind === 'article';
      if (!f.emitted || f.startText !== this.headStartText || (f.landmark && !railArticle) || i <= this.includeDepth) break;
      if (f.name === 'body' || f.name === 'html') break;
      if (f.node >= 0) f.rail = true;
    }
  }

  private codeClass(name: string, attrs: AttrSource, frame: Frame): string | undefined {
    if (name === 'pre') {
      const own = codeLanguage(attrs.get('class')) ?? dataLanguage(attrs);
      const l = own ?? this.lang;
      frame.langSet = true;
      frame.prevLang = this.lang;
      this.lang = l;
      this.inPre++;
      return l;
    }
    if (name === 'code' && this.inPre > 0) return codeLanguage(attrs.get('class')) ?? this.lang;
    return codeLanguage(attrs.get('class'));
  }

  /** What the markdown writer needs to know about an element being opened. */
  private mdInfo(name: string, attrs: AttrView, frame: Frame): MdOpen | undefined {
    switch (name) {
      case 'a': {
        const href = attrs.get('href');
        return { url: href === undefined ? undefined : this.linkTarget(href) };
      }
      case 'img':
        return { url: this.imageTarget(attrs), alt: attrs.get('alt') };
      case 'pre':
      case 'code':
        return { lang: this.codeClass(name, attrs, frame) };
      case 'ol': {
        const start = attrs.get('start');
        const n = start === undefined ? NaN : parseInt(start, 10);
        return Number.isFinite(n) ? { start: n } : undefined;
      }
      case 'td':
      case 'th': {
        const span = attrs.get('colspan');
        const n = span === undefined ? NaN : parseInt(span, 10);
        return n > 1 ? { colspan: Math.min(n, 64) } : undefined;
      }
      default:
        return undefined;
    }
  }

  private fullOpenTag(name: string, attrs: AttrView, frame: Frame): string {
    let lang: string | undefined;
    if (name === 'pre' || name === 'code') lang = this.codeClass(name, attrs, frame);
    let tag = `<${name}`;
    let sawClass = false;
    for (const [key, value] of attrs.entries()) {
      // Event handlers are script; they have no place in cleaned HTML.
      if (key.startsWith('on')) continue;
      let raw = value;
      if ((key === 'href' && (name === 'a' || name === 'area')) || key === 'src') {
        const resolved = key === 'href' ? this.linkTarget(raw) : this.resolveSrc(raw);
        if (resolved === undefined || SCRIPT_URL.test(resolved)) continue;
        tag += ` ${key}="${escapeAttr(resolved)}"`;
        continue;
      }
      // Script URLs can hide in any URL-valued attribute (action, formaction, poster, ...).
      if (raw.includes(':') && SCRIPT_URL.test(decodeAttr(raw))) continue;
      if (key === 'class' && lang !== undefined) {
        sawClass = true;
        if (!raw.split(/\s+/).includes(`language-${lang}`)) raw = `${raw} language-${lang}`;
      }
      tag += raw === '' ? ` ${key}` : ` ${key}="${requoteRaw(raw)}"`;
    }
    if (lang !== undefined && !sawClass) tag += ` class="language-${lang}"`;
    if (name === 'img' && attrs.get('src') === undefined) {
      const src = this.imageTarget(attrs);
      if (src !== undefined) tag += ` src="${escapeAttr(src)}"`;
    }
    return tag + '>';
  }

  /** Absolute link target, or undefined for script URLs that must not survive into output. */
  private linkTarget(raw: string): string | undefined {
    const url = this.resolve(raw);
    if (url === undefined || (!isHttp(url) && SCRIPT_URL.test(url))) return undefined;
    return url;
  }

  private resolveSrc(raw: string): string | undefined {
    // data: URIs can be hundreds of kilobytes; they need no resolving, only re-quoting.
    const t = raw.trim();
    if (t.startsWith('data:')) return t.includes('&') ? decodeAttr(t) : t;
    return this.resolve(raw);
  }

  private imageTarget(attrs: AttrSource): string | undefined {
    const src = imgSource(attrs);
    if (src !== undefined) return this.resolveSrc(src);
    const srcset = attrs.get('srcset') ?? attrs.get('data-srcset');
    if (srcset === undefined) return undefined;
    const best = bestSrcsetCandidate(srcset);
    return best === undefined ? undefined : this.resolve(best, true);
  }
}

/**
 * Makes a chosen subtree whose root only means something inside its parent (a layout table's
 * cell, a list item) convertible on its own: a cell is unwrapped, rows and items get their
 * container back.
 */
function standalone(html: string, root: string): string {
  switch (root) {
    case 'td':
    case 'th':
      return html.replace(/^<t[dh]\b[^>]*>/, '').replace(/<\/t[dh]>$/, '');
    case 'tr':
    case 'thead':
    case 'tbody':
    case 'tfoot':
      return `<table>${html}</table>`;
    case 'li':
      return `<ul>${html}</ul>`;
    case 'dt':
    case 'dd':
      return `<dl>${html}</dl>`;
    default:
      return html;
  }
}

/** Markdown counterpart of `standalone`: a cell chosen on its own loses its pipes. */
function standaloneMarkdown(md: string, root: string): string {
  return root === 'td' || root === 'th' ? md.replace(/^\| /, '').replace(/ \|$/, '') : md;
}

function dataLanguage(attrs: AttrSource): string | undefined {
  const v = attrs.get('data-lang') ?? attrs.get('data-language');
  if (v === undefined || !/^[\w+#.-]{1,40}$/.test(v)) return undefined;
  return codeLanguage(`language-${v}`);
}

/**
 * Class words of a picture's caption or credit (wp-caption-text, photo-credit, caption). A size
 * after the word (caption-s, caption-md) names a type style of a design system, not a caption.
 */
const CAPTION_NAME = /(?:^|[^a-z])(?:caption|credit)s?(?![a-z0-9]|[-_](?:x*[sml]|sm|md|lg|\d)(?![a-z0-9]))/i;

/** A caption's class word at the end of a camel-case name ("newsCaption", "imgCredit"). */
const CAMEL_CAPTION = /[a-z](?:Caption|Credit)s?(?![a-z])/;

function isCaptionName(cls: string | undefined): boolean {
  return (classFacts(cls) & NAMES_CAPTION) !== 0;
}

/** Marks where an element opened inside a heading being read. */
const PART = '\u0001';

/**
 * Whether a heading introduces a rail: as a whole, or by one of its parts that the markup sets
 * apart (a title and its tagline in spans of their own, "Complete the look" over "Outfit
 * inspiration").
 */
function isRailHeadingParts(raw: string): boolean {
  if (!raw.includes(PART)) return isRailHeading(cleanText(raw));
  if (isRailHeading(cleanText(raw.replaceAll(PART, '')))) return true;
  for (const part of raw.split(PART)) {
    const t = cleanText(part);
    if (t !== '' && isRailHeading(t)) return true;
  }
  return false;
}

/** Class words of a price (price, product-price, priceBlock). */
const PRICE_HINT = /price/i;

/** Elements of a price as shops mark it up: its class names one, or it is the old price struck out or the new one inserted. */
function isShownPrice(name: string, attrs: AttrSource): boolean {
  if (name === 'del' || name === 'ins' || name === 's') return true;
  const cls = attrs.get('class');
  return cls !== undefined && PRICE_HINT.test(cls);
}
/** A price as a card shows it, "$829", "€ 12,99", "12,99 €" (see showsPrice), in a card's text of at most this length. */
const SHOWN_PRICE = /[$€£¥]\s*\d|\d\s*€/;
const SHOWN_PRICE_MAX_TEXT = 300;

/**
 * Whether an element names a price: by class (`facts`, its classFacts), or where shops' markup
 * says so in other attributes (schema.org's itemprop, a test hook, an id).
 */
function namesPrice(facts: number, attrs: AttrView): boolean {
  if (facts & NAMES_PRICE) return true;
  if (attrs.size === 0) return false;
  const prop = attrs.get('itemprop');
  if (prop !== undefined && PRICE_HINT.test(prop)) return true;
  const test = attrs.get('data-testid');
  if (test !== undefined && PRICE_HINT.test(test)) return true;
  const id = attrs.get('id');
  return id !== undefined && PRICE_HINT.test(id);
}

/** Sentence punctuation: . , ; ! ? and their full-width / ideographic forms. */
const PUNCT = /[.,;!?\u3002\uff0c\u3001]/;

/** Input types a visitor types into; option pickers (a product's size, quantity) are not counted. */
const ENTRY_INPUTS: ReadonlySet<string> = new Set(['', 'text', 'email', 'tel', 'password', 'url']);

function isEntryField(attrs: AttrSource): boolean {
  const t = attrs.get('type');
  return t === undefined || ENTRY_INPUTS.has(t.trim().toLowerCase());
}

// What a class list names, as bits: pages repeat a few lists on hundreds of elements, which
// would each be matched against these patterns again.
const NAMES_PRICE = 1;
const NAMES_IMAGE_WRAP = 2;
const NAMES_CAPTION = 4;
const NAMES_SLIDER = 8;
/** Words every code-language convention has in it (see codeLanguage). */
const NAMES_CODE = 16;
const factsOfList = boundedMemo(
  (cls) =>
    (PRICE_HINT.test(cls) ? NAMES_PRICE : 0) |
    (IMAGE_WRAP.test(cls) ? NAMES_IMAGE_WRAP : 0) |
    (CAPTION_NAME.test(cls) ? NAMES_CAPTION : 0) |
    (SLIDER_CLASS.test(cls) ? NAMES_SLIDER : 0) |
    (cls.includes('highlight') || cls.includes('lang') || cls.includes('sourceCode') ? NAMES_CODE : 0),
);

function classFacts(cls: string | undefined): number {
  return cls === undefined ? 0 : factsOfList(cls);
}

/** A block's shape for telling series of like items: its tag and first class word, digits dropped. */
function shapeOf(name: string, cls: string | undefined): string {
  if (cls === undefined) return name;
  const t = cls.trim();
  if (t === '') return name;
  const sp = t.search(/\s/);
  return `${name}.${(sp < 0 ? t : t.slice(0, sp)).replace(/\d+/g, '')}`;
}
