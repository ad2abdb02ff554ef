/**
 * Paragraphs that are not the text they sit in: a teaser between paragraphs, the publisher's
 * pitch, a reporting credit, the author's contact line, a picture's caption set by hand.
 */

/** A paragraph at least this long with at least this share of link text is a teaser (see pruneTeaserParagraph). */
export const TEASER_MIN_TEXT = 30;
/** Where a paragraph is an item's own text, not a paragraph of the flow: a list's item, a definition, a table's cell. */
export const ITEM_PARTS: ReadonlySet<string> = new Set(['li', 'td', 'th', 'dd']);
export const TEASER_LINK_SHARE = 0.8;
/** ... and this much text outside links before it in its parent (it stands between paragraphs). */
export const TEASER_CONTEXT = 100;
/** Text runs at least this long, with sentence punctuation and outside links, count as prose. */
export const PROSE_CHUNK = 25;

/**
 * A paragraph that asks the reader to subscribe or follow ("Subscribe to our newsletter", "Get
 * the magazine delivered", "Follow us on Twitter", "Sign up now ...", "Be sure to sign up below",
 * "Join our mailing list") is the publisher's pitch set after or into the story, not its text.
 * Only its opening is read, and only a short paragraph qualifies: a pitch is a line or two, a
 * paragraph of the story that starts so goes on. A newsletter's sign-up may come
 * after a line of lead-in ("There's plenty more where that came from. Sign up for our newsletter").
 */
export const PITCH = /^\s*(?:click here to |please |be sure to )?(?:subscribe (?:to|for|now)\b|sign up (?:for|to|now|today|below|here)\b|join (?:our|my) (?:mailing list|newsletter|email list)\b|get\b.{0,60}?\b(?:delivered|(?:in|to) your inbox)|follow\b.{0,60}?\bon (?:twitter|facebook|instagram|youtube|linkedin|tiktok|social))|\b(?:sign up|subscribe) (?:for|to)\b.{0,50}?\bnewsletters?\b/i;
/**
 * A paragraph that credits the story's reporters and editors ("Reporting by ...; Editing by
 * ...", "Jane Doe contributed to this report.") is its byline, set at its end. Only the
 * paragraph's opening is read (see PITCH_HEAD): a longer credit is missed, not guessed at.
 */
export const CREDIT = /^[\s(*_]*(?:(?:additional |with )?reporting by|editing by|writing by)\b|\bcontributed (?:to this (?:report|story)|reporting)\b/i;
/**
 * A short paragraph telling how to reach or follow the author ("Jane Doe may be reached at ...",
 * "Email Jane at ... or follow her on Twitter") is the author's box without its class name. An
 * email address alone does not tell it: a page's own instructions say "email us at".
 */
export const CONTACT = /\b(?:can|may) be reached at\b|\bfollow (?:him|her|them|me)\b.{0,20}?(?:\bon (?:twitter|facebook|instagram|linkedin)\b|@\w)/i;
/** How much of a paragraph's opening PITCH reads, and the longest pitch. */
export const PITCH_HEAD = 96;
export const PITCH_MAX = 320;
/** The longest italic line under a picture taken for its caption (see isItalicCaption). */
export const ITALIC_CAPTION_MAX = 200;

export const WRAPPED_CAPTION_MAX = 300;
