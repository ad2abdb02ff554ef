/** Links that are navigation or a button rather than words of the text: thresholds and phrases. */

// A block is pruned when over half its text is link text and under this much is not: chosen on
// the aggregate of both datasets (WCXB word F1 and Scrapinghub shingle F1), not page by page.
export const LINK_DENSITY_MAX = 0.5;
export const LINK_BLOCK_MIN_PROSE = 200;

/**
 * A link with at least this much text is an item title or teaser (a card in a listing, a post
 * in a feed), not navigation: it neither makes its block link-dense nor votes against it.
 */
export const LONG_LINK_TEXT = 100;

/**
 * A link's whole text that only invites a click (see isCallToAction), and the longest such text.
 * Generic phrases only: what a link says about its own target ("Pricing", "Contact us") stays.
 * A skip link ("Skip to content", "Skip listing") jumps a keyboard user past a block: a control.
 */
export const CTA_MAX = 40;
export const CTA = /^\s*(?:read (?:more|the full (?:article|story|post|review)|full (?:article|story|post|review))|continue reading|learn more|find out more|see (?:more|all|details)|view (?:more|all|details)|show (?:more|all)|load more|shop (?:now|all)|buy now|apply now|discover more|explore more|more|watch (?:the )?demo|start (?:for free|(?:a |your )?free trial)|read the (?:full )?case study|skip (?:to\b.{1,30}|listing|carousel))\s*(?:[.…›»→>]+)?\s*$/i;
