/**
 * The block tree the content pass records as the page streams past (no DOM): each block's extent
 * in the output, the text it holds and what its names hint (a discussion, a teaser rail).
 */
import { boundedMemo } from '../memo.js';
import { codeAt } from './html-util.js';

/** One block element of the cleaned output, in document order (parents before children). */
export interface BlockNode {
  name: string;
  /** Index of the enclosing block node, -1 at the top. */
  parent: number;
  depth: number;
  startChunk: number;
  endChunk: number;
  /** Text directly inside (inline descendants included, child blocks not): outside links. */
  plain: number;
  /** ... and inside links. */
  link: number;
  /** ... and inside links long enough to be item titles or teasers rather than navigation. */
  card: number;
  /** Sentence punctuation in its text (counted until the first chunk that has some): prose has it, menus rarely do. */
  punct: number;
  /** Class/id hint: +1 names content, -1 names furniture, 0 neither. */
  hint: number;
  startH1: number;
  endH1: number;
  /** Tag and first class word: siblings that share it are items of one kind (cards, rows). */
  shape: string;
  /** Previous sibling block and last child block (-1: none), to walk a block's children. */
  prev: number;
  last: number;
  /** Subtree totals, filled in when the block closes: text, link text, images and headings. */
  text: number;
  links: number;
  /** ... the same, marked cards inside included. */
  all: number;
  allLinks: number;
  rich: number;
  /** A price (a block whose class, itemprop, test hook or id names one) is inside it. */
  priced: boolean;
  /** A series whose items show prices in their text though no class names one (product cards). */
  pricesShown: boolean;
  /** Text of the repeated items among its children (see link-rules' repeatedItems), 0 if none. */
  items: number;
  /** ... and their link text. */
  itemLinks: number;
  /** A card left in place for its parent to claim (see link-rules' pruneLinkBlock): unclaimed, it is left out. */
  doomed: boolean;
  /** A series of items, or one of its items, that would have been pruned as mostly links. */
  linky: boolean;
  /** Some block inside it holds a series of items. */
  nested: boolean;
  /** A card one of a series' items holds (see link-rules' repeatedItems): linky, and kept with its series (see pick). */
  claimed: boolean;
  /** A card's title: one link to where the picture before it links (see link-rules' namesPicturedTarget). */
  title: boolean;
  /** A heading whose text opens with a section number (see isNumberedTitle). */
  numbered: boolean;
  /** A labelled line of links or a list the text introduces: the text's own, at its edge too (see link-rules). */
  labelled: boolean;
  /** A tree of links, a table of contents: doomed, and kept where it is the content (see content-keep). */
  outline: boolean;
}

/**
 * A section number opening a title ("4.1.5. Comments", "E.20. Release 15.1", "9. Classes"):
 * numbers and letters each followed by a dot, a last number without one. A headline's figure
 * ("5 things to know") has no dot.
 */
const NUMBERED_TITLE = /^(?:[A-Z]|\d{1,4})\.(?:\d{1,4}\.)*\d{0,4}\s+\S/;

export function isNumberedTitle(text: string): boolean {
  return NUMBERED_TITLE.test(text);
}

/**
 * Whether a heading's raw text (entities undecoded, parts set apart by a control character) may
 * be a numbered title: its first character past spaces and part marks is a capital or a digit,
 * or may decode to one (an entity, a character past ASCII). Most titles are words, and are told
 * so without decoding and cleaning them.
 */
export function mayBeNumberedTitle(raw: string): boolean {
  const n = raw.length;
  for (let i = 0; i < n; i++) {
    const c = codeAt(raw, i);
    if (c <= 32) continue;
    return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 38 || c > 127;
  }
  return false;
}

export interface Selection {
  /** Chunk ranges to keep, in order. */
  ranges: Array<[number, number]>;
  /** Text length kept. */
  text: number;
  h1s: number;
  /** Tag name of the chosen subtree's root. */
  root: string;
  /** The chosen subtree is mostly one series of items (see introduction). */
  series?: boolean;
  /** The page is a shop's category: its largest series is of priced cards (see selectContent). */
  catalogue?: boolean;
}

/**
 * Class/id words of discussion and teaser areas: prose there is not the page's content. A shop's
 * customer reviews are its discussion ("reviews", plural: a review article names itself "review").
 */
const NEGATIVE_WORDS: ReadonlySet<string> = new Set([
  'comment', 'comments', 'commentlist', 'disqus', 'respond', 'replies', 'reply', 'discussion',
  'related', 'recommended', 'trending', 'popular', 'teaser', 'teasers', 'outbrain', 'taboola', 'reviews',
]);
/** ... of those, the words of a discussion (readers' comments, customers' reviews), as opposed to a teaser rail. */
const DISCUSSION_WORDS: ReadonlySet<string> = new Set(['comment', 'comments', 'commentlist', 'disqus', 'respond', 'replies', 'reply', 'discussion', 'reviews']);
const MAYBE_NEGATIVE = /comment|disqus|respond|repl|discussion|related|recommend|trending|popular|teaser|outbrain|taboola|reviews/i;

/** The hint a block passes to its subtree: its own when its class or id names one, else its parent's. */
export function blockHint(attrs: { get(name: string): string | undefined; readonly size?: number }, parentHint: number): number {
  if (attrs.size === 0) return parentHint;
  const own = Math.max(negativeClass(attrs.get('class')), negativeId(attrs.get('id')));
  return own > 0 ? -own : parentHint;
}

/**
 * An id of more words than this is a heading's slug ("respond-to-review-comments" on a section of
 * a manual), which says what the section is about, not what kind of block it is.
 */
const SLUG_WORDS = 4;

function negativeId(v: string | undefined): number {
  if (v === undefined || !MAYBE_NEGATIVE.test(v)) return 0;
  let words = 1;
  for (let i = 0; i < v.length; i++) if (v.charCodeAt(i) === 45 || v.charCodeAt(i) === 95) words++;
  return words > SLUG_WORDS ? 0 : negativeName(v);
}

// A class list repeats on many of a page's blocks: its kind is kept.
const classKind = boundedMemo((v) => negativeName(v));

function negativeClass(v: string | undefined): number {
  return v === undefined ? 0 : classKind(v);
}

/** 0: no negative word; 1: a teaser word; 2: a discussion word (see DISCUSSION). */
function negativeName(v: string | undefined): number {
  if (v === undefined || !MAYBE_NEGATIVE.test(v)) return 0;
  let kind = 0;
  for (const w of v.toLowerCase().split(/[^a-z0-9]+/)) {
    if (DISCUSSION_WORDS.has(w)) return 2;
    if (NEGATIVE_WORDS.has(w)) kind = 1;
  }
  return kind;
}

/** The hint of a block a discussion word names (see blockHint); other negative names give -1. */
export const DISCUSSION = -2;
