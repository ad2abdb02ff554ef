/**
 * Plain text from a page's markdown, cut into sentences and words: what the offline summary,
 * highlights and question answering rank. Kept verbatim (no rewording): every passage these
 * algorithms return is a quote from the page.
 */
import { PageTerms, ShortWords } from './page-words.js';

export interface Sentence {
  text: string;
  /** Position in the page, from 0. */
  index: number;
  /** Index of the paragraph (block) the sentence belongs to. */
  block: number;
  heading: boolean;
}

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our out she so than that the their them then there these they this those to too up us was we ' +
    'were what when where which while who whom why will with would you your yours about after all also any because before ' +
    'being between both each few more most other over own same should some such through under until very just only'
  ).split(' '),
);

const MARKUP = /[![\]<*_`|\\]|\s\s/;
/** A backslash escape: markdown's way of writing punctuation that would read as markup. */
const ESCAPED = /\\([!-/:-@[-`{-~])/g;

const LINK_OR_MARK = /!?\[([^\]]*)\]\([^)]*\)|\*\*|__|`/g;
/**
 * An HTML tag; or a code span or an escape, in which what looks like a tag is text
 * (`Option<T>`, \<name>). Only a letter or a slash after `<` makes a tag: `<=`, `<->` and
 * `< prev` are text.
 */
const TAG_OR_TEXT = /`[^`]*`|\\.|<\/?[A-Za-z][^<>]*>/g;
const HAS_TAG = /<\/?[A-Za-z]/;
/**
 * Whether a line holds blanks to close up: two spaces, a tab or a no-break space, the blanks that
 * markup or HTML leave (rarer ones, such as thin spaces, stay as the page has them). Three plain
 * searches: a pattern for any blank but a single space, tried at every character, cost a tenth
 * of the cut.
 */
const isLoose = (s: string) => s.includes('  ') || s.includes('\t') || s.includes('\u00a0');

const MARKS = /\*\*|__|`/g;

/**
 * Links and images to their text, bold and code marks out. Without a link the simpler patterns
 * do it: a third of the lines with markup hold only code marks, another third only emphasis, and
 * the link pattern, tried at every character, cost a quarter of the whole cut.
 */
function stripLinksAndMarks(line: string): string {
  if (line.includes('[')) return line.replace(LINK_OR_MARK, '$1');
  // Single * and _ are emphasis, or a name's underscores: only their pairs are marks here.
  if (line.includes('**') || line.includes('__')) return line.replace(MARKS, '');
  return line.includes('`') ? line.replaceAll('`', '') : line;
}

/**
 * Whether `mark` stands at the start of the line or after a space: where emphasis can open. Most
 * underscores are inside names (pg_class), and the emphasis pattern, tried at every character of
 * such a line, cost more than this look at each underscore.
 */
function opensEmphasis(line: string, mark: string): boolean {
  for (let i = line.indexOf(mark); i >= 0; i = line.indexOf(mark, i + 1)) {
    if (i === 0 || /\s/.test(line[i - 1]!)) return true;
  }
  return false;
}

/** Markdown syntax out, words and punctuation kept. */
export function inlineText(line: string): string {
  // Most prose lines carry no markup: skip the rewrites for them (this runs on every line of a page).
  if (!MARKUP.test(line)) return line;
  // Tags to a space (rare: a call back per match keeps code spans and escapes as they are), then
  // links and images to their text, bold and code marks out.
  let out = stripLinksAndMarks(line.includes('<') && HAS_TAG.test(line) ? line.replace(TAG_OR_TEXT, (m) => (m[0] === '<' ? ' ' : m)) : line);
  // A link's text comes out as written, the only place marks can be left: they go too.
  if (line.includes('[') && (out.includes('`') || out.includes('**') || out.includes('__'))) out = out.replace(MARKS, '');
  if (opensEmphasis(out, '*') || opensEmphasis(out, '_')) out = out.replace(/(^|\s)[*_](\S[^*_]*\S|\S)[*_](?=\s|[.,;:!?]|$)/g, '$1$2');
  // Last: an escaped mark is the character itself, not markup for the patterns above.
  if (out.includes('\\')) out = out.replace(ESCAPED, '$1');
  if (out.includes('|')) out = out.replace(/\s*\|\s*/g, ' | ');
  return (isLoose(out) ? out.replace(/\s+/g, ' ') : out).trim();
}

/** An end mark, perhaps a closing quote or bracket, and the spaces after them. */
const END_AND_SPACES = /[.!?]["')\]]?\s+/g;
const SENTENCE_START = /["'([]?[\p{Lu}\p{N}]/uy;
const isCloser = (c: number) => c === 34 || c === 39 || c === 41 || c === 93;

/**
 * A line cut where a sentence ends: at a run of spaces after `.`, `!` or `?` (and perhaps a closing
 * quote or bracket) and before a capital or a digit (perhaps after an opening quote or bracket).
 * What one split on a lookbehind pattern gives, found from the end marks alone: that pattern,
 * tried at every character of every line with a full stop, cost more than the rest of the cut.
 */
function splitSentences(text: string): string[] {
  const parts: string[] = [];
  let from = 0;
  END_AND_SPACES.lastIndex = 0;
  for (let m = END_AND_SPACES.exec(text); m; m = END_AND_SPACES.exec(text)) {
    const next = m.index + m[0].length;
    SENTENCE_START.lastIndex = next;
    if (!SENTENCE_START.test(text)) continue;
    parts.push(text.slice(from, m.index + (isCloser(text.charCodeAt(m.index + 1)) ? 2 : 1)));
    from = next;
  }
  parts.push(text.slice(from));
  return parts;
}

/**
 * After a full stop, exclamation or question mark of Chinese or Japanese (and a closing bracket
 * or quote after it): a sentence ends there, with no space or capital to follow.
 */
const UNSPACED_END = /(?<=[。！？][」』）〕】]?)(?![」』）〕】]|$)/u;

/** A line's sentences: the cut at end marks and spaces, then at the end marks of unspaced scripts. */
function lineSentences(text: string): string[] {
  const parts = splitSentences(text);
  return /[。！？]/.test(text) ? parts.flatMap((p) => p.split(UNSPACED_END)) : parts;
}

/** Sentences run together as text: after a Chinese or Japanese end mark, with no space. */
export function joinSentences(texts: readonly string[]): string {
  let out = texts[0] ?? '';
  for (let i = 1; i < texts.length; i++) out += (/[。！？」』）〕】]$/.test(out) ? '' : ' ') + texts[i];
  return out;
}

/** Sentences of a markdown page in reading order; code blocks and table rulers left out. */
export function sentences(markdown: string): Sentence[] {
  const out: Sentence[] = [];
  let block = 0;
  let inCode = false;
  let lastBlank = true;
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('```') || line.startsWith('~~~')) {
      inCode = !inCode;
      continue;
    }
    if (inCode) continue;
    if (!line) {
      if (!lastBlank) block++;
      lastBlank = true;
      continue;
    }
    lastBlank = false;
    const first = line.charCodeAt(0);
    // `|`, `-`, `*`, `#`, `>`, `+`, digits: the only lines that may carry block markup.
    const marked = first === 124 || first === 45 || first === 42 || first === 35 || first === 62 || first === 43 || (first >= 48 && first <= 57);
    if (marked && (/^\|?\s*:?-{3,}/.test(line) || /^(-{3,}|\*{3,})$/.test(line))) continue;
    const heading = first === 35 && /^#{1,6}\s/.test(line);
    let bare = marked ? line.replace(/^#{1,6}\s+/, '').replace(/^([-*+]|\d+[.)])\s+/, '').replace(/^>\s?/, '') : line;
    // A table row's cells, without the pipes at its edges (the last is a cell's when escaped).
    if (first === 124) bare = bare.slice(1, bare.endsWith('|') && !bare.endsWith('\\|') ? -1 : undefined).trim();
    const text = inlineText(bare);
    if (!text) continue;
    if (heading) {
      out.push({ text, index: out.length, block, heading: true });
      block++;
      continue;
    }
    // Most lines hold one sentence or a fragment: split only where an end mark meets a space.
    if (!/[.!?]["')\]]?\s|[。！？]./.test(text)) {
      out.push({ text, index: out.length, block, heading: false });
      continue;
    }
    for (const part of lineSentences(text)) {
      const t = part.trim();
      if (t) out.push({ text: t, index: out.length, block, heading: false });
    }
  }
  return out;
}

/** A crude English stem: enough to let "baking" meet "bake" and "ovens" meet "oven". */
function stem(w: string): string {
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  if (w.length > 4 && w.endsWith('e')) return w.slice(0, -1);
  return w;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'_-]*/gu;
const NOT_ASCII_WORD = /[^a-z0-9'_-]+/;
const NON_ASCII = /[\u0080-\uffff]/;

/** Content words, lower-cased and stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of unicodeWords(text)) {
    const term = termOf(w);
    if (term !== undefined) out.push(term);
  }
  return out;
}

/**
 * A page's sentences with their terms as numbers (one vocabulary per page): worked out once, read
 * by the summary and the passages, which then count with arrays instead of string maps.
 */
export interface PageText {
  sentences: Sentence[];
  /**
   * The ids of every sentence's terms, one sentence after another: sentence i's are from
   * bounds[i] to bounds[i + 1]. One array and its bounds, not a view per sentence: creating the
   * views cost as much as the summary's scoring.
   */
  ids: Int32Array;
  bounds: Int32Array;
  /** How many terms the page has: ids run from 0 to this, less one. */
  termCount: number;
  /** The two hashes each id's term is known by (page-words.ts), side by side. */
  keys: Int32Array;
}

/** The ids of sentence i's terms. */
export const idsOf = (page: PageText, i: number): Int32Array => page.ids.subarray(page.bounds[i], page.bounds[i + 1]);

/** The id of a term (as `terms` gives it) on the page; -1 when the page does not use it. */
export function termId(page: PageText, term: string): number {
  const [h, h2] = pageTerms.keyOf(term);
  for (let id = 0; id < page.termCount; id++) if (page.keys[2 * id] === h && page.keys[2 * id + 1] === h2) return id;
  return -1;
}

/** Han, Hiragana and Katakana: scripts written without spaces between words. */
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
/** Word breaks by ICU's dictionary for Chinese and Japanese (one dictionary serves both). */
const unspacedWords = new Intl.Segmenter('ja', { granularity: 'word' });
/** Words of two characters or more that carry no subject: particles, copulas, pronouns. */
const UNSPACED_STOPWORDS = new Set(
  ('です ます まで から より など こと もの この その あの ため よう して した する ある いる なる れる られる ない ' +
    '我们 你们 他们 这个 那个 因为 所以 但是 可以 没有 就是 还是 已经 什么 一个 这些 那些 如果 自己').split(' '),
);

/** The lower-cased words of text, which lower-casing may turn from non-ASCII to ASCII. */
function unicodeWords(text: string): string[] {
  const lower = text.toLowerCase();
  // ASCII text (most of the web's technical prose) splits on a plain class, far cheaper than
  // the Unicode word pattern.
  if (!NON_ASCII.test(lower)) return lower.split(NOT_ASCII_WORD);
  if (!UNSPACED.test(lower)) return lower.match(WORD) ?? [];
  const out: string[] = [];
  for (const s of unspacedWords.segment(lower)) if (s.isWordLike && !UNSPACED_STOPWORDS.has(s.segment)) out.push(s.segment);
  return out;
}

/** The term a lower-cased word counts as; undefined for a stopword or what is no word. */
function termOf(w: string): string | undefined {
  // The ASCII split leaves words that start with ' _ or -: not words.
  const c = w.charCodeAt(0);
  return w.length < 2 || c === 39 || c === 95 || c === 45 || STOPWORDS.has(w) ? undefined : stem(w);
}

const pageTerms = new PageTerms();
const stopwords = new ShortWords(STOPWORDS);

/** Per character code: 1 when it is neither letter nor digit and lower-casing leaves it as it is. */
const inert = new Uint8Array(0x10000);
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
function isInert(c: number): boolean {
  // Half of a surrogate pair may be half of a letter.
  if (c >= 0xd800 && c <= 0xdfff) return false;
  if (inert[c] === 0) {
    const ch = String.fromCharCode(c);
    inert[c] = LETTER_OR_DIGIT.test(ch) || ch.toLowerCase() !== ch ? 2 : 1;
  }
  return inert[c] === 1;
}

/** Letters, digits and ' _ -: the characters an ASCII word is made of. */
const wordChar = new Uint8Array(128);
for (let c = 0; c < 128; c++) wordChar[c] = /[A-Za-z0-9'_-]/.test(String.fromCharCode(c)) ? 1 : 0;
/** ' _ -: a word's characters that are neither letters nor digits. */
const isMark = (c: number) => c === 39 || c === 95 || c === 45;

const encoder = new TextEncoder();
/** The UTF-8 bytes of the sentence being read. */
let bytes = new Uint8Array(1024);

/**
 * The ids of the page being read, copied out at its end into one array: an array of its own per
 * sentence cost as much as reading its words.
 */
let scratch: Int32Array = new Int32Array(1024);
const grown = (a: Int32Array): Int32Array => {
  const next = new Int32Array(a.length * 2);
  next.set(a);
  return next;
};

/**
 * Appends the ids of a sentence's terms to `scratch` from `from`; returns where they end. Its
 * words are runs of ASCII letters, digits and ' _ -, read from its bytes. In ASCII text a run
 * that starts with ' _ or - is no word; where the text also holds non-ASCII characters, all of
 * them neither letters nor digits (arrows, dashes, curly quotes), a word starts at the run's
 * first letter or digit, as the Unicode word pattern reads it. Text with other non-ASCII
 * characters goes through that pattern.
 */
function sentenceIds(text: string, from: number): number {
  let n = from;
  let unicode = false;
  // Non-ASCII characters become bytes from 128 up: not word characters, as the pattern reads them.
  if (bytes.length < text.length * 3) bytes = new Uint8Array(text.length * 3);
  const len = encoder.encodeInto(text, bytes).written;
  // One byte a character: all ASCII.
  if (len !== text.length) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 128 && !isInert(c)) {
        for (const w of unicodeWords(text)) {
          const term = w ? termOf(w) : undefined;
          if (term === undefined) continue;
          if (n === scratch.length) scratch = grown(scratch);
          scratch[n++] = pageTerms.idOfTerm(term);
        }
        return n;
      }
    }
    unicode = true;
  }
  // Locals, not the module's bindings: each read of those is checked for initialisation.
  const b = bytes;
  const chars = wordChar;
  const words = pageTerms;
  const stops = stopwords;
  let out = scratch;
  let i = 0;
  while (i < len) {
    let c = b[i]!;
    if (c >= 128 || chars[c] === 0) {
      i++;
      continue;
    }
    let start = i;
    if (isMark(c)) {
      if (!unicode) {
        // Not a word: skip the run.
        while (i < len && (c = b[i]!) < 128 && chars[c] === 1) i++;
        continue;
      }
      while (i < len && isMark(b[i]!)) i++;
      start = i;
    }
    while (i < len && (c = b[i]!) < 128 && chars[c] === 1) i++;
    // Single letters and digits are no terms.
    if (i - start < 2 || stops.has(b, start, i - start)) continue;
    if (n === out.length) scratch = out = grown(out);
    out[n++] = words.idOfAsciiWord(b, start, i - start);
  }
  return n;
}

export function analyse(markdown: string): PageText {
  const list = sentences(markdown);
  pageTerms.begin();
  const bounds = new Int32Array(list.length + 1);
  let end = 0;
  for (let i = 0; i < list.length; i++) {
    const s = list[i]!;
    if (!s.heading) end = sentenceIds(s.text, end);
    bounds[i + 1] = end;
  }
  return { sentences: list, ids: scratch.slice(0, end), bounds, termCount: pageTerms.size, keys: pageTerms.pageKeys() };
}
