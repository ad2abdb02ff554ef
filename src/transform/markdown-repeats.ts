/**
 * The markdown's last tidying on the main content: text and pictures that a template renders
 * twice (a slider's cloned slides, a tab and its accordion twin, a gallery's thumbnails) are
 * said once.
 */
import { codeAt, holds } from './html-util.js';
import { isSpace } from './markdown-types.js';
import { Int32Scratch, Uint8Scratch } from './scratch.js';

// Per-line tables of the passes below, one scratch each (see scratch.ts).
const IMAGE_DROP = new Uint8Scratch();
const KEPT = new Uint8Scratch();
const WORDS = new Int32Scratch();
const ORDINAL = new Int32Scratch();
const COPY_OF = new Int32Scratch();
const LINE_DROP = new Uint8Scratch();

// A repeated line is dropped when it is long enough to be a sentence of its own, or when it
// belongs to a run of repeated lines (a whole slide or tab panel rendered twice). A short line
// repeated alone ("Plan to spend: $10", a question put to each interviewee) is the content's own
// pattern. The copy must follow its original closely: a template's twin sits next to the first
// rendering, while a text that restates an earlier passage (a summary, plan B beside plan A) is
// further on. Further on, only a copy of several sentences in their order is a twin (a thread's
// first post shown again, a mobile layout's text after the desktop one's): a restatement does not
// copy a passage line for line. List items repeat by nature (the same feature in two products'
// spec lists), as do code and table rows and a reference's descriptions of its entries (see
// described-spans.ts).
const REPEAT_LONG_WORDS = 12;
const REPEAT_RUN = 3;
const REPEAT_MIN_WORDS = 2;
const REPEAT_WINDOW = 25;
/** A copy further on this many lines long, line for line, is a twin however short its lines (a menu of topics rendered again). */
const REPEAT_CHAIN = 10;
// (A fence inside a block quote, "> ```", is one too: a manual's indented example.)
const FENCE_LINE = /^\s*(?:>\s?)*(?:```|~~~)/;
const LIST_ITEM = /^(?:[-*+]|\d+[.)])\s/;

/** An image as the writer writes it, `![alt](src)`; and a link left with nothing but dropped images in it. */
const IMAGE_MD = /!\[((?:\\.|[^\\\]])*)\]\([^)\s]*\)/g;
const DROPPED = '\u0001';
const EMPTIED_LINK = new RegExp(`\\[${DROPPED}+\\]\\([^)\\s]*\\)`, 'g');
const BARE_ITEM = /^\s*(?:[-*+]|\d+[.)])?\s*$/;

/**
 * Drops images whose alt text repeats one written before: a gallery's thumbnails, a slider's
 * cloned slides and a swatch shown twice are the same picture again and say nothing new. (A
 * picture without alt text says nothing either way, and stays.) A line left empty goes too,
 * unless it opens a list item whose text follows on the next lines.
 */
export function withoutRepeatedImages(md: string): string {
  if (!md.includes('![')) return md;
  const seen = new Set<string>();
  const lines = md.split('\n');
  const drop = IMAGE_DROP.take(lines.length);
  let fence = false;
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isFenceLine(line)) {
      fence = !fence;
      continue;
    }
    if (fence || !holds(line, '![')) continue;
    let cut = false;
    let next = line.replace(IMAGE_MD, (m: string, alt: string) => {
      const key = alt.trim().toLowerCase();
      if (key === '') return m;
      if (!seen.has(key)) {
        seen.add(key);
        return m;
      }
      cut = true;
      return DROPPED;
    });
    if (!cut) continue;
    // A link that held only dropped pictures goes with them; one with text of its own stays.
    next = next.replace(EMPTIED_LINK, '').replaceAll(DROPPED, '');
    const indent = line.length - line.trimStart().length;
    next = line.slice(0, indent) + next.slice(indent).trimStart();
    changed = true;
    const following = lines[i + 1];
    const continued = following !== undefined && following.charCodeAt(0) === 32 && following.trim() !== '';
    if (BARE_ITEM.test(next) && !continued) drop[i] = 1;
    else lines[i] = next.trimEnd();
  }
  if (!changed) return md;
  const out: string[] = [];
  let dropped = false;
  for (let i = 0; i < lines.length; i++) {
    if (drop[i] === 1) {
      dropped = true;
      continue;
    }
    const line = lines[i]!;
    // Blank lines on both sides of a dropped one are one separator.
    if (dropped && line.trim() === '' && out.length > 0 && out[out.length - 1]!.trim() === '') continue;
    if (line.trim() !== '') dropped = false;
    out.push(line);
  }
  return out.join('\n').replace(/^\n+/, '').replace(/\n+$/, '');
}

/** Which lines start inside one of the character spans (in order, not overlapping). */
function keptLines(lines: readonly string[], spans: ReadonlyArray<readonly [number, number]>): Uint8Array {
  const kept = KEPT.take(lines.length);
  let offset = 0;
  let s = 0;
  for (let i = 0; i < lines.length && s < spans.length; i++) {
    while (s < spans.length && spans[s]![1] <= offset) s++;
    if (s < spans.length && offset >= spans[s]![0]) kept[i] = 1;
    offset += lines[i]!.length + 1;
  }
  return kept;
}

/** Whether a line opens or closes a fenced code block (only one that starts with a backtick, a tilde, indentation or a quote's marker can). */
function isFenceLine(line: string): boolean {
  if (line === '') return false;
  const c = codeAt(line, 0);
  return (c === 96 || c === 126 || c === 32 || c === 62) && FENCE_LINE.test(line);
}

/**
 * The content without the lines and the lists that templates render twice (see
 * withoutRepeatedLines and withoutRepeatedLists), split into lines once for both.
 */
export function withoutRepeatedText(md: string, keep?: ReadonlyArray<readonly [number, number]>): string {
  const lines = md.split('\n');
  const kept = withoutRepeatedLists(withoutRepeatedLines(lines, keep === undefined ? undefined : keptLines(lines, keep)));
  return kept === lines ? md : kept.join('\n');
}

/**
 * Drops lines of the content that repeat a line shortly before them word for word: templates
 * render a slider's slides, a description's tabs or a mobile and a desktop layout of the same
 * text twice, and a reader sees it once. Returns `lines` itself when none goes.
 */
function withoutRepeatedLines(lines: string[], kept?: Uint8Array): string[] {
  // Per line: its text (undefined for blank, code, table and list lines), its position among the
  // lines that have one, the position of its first copy if it repeats one, and its word count.
  const keys: Array<string | undefined> = new Array<string | undefined>(lines.length);
  const words = WORDS.take(lines.length);
  const ordinal = ORDINAL.take(lines.length);
  const copyOf = COPY_OF.take(lines.length).fill(-1);
  const firstAt = new Map<string, number>();
  let nth = 0;
  let fence = false;
  let any = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isFenceLine(line)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    const key = lineText(line);
    if (key === '' || codeAt(key, 0) === 124 || isListItemLine(key) || (kept !== undefined && kept[i] === 1)) continue;
    keys[i] = key;
    ordinal[i] = nth++;
    const first = firstAt.get(key);
    if (first === undefined) firstAt.set(key, ordinal[i]!);
    else {
      // Words are only counted where they matter: in the lines that repeat.
      words[i] = countWords(key);
      copyOf[i] = first;
      any = true;
    }
  }
  if (!any) return lines;
  const drop = LINE_DROP.take(lines.length);
  let dropped = false;
  for (let i = 0; i < lines.length; ) {
    if (copyOf[i]! < 0) {
      i++;
      continue;
    }
    // A run of repeats: consecutive repeated lines, blank lines between them allowed.
    const members: number[] = [];
    let j = i;
    for (; j < lines.length; j++) {
      if (copyOf[j]! >= 0) members.push(j);
      else if (keys[j] !== undefined || lines[j]!.trim() !== '') break;
    }
    // A copy further back is a twin only when it copies at least REPEAT_RUN sentences of the
    // original, or REPEAT_CHAIN lines, in their order (see above); a card's title repeats when a
    // listing lists it again.
    for (let a = 0; a < members.length; ) {
      let b = a + 1;
      while (b < members.length && copyOf[members[b]!]! === copyOf[members[b - 1]!]! + 1) b++;
      let long = 0;
      for (let m = a; m < b; m++) if (words[members[m]!]! >= REPEAT_LONG_WORDS && !isLinkLine(keys[members[m]!]!)) long++;
      if (long >= REPEAT_RUN || b - a >= REPEAT_CHAIN) {
        for (let m = a; m < b; m++) {
          const k = members[m]!;
          if (ordinal[k]! - copyOf[k]! > REPEAT_WINDOW && words[k]! >= REPEAT_MIN_WORDS) {
            drop[k] = 1;
            dropped = true;
          }
        }
      }
      a = b;
    }
    for (const k of members) {
      if (ordinal[k]! - copyOf[k]! > REPEAT_WINDOW) continue;
      if (words[k]! >= REPEAT_LONG_WORDS || (members.length >= REPEAT_RUN && words[k]! >= REPEAT_MIN_WORDS)) {
        drop[k] = 1;
        dropped = true;
      }
    }
    i = j;
  }
  if (!dropped) return lines;
  const out: string[] = [];
  let afterDrop = false;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    if (drop[k] === 1) {
      afterDrop = true;
      continue;
    }
    // A dropped block leaves one blank line between its neighbours, not two.
    if (line.trim() === '') {
      if (afterDrop && (out.length === 0 || out[out.length - 1]!.trim() === '')) continue;
    } else afterDrop = false;
    out.push(line);
  }
  return out;
}

/**
 * A list rendered twice (a buy box's details again in a sticky bar, a summary panel that repeats
 * the feature list, a mobile and a desktop layout): the copy, item for item the same list, goes.
 * Single items repeat by nature (see above); a whole list of at least REPEAT_LIST_ITEMS items
 * repeated within REPEAT_LIST_WINDOW lines is a template's twin.
 */
const REPEAT_LIST_ITEMS = 3;
const REPEAT_LIST_WINDOW = 200;

function withoutRepeatedLists(lines: string[]): string[] {
  // Lists as runs of item lines (blank lines between them allowed): first line, last line.
  const lists: Array<{ start: number; end: number }> = [];
  let fence = false;
  let start = -1;
  let end = -1;
  let items = 0;
  const close = (): void => {
    if (start >= 0 && items >= REPEAT_LIST_ITEMS) lists.push({ start, end });
    start = -1;
    items = 0;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isFenceLine(line)) {
      close();
      fence = !fence;
      continue;
    }
    if (fence) continue;
    // Most lines are neither blank nor list items: told by their first mark, before any trimming.
    let a = 0;
    const len = line.length;
    while (a < len && isSpace(codeAt(line, a))) a++;
    if (a === len) continue;
    const c = codeAt(line, a);
    if (c > 127 && line.trim() === '') continue;
    if (!(c === 45 || c === 42 || c === 43 || (c >= 48 && c <= 57)) || !isListItemLine(line.trim())) {
      close();
      continue;
    }
    if (start < 0) start = i;
    end = i;
    items++;
  }
  close();
  if (lists.length < 2) return lines;
  const seen = new Map<string, number>();
  const drop: Array<[number, number]> = [];
  for (const l of lists) {
    // A list's key: its item lines, trimmed (the blank lines between them are not part of it).
    let key = '';
    for (let i = l.start; i <= l.end; i++) {
      const t = lines[i]!.trim();
      if (t !== '') key += t + '\n';
    }
    const at = seen.get(key);
    if (at !== undefined && l.start - at <= REPEAT_LIST_WINDOW) drop.push([l.start, l.end]);
    else seen.set(key, l.end);
  }
  if (drop.length === 0) return lines;
  const out: string[] = [];
  let d = 0;
  for (let i = 0; i < lines.length; i++) {
    while (d < drop.length && drop[d]![1] < i) d++;
    if (d < drop.length && i >= drop[d]![0] && i <= drop[d]![1]) continue;
    out.push(lines[i]!);
  }
  return out;
}

/** Whether a line opens with a link or a picture (a card's title, its photo): a listing's item, which may be listed again. */
function isLinkLine(key: string): boolean {
  const c = codeAt(key, 0);
  return c === 91 || c === 33;
}

/** Whether a line opens a list item (only one that starts with a marker or a digit can). */
function isListItemLine(line: string): boolean {
  const c = codeAt(line, 0);
  return (c === 45 || c === 42 || c === 43 || (c >= 48 && c <= 57)) && LIST_ITEM.test(line);
}

/** A line's text without indentation and the marks of a heading or a quote (the twin of a quoted post is the post). */
function lineText(line: string): string {
  let a = 0;
  let b = line.length;
  for (; a < b; a++) {
    const c = codeAt(line, a);
    if (c !== 32 && c !== 9 && c !== 35 && c !== 62) break;
  }
  while (b > a && (codeAt(line, b - 1) === 32 || codeAt(line, b - 1) === 9)) b--;
  return a === 0 && b === line.length ? line : line.slice(a, b);
}

/** Words in a line: runs of letters and digits (any non-ASCII character counts as a letter). */
export function countWords(s: string): number {
  let n = 0;
  let inWord = false;
  const len = s.length;
  for (let i = 0; i < len; i++) {
    const c = codeAt(s, i);
    const w = c > 127 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (w && !inWord) n++;
    inWord = w;
  }
  return n;
}
