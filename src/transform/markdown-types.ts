/**
 * What the markdown writer is told of an element, what each element does in markdown, and the
 * state the writer keeps and restores.
 */

/** What the content pass knows about an element that the markdown needs. */
export interface MdOpen {
  /** Absolute link target (a) or image source (img); undefined when there is none usable. */
  url?: string;
  /** Raw (entity-encoded) alt text of an image. */
  alt?: string;
  /** Code language of a pre. */
  lang?: string;
  /** Start number of an ordered list. */
  start?: number;
  /** Column span of a table cell. */
  colspan?: number;
}

/** A container whose lines carry a prefix: the document, a list item, a quote, a definition. */
export interface Container {
  /** Prefix of its continuation lines. */
  cont: string;
  /** Prefix of its first line (a list marker), when different. */
  marker: string | undefined;
}

/** An open inline marker pair; `at` is the chunk index of its opener once written, else -1. */
export interface Inline {
  kind: number;
  open: string;
  url: string;
  at: number;
  /** Longest backtick run inside a code span. */
  ticks: number;
  /** For a link: chunk indices of the images with alt text inside it, and whether it has text of its own. */
  images?: number[];
  words?: boolean;
}

export interface ListState {
  ordered: boolean;
  next: number;
}

export interface TableState {
  rows: number;
  cells: number;
  rowOpen: boolean;
}

/** Writer state to restore when the content pass removes a just-closed element. */
export interface MdMark {
  sep: number;
  sepPrefix: string;
  space: boolean;
  lineStart: boolean;
  fresh: number;
  flushed: number;
  cells: number;
  rows: number;
  rowOpen: boolean;
  heading: string;
  cellBreak: boolean;
  lineBreak: boolean;
}

// What each element does; anything else is transparent inline (its text flows through).
export const BLOCK = 1;
export const HEADING = 2;
export const LIST = 3;
export const ITEM = 4;
export const QUOTE = 5;
export const PRE = 6;
export const TABLE = 7;
export const ROW = 8;
export const CELL = 9;
export const STRONG = 10;
export const EMPH = 11;
export const CODE = 12;
export const STRIKE = 13;
export const LINK = 14;
export const IMAGE = 15;
export const BREAK = 16;
export const RULE = 17;
export const TERM = 18;
export const DEFINITION = 19;
export const DEFLIST = 20;

export const KINDS: ReadonlyMap<string, number> = new Map([
  ...[
    'p', 'div', 'section', 'article', 'main', 'header', 'footer', 'aside', 'nav', 'form', 'fieldset', 'figure',
    'figcaption', 'details', 'summary', 'address', 'center', 'hgroup', 'caption', 'body', 'html', 'legend',
    'search', 'dialog', 'menu', 'noscript', 'frameset',
  ].map((t): [string, number] => [t, BLOCK]),
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((t): [string, number] => [t, HEADING]),
  ['ul', LIST],
  ['ol', LIST],
  ['li', ITEM],
  ['blockquote', QUOTE],
  ['pre', PRE],
  ['listing', PRE],
  ['xmp', PRE],
  ['plaintext', PRE],
  ['table', TABLE],
  ['tr', ROW],
  ['td', CELL],
  ['th', CELL],
  ['strong', STRONG],
  ['b', STRONG],
  ['em', EMPH],
  ['i', EMPH],
  ['code', CODE],
  ['kbd', CODE],
  ['samp', CODE],
  ['tt', CODE],
  ['del', STRIKE],
  ['s', STRIKE],
  ['strike', STRIKE],
  ['a', LINK],
  ['img', IMAGE],
  ['br', BREAK],
  ['hr', RULE],
  ['dt', TERM],
  ['dd', DEFINITION],
  ['dl', DEFLIST],
]);

// ASCII-only classes keep these regexes on V8's fast path; no-break spaces are replaced first.
// Only whitespace a browser would render otherwise matches, not each single space between words:
// a replacement per word costs more than the rest of writing the text.
export const SPACE_RUN = /[\t\n\r\f][ \t\n\r\f]*| [ \t\n\r\f]+/g;
export const NBSP = /\u00a0/g;
// Alt text holds escaped brackets (`\[`, `\]`) but no bare closing one.
export const ALT = /^!\[(?:\\.|[^\]\\])*\]/;
/** A link to a picture file (a larger copy of the picture it wraps), by its path's extension. */
export const IMAGE_FILE = /\.(?:jpe?g|png|gif|webp|avif|svg)(?:[?#].*)?$/i;

export function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 0xa0;
}

export function longestRun(s: string, ch: string, prev: number): number {
  let best = prev;
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === ch) {
      run++;
      if (run > best) best = run;
    } else run = 0;
  }
  return best;
}
