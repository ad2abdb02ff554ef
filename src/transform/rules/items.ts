/**
 * A series of like items (a product grid, a listing, a feed) and the parts of one item: its
 * title, its line of facts, its tags, its button, its price.
 */

/**
 * A series of items (see repeatedItems): at least this many siblings of one shape, this share of
 * them with an image, a heading or unlinked text, this much text each on average.
 */
export const ITEM_MIN = 3;
export const ITEM_RICH_SHARE = 0.5;
export const ITEM_MIN_TEXT = 20;
/** A list of bare links is a series of items only this long, and this much of its text linked (see repeatedItems). */
export const LINK_LIST_MIN = 15;
export const LINK_LIST_SHARE = 0.8;
export const LINK_LIST_TEXT = 200;
/**
 * Class words of menus: their columns and entries repeat like items (and are only seen when the
 * boilerplate rules are off, see ContentOptions.lenient, or inside a landmark).
 */
export const MENU_SHAPE = /menu|nav|dropdown/i;

/** How far above a post's <article> its list item may sit: the item may wrap it in one layout block. */
export const LISTED_ARTICLE_DEPTH = 2;

/**
 * A card's title names a thing in a few words ("Roc Loc 5 LED Light"); a word or two beside a
 * picture's link is its button ("Start course", "Shop") or a label.
 */
export const CARD_TITLE_MIN_WORDS = 3;
/**
 * A line of an item that is only a link or two (a book's author, a post's date, its tags, a
 * rating's count) is at most this long; a longer one is a list of links of its own.
 */
export const ITEM_LINE_MAX = 50;
/** ... unless it is a row of tags: at least this many links, this long on average, this long in all. */
export const TAG_LIST_MIN = 3;
export const TAG_MAX = 20;
export const TAG_LIST_MAX = 300;
/**
 * ... and one whose link opens with a verb is the item's button ("Add to cart", "Apply now",
 * "Get started", "View map"), not one of its facts.
 */
export const ITEM_ACTION = /^\s*(?:add to|apply|buy|book|get|order|shop|start|view|visit|read|see|learn|explore|discover|download|sign|join|register|subscribe|contact|request|try|watch|compare|select|choose|more|details)\b/i;
/** Tags items are built from; paragraphs (an article's body is a run of them) are not items. */
export const ITEM_TAGS: ReadonlySet<string> = new Set(['li', 'article', 'div', 'section', 'tr', 'figure', 'dl']);

/** A price as a card shows it, "$829", "€ 12,99", "12,99 €" (see showsPrice), in a card's text of at most this length. */
export const SHOWN_PRICE = /[$€£¥]\s*\d|\d\s*€/;
export const SHOWN_PRICE_MAX_TEXT = 300;
