/**
 * Blocks that hold only a word or two the software prints, not the page's text: a script's
 * "Loading..." placeholder, an ad slot's label, a gallery's control, a poster's record, a reply
 * counter, a notice that scripts are off.
 */
import { codeAt } from '../html-util.js';

// "Loading reviews..." names what was to come; a word or two after "loading" only with the
// ellipsis ("Loading dock" is a heading like any other).
export const LOADING = /^\s*loading(?:\s*(?:\.{1,3}|…)|(?:\s+[\p{L}_-]+){1,2}\s*(?:\.{3}|…))?\s*$/iu;
export const LOADING_MAX = 40;
/** A cheap test first, on the first letter: most short texts are not placeholders. */
export function mayBeLoading(text: string): boolean {
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
export const AD_LABEL = /^[\s\p{P}\p{S}]*(?:advertisements?|adverts?|ads?|sponsored|publicidade|publicidad|publicit[ée]|pubblicit[àa]|anzeige|werbung|advertentie|reklama|реклама|iklan|광고|広告)[\s\p{P}\p{S}]*$/iu;
/**
 * A line of a forum poster's panel: how many posts, when they joined ("Posts: 1,077", "Join Date:
 * Aug 2008", "Registered: 2024-01-27"), whether they are on line now ("Offline"), alone in its
 * block: the poster's record, not the post.
 * Only a count or a date after the name: "Registered: trademark of ..." is a sentence.
 */
export const MEMBER_STAT = /^\s*(?:online|offline|(?:posts|messages|reaction score)\s*:\s*[\d.,]+k?|(?:join(?:ed)?(?: date)?|registered|member since)\s*:\s*(?:\d|[a-z]{3,9}\.? \d)[^:]*)\s*$/i;
/**
 * A heading that only counts the replies below it ("6 Answers", "12 Comments"): a tally the
 * software prints over the posts, not a title of the page's text. A count's digits are grouped
 * in thousands: "4.1.5. Comments" numbers a section of a manual.
 */
export const COUNT_HEADING = /^\s*\d{1,3}(?:[,.]\d{3})*\s+(?:answers?|repl(?:y|ies)|comments?|responses?)\s*$/i;

/** A counter's parts sit in elements of their own, with the markup's whitespace between them. */
export const LABEL_MAX = 64;
/** Blocks that stand alone as a slot's label or a gallery's control (see isLabel). */
export const LABEL_BLOCKS: ReadonlySet<string> = new Set(['div', 'p', 'center', 'section', 'aside', 'figure', 'header']);

/**
 * A gallery's or slider's controls, when they are text: its counter ("Image 1 of 8", "Photo 3 / 12")
 * and its buttons built from plain elements ("Caption", "Close", "Next"), a collapsed text's
 * toggle ("Read more", "Show less") and a comment counter ("12 Comments", the button that opens
 * them), alone in a div or a paragraph and not a link. A heading, a
 * list's term or a table's cell with such a word is the text's ("Next" steps, a "close" event, a
 * column of closing prices).
 */
export const SLIDE_CONTROL = /^\s*(?:(?:image|photo|picture|slide|foto|bild)\s*\d+\s*(?:of|\/|de|von|di|sur)\s*\/?\s*\d+|(?:show |hide |toggle )?captions?|close|enlarge|expand|full ?screen|prev(?:ious)?|next|(?:read|show|see|load) (?:more|less)|\d*\s*comments?)\s*$/i;

/** A notice that the page needs scripts: to enable or turn them on, or that they are off or required. */
export const JS_NOTICE = /\b(?:enable|enabling|turn on|activate|allow)\s+(?:your\s+)?javascript\b|\bjavascript\s+(?:is\s+|must\s+be\s+)?(?:required|disabled|enabled|turned off|switched off)\b|\brequires?\s+javascript\b/i;
/** Longest <noscript> text taken for such a notice; one with more holds a page of its own. */
export const JS_NOTICE_MAX = 200;
