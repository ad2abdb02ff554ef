/**
 * Rules for blocks of links as they close: menus and tag clouds go; a card of a grid, an item's
 * line of facts or a series of items is marked for the scoring to decide; a teaser paragraph and
 * its rail's label go together.
 */
import { isPitch } from './block-rules.js';
import type { BlockNode } from './block-node.js';
import type { FilterState } from './filter-state.js';
import type { Frame } from './frame.js';
import { cleanText, codeAt, indexIn, isPatternSpace } from './html-util.js';
import { countWords } from './markdown-repeats.js';
import { CARD_TITLE_MIN_WORDS, ITEM_ACTION, ITEM_LINE_MAX, ITEM_MIN, ITEM_MIN_TEXT, ITEM_RICH_SHARE, ITEM_TAGS, LINK_LIST_MIN, LINK_LIST_SHARE, LINK_LIST_TEXT, MENU_SHAPE, SHOWN_PRICE_MAX_TEXT, TAG_LIST_MAX, TAG_LIST_MIN, TAG_MAX } from './rules/items.js';
import { CTA, LINK_BLOCK_MIN_PROSE, LINK_DENSITY_MAX, LONG_LINK_TEXT } from './rules/links.js';
import { ITEM_PARTS, TEASER_CONTEXT, TEASER_LINK_SHARE, TEASER_MIN_TEXT } from './rules/paragraphs.js';
import { LABEL_MAX } from './rules/placeholders.js';
import { isRailHeading } from './rules/rail-heading.js';
import { IS_LINK_BLOCK } from './tag-bits.js';

/** Moves a just-closed long link's text from link text to card text (see LONG_LINK_TEXT). */
export function longLinkAsText(s: FilterState, frame: Frame): void {
  const text = s.linkText - frame.startLink;
  if (text < LONG_LINK_TEXT) return;
  s.linkText -= text;
  for (let i = frame.linkNodeStart; i < s.nodes.length; i++) {
    const n = s.nodes[i]!;
    n.card += n.link;
    n.link = 0;
  }
  if (frame.linkOuterNode >= 0 && frame.linkOuterNode < s.nodes.length) {
    const n = s.nodes[frame.linkOuterNode]!;
    const d = n.link - frame.linkOuterAtOpen;
    n.card += d;
    n.link -= d;
  }
}

/**
 * A paragraph of the text flow that is (nearly) all link text is a teaser for another page
 * between the paragraphs ("READ MORE: ...", a related story's headline, a row of such links),
 * not the text. In a list item, a cell or a card (no prose before it in its parent) it may be
 * an item's title or teaser, which the scoring weighs.
 */
export function pruneTeaserParagraph(s: FilterState, frame: Frame): void {
  const text = s.keptText - frame.startText;
  if (text < TEASER_MIN_TEXT) return;
  const parent = s.emittedParent();
  if (parent === undefined || ITEM_PARTS.has(parent.name)) return;
  // Between paragraphs: the text before it in its parent is prose, not a card's linked title.
  if (frame.startText - parent.startText - (frame.startLink - parent.startLink) < TEASER_CONTEXT) return;
  if ((s.linkText - frame.startLink) / text < TEASER_LINK_SHARE) return;
  // A paragraph of its own right before it that names a rail ("You may also like", "Don't
  // miss") is the teasers' label and goes with them.
  const label = s.railLabel;
  s.truncateTo(label !== undefined && label.endChunk === frame.startChunk && label.endText === frame.startText ? label : frame);
}

/** Remembers a just-closed paragraph that names a rail (see pruneTeaserParagraph). */
export function noteRailLabel(s: FilterState, frame: Frame): void {
  const text = s.keptText - frame.startText;
  if (text <= 0 || text > LABEL_MAX || s.tail.length < text || s.linkText !== frame.startLink || !isRailHeading(cleanText(s.tail.slice(-text)))) return;
  s.railLabel = {
    startChunk: frame.startChunk,
    startText: frame.startText,
    startLink: frame.startLink,
    startH1: frame.startH1,
    startNode: frame.startNode,
    startCandidate: frame.startCandidate,
    startDoomedText: frame.startDoomedText,
    startDoomedLink: frame.startDoomedLink,
    md: { ...frame.md },
    endChunk: s.out.length,
    endText: s.keptText,
  };
}

/**
 * Drops a just-closed block that is mostly link text with little else (menus, tag clouds,
 * "related" rails without telling class names). Its serialization is the tail of the output,
 * so removing it after the fact is a truncation.
 */
export function pruneLinkBlock(s: FilterState, frame: Frame): void {
  // A block inside a link is all link text; the link is judged when the block around it closes.
  if (s.inLink > 0) return;
  if (frame.name === 'p') {
    if (isPitch(s, frame)) return s.truncateTo(frame);
    pruneTeaserParagraph(s, frame);
    noteLabelledLine(s, frame);
    return noteRailLabel(s, frame);
  }
  if (!(frame.bits & IS_LINK_BLOCK) || frame.admonition) return;
  const text = s.keptText - frame.startText - (s.doomedText - frame.startDoomedText);
  if (text <= 0) return;
  const links = s.linkText - frame.startLink - (s.doomedLink - frame.startDoomedLink);
  if (links / text <= LINK_DENSITY_MAX || text - links >= LINK_BLOCK_MIN_PROSE) return;
  const node = frame.node >= 0 ? s.nodes[frame.node] : undefined;
  if (isCellValue(s, frame)) return;
  if (node !== undefined && (isIntroducedList(s, node) || isSentenceItem(s, frame))) {
    // The text's own list: its links stop counting against the blocks around it (an indent
    // that holds only it), as a list of words would not count.
    node.labelled = true;
    s.doomedLink += links;
    return;
  }
  if (node !== undefined && LIST_TAGS.has(node.name)) {
    // A list in a list's item is one branch of a tree of links, judged with the tree: in the
    // page's landmark, or in a term's description (menus nest lists of items, never of terms).
    if (node.parent >= 0 && isBranch(s, s.nodes[node.parent]!.name)) return;
    // A table of contents: the scoring keeps it where it is the page's content (see content-keep).
    if (holdsList(s, frame.node)) {
      node.doomed = true;
      node.outline = true;
      s.doomedText += text;
      s.doomedLink += links;
      return;
    }
  }
  if (node !== undefined) {
    // A grid or list of items may be the page's content however linked its items are; the
    // scoring decides (it is marked, and its links stop counting against its ancestors).
    if (node.items > 0) {
      node.linky = true;
      s.doomedLink += links;
      return;
    }
    // A card (a linked title over an image, a heading) may be one item of such a grid, which
    // only its parent can tell: it is left in place, marked, and left out later unless its
    // parent turns out to hold a series of them. A linked title with a price is a card too,
    // though its picture sits beside it (a chart's entry): menus name no prices, by class or
    // in their text. So is a block that only links where the picture before it links (see
    // namesPicturedTarget), and a short line of links under an item's title (see isItemLine).
    if (node.parent >= 0 && (node.rich > 0 || node.priced || (links === text && namesPicturedTarget(s)) || (links < text && showsPrice(s, frame, text)) || (s.landmarks > 0 && isLinkList(s, frame.node)) || (links === text && isItemLine(s, frame, text, node.parent)))) {
      node.doomed = true;
      if (links === text && namesPicturedTarget(s)) node.title = true;
      s.doomedText += text;
      s.doomedLink += links;
      return;
    }
  }
  s.truncateTo(frame);
}

/** Table cells: what a block inside one holds is the cell's value (see isCellValue). */
const CELLS: ReadonlySet<string> = new Set(['td', 'th']);

/**
 * A block in a cell of a table with a header row (a reference table's "replaced by" column, one
 * linked name a line) is the cell's value, not a menu: the table is judged whole when it closes.
 * A table without header cells lays out a page or a listing's rows, whose blocks (a menu column,
 * a row's button) stay judged on their own.
 */
function isCellValue(s: FilterState, frame: Frame): boolean {
  let cell = false;
  for (let i = s.stack.length - 1; i >= 0; i--) {
    const f = s.stack[i]!;
    if (f === frame) continue;
    if (CELLS.has(f.name)) cell = true;
    if (f.name !== 'table') continue;
    if (!cell || f.node < 0) return false;
    for (let j = f.node + 1; j < s.nodes.length; j++) if (s.nodes[j]!.name === 'th' || s.nodes[j]!.name === 'thead') return true;
    return false;
  }
  return false;
}

/** The fewest words outside links of a list's one item that is a sentence (see isSentenceItem). */
const SENTENCE_ITEM_WORDS = 8;
/** A sentence's punctuation after a word, and a link's target in markdown. */
const SENTENCE_STOP = /[\p{L}\p{N})`\]][.,;:!?](?:\s|$)/u;
const MD_LINK = /\]\([^)]*\)/g;

/**
 * A list of one item that is a sentence of the text, however linked ("Added methods `a()` and
 * `b()` of class `C`. (Contributed by … in bpo-123.)": a release note's one change under its
 * module's heading), is the text's: a menu or a tag row is several items of a few words each,
 * never a single item that opens with words of its own and reads as a sentence.
 */
function isSentenceItem(s: FilterState, frame: Frame): boolean {
  if (frame.name !== 'ul' && frame.name !== 'ol') return false;
  let items = 0;
  for (let i = frame.node + 1; i < s.nodes.length; i++) if (s.nodes[i]!.parent === frame.node && ++items > 1) return false;
  if (items !== 1) return false;
  let text = '';
  for (let i = frame.startChunk; i < s.out.length && text.length < 2000; i++) text += s.out[i];
  // The item opens with a word of its own, not a link: "- Added …", not "- [Home](…)".
  const body = text.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '');
  if (!/^[*_`]*[\p{L}\p{N}]/u.test(body)) return false;
  const words = body.replace(MD_LINK, ']').replace(/\[[^\]]*\]/g, ' ');
  return countWords(cleanText(words)) >= SENTENCE_ITEM_WORDS && SENTENCE_STOP.test(body);
}

/** Lists a sentence of the text may introduce. */
const LIST_TAGS: ReadonlySet<string> = new Set(['ul', 'ol', 'dl']);
function isBranch(s: FilterState, parent: string): boolean {
  return parent === 'dd' || parent === 'dt' || (s.landmarks > 0 && parent === 'li');
}

/** Whether the block at `at` holds a list inside it: a tree of links (a table of contents), not a menu's row. */
function holdsList(s: FilterState, at: number): boolean {
  for (let i = at + 1; i < s.nodes.length; i++) if (LIST_TAGS.has(s.nodes[i]!.name)) return true;
  return false;
}

/**
 * A sentence that introduces what follows ends in a colon (perhaps inside its emphasis), or says
 * it in words as its last sentence does ("The following functions have been removed.", "… are
 * listed below.").
 */
const INTRODUCES = /[^:]:[*_\s]*$|\b(?:the following|as follows|listed below|shown below|given below)\b(?:[^.!?]|[.!?](?=\S))*[.:][*_\s]*$/i;

/** Wrappers that set a block off from the sentence introducing it (see isIntroducedList). */
const INDENTS: ReadonlySet<string> = new Set(['blockquote', 'div']);

/** Blocks a sentence of the text may introduce: its lists, and a table of its items. */
const INTRODUCED_TAGS: ReadonlySet<string> = new Set(['ul', 'ol', 'dl', 'table']);
/** The fewest words of such a sentence: "Tags:" or "Share:" label a row of links, not text. */
const INTRO_MIN_WORDS = 2;
/** The least text outside links of a paragraph of prose that an indented list goes on from. */
const INDENTED_PROSE_MIN = 40;

/**
 * A list of links right after a sentence of the text that introduces it ("New syntax features:",
 * "The modules described in this chapter are:"), or indented as a quote after a paragraph of
 * prose, is the text's own list, as a list of words would be: it stays however linked. A rail's
 * or a button's label ("You may also like:", "Read more:") introduces no text.
 */
export function isIntroducedList(s: FilterState, node: BlockNode): boolean {
  if (!INTRODUCED_TAGS.has(node.name)) return false;
  // A list set off by an indent it opens (a blockquote, the wrapper inside one) is introduced by
  // the sentence before the indent.
  let at = node;
  let indented = false;
  while (at.prev < 0 && at.parent >= 0 && INDENTS.has(s.nodes[at.parent]!.name)) {
    at = s.nodes[at.parent]!;
    if (at.name === 'blockquote') indented = true;
  }
  if (at !== node && !indented) at = node;
  if (at.prev < 0) return false;
  const prev = s.nodes[at.prev]!;
  if (prev.name !== 'p' || prev.link + prev.card > prev.plain || prev.endChunk < 0) return false;
  // A list the text indents as a quote right after a paragraph of its prose ("The built-in
  // descriptors have been updated accordingly." over the three of them) goes on from that
  // paragraph, whatever its last words: no menu or rail is set in a blockquote.
  if (indented && prev.punct > 0 && prev.plain >= INDENTED_PROSE_MIN) return true;
  let text = '';
  for (let i = prev.startChunk; i < prev.endChunk; i++) text += s.out[i];
  if (!INTRODUCES.test(text)) return false;
  const label = cleanText(text.replace(/[*_]/g, ''));
  return countWords(label) >= INTRO_MIN_WORDS && !isRailHeading(label) && !CTA.test(label.replace(/:\s*$/, ''));
}

/** A line that names what its links are ("**Source code:** [Lib/codecs.py](…)"), as markdown. */
const LABELLED_LINE = /^\s*[*_]*([^:\n[\]]{3,40}?):[*_]*\s*\[/;
/** How much of a paragraph's markdown LABELLED_LINE is run on (whole chunks, from its start). */
const LABEL_HEAD_MAX = 200;
/** LABELLED_LINE's longest label. */
const LABEL_CHARS_MAX = 40;

/**
 * Marks a just-closed paragraph that is a labelled line of links ("Source code: Lib/codecs.py",
 * "Specification: RFC 9110"): the text's statement of where something is, which the scoring keeps
 * at the content's edge though it is mostly links (see content-keep). A one-word label ("Tags:",
 * "Share:") heads a row of furniture, and a rail's or a button's names none.
 */
function noteLabelledLine(s: FilterState, frame: Frame): void {
  if (frame.node < 0 || frame.node >= s.nodes.length || s.out.length === frame.startChunk) return;
  if (!mayOpenWithLabel(s.out, frame.startChunk)) return;
  let text = '';
  for (let i = frame.startChunk; i < s.out.length && text.length < LABEL_HEAD_MAX; i++) text += s.out[i];
  const m = LABELLED_LINE.exec(text);
  if (m === null) return;
  const label = cleanText(m[1]!);
  if (countWords(label) >= INTRO_MIN_WORDS && !isRailHeading(label) && !CTA.test(label)) s.nodes[frame.node]!.labelled = true;
}

/**
 * Whether a paragraph's markdown, from chunk `from` on, may match LABELLED_LINE: a colon within
 * LABEL_CHARS_MAX characters of its opening spaces and markers, with no bracket or line break
 * before it, and a bracket after it past more of them. Most paragraphs are prose and fail within
 * their first words: read in place, they cost less than joining their first LABEL_HEAD_MAX
 * characters to match them.
 */
function mayOpenWithLabel(out: readonly string[], from: number): boolean {
  // 0: in the opening spaces and markers; 1: in the label; 2: past its colon.
  let state = 0;
  let label = 0;
  let offset = 0;
  for (let i = from; i < out.length && offset < LABEL_HEAD_MAX; i++) {
    const chunk = out[i]!;
    const len = chunk.length;
    offset += len;
    let at = 0;
    if (state !== 1) {
      while (at < len && isMarkerOrSpace(codeAt(chunk, at))) at++;
      if (at === len) continue;
      if (state === 2) return codeAt(chunk, at) === 91;
      state = 1;
    }
    // The label holds no colon: it runs to the first one.
    const colon = indexIn(chunk, ':', at);
    const end = colon < 0 ? len : colon;
    if (label + end - at > LABEL_CHARS_MAX) return false;
    for (let j = at; j < end; j++) {
      const c = codeAt(chunk, j);
      if (c === 10 || c === 91 || c === 93) return false;
    }
    label += end - at;
    if (colon < 0) continue;
    state = 2;
    at = colon + 1;
    while (at < len && isMarkerOrSpace(codeAt(chunk, at))) at++;
    if (at < len) return codeAt(chunk, at) === 91;
  }
  return false;
}

/** An emphasis marker or what `\s` matches: what LABELLED_LINE allows around a label. */
function isMarkerOrSpace(c: number): boolean {
  return c === 42 || c === 95 || isPatternSpace(c);
}

/**
 * A short block of links that follows text in its parent (a row's "by <author>" under the
 * book's title, a post's date and tags under its title, "4.7 out of 5 stars 58,483") is a fact
 * of the item it sits in, when it is one of a series' items. A line that opens its parent is
 * the item's kicker (a category or section name above the title, which listings link to their
 * archive), and a button is the item's action: both go, as before. So does a widget's row of
 * links to the page itself ("1 of 5 stars" to "#"), a control.
 */
export function isItemLine(s: FilterState, frame: Frame, text: number, parent: number): boolean {
  if (text > ITEM_LINE_MAX && !isTagList(s, frame, text)) return false;
  if (s.linkButton || (s.linkHref !== undefined && s.linkHref.startsWith('#')) || ITEM_ACTION.test(s.linkWords)) return false;
  for (let i = s.stack.length - 1; i >= 0; i--) {
    const f = s.stack[i]!;
    if (f.node === parent) return f.startText < frame.startText;
  }
  return false;
}

/** A row of short links, a few words each (a game's tags, a recipe's categories): longer than an item's line, no longer than a tag list. */
export function isTagList(s: FilterState, frame: Frame, text: number): boolean {
  const count = s.linksOpened - frame.startLinks;
  return count >= TAG_LIST_MIN && text <= TAG_LIST_MAX && text <= TAG_MAX * count;
}

/**
 * A block that is one link to the page the picture just before it links to is a card's title
 * (a product tile links its photo and its name to the product): a menu does not link a picture
 * and a name to one page.
 */
export function namesPicturedTarget(s: FilterState): boolean {
  return s.linkHref !== undefined && s.linkHref === s.pictureHref && countWords(s.linkWords) >= CARD_TITLE_MIN_WORDS;
}

/**
 * Whether a short block just closed shows a price (a currency sign beside a figure) though no
 * class names one: with text beside its links, a product card's text, as menus show none. (A
 * link that is all price, "$899 at the store", is a buying button.)
 */
export function showsPrice(s: FilterState, frame: Frame, text: number): boolean {
  return text <= SHOWN_PRICE_MAX_TEXT && s.chunksShowPrice(frame.startChunk, s.out.length);
}

/**
 * A list of links inside the page's landmark may be one group of an index split into sections
 * (a category's members under each letter): like a card, only its parent's parent can tell.
 */
export function isLinkList(s: FilterState, at: number): boolean {
  const node = s.nodes[at]!;
  if (node.name !== 'ul' && node.name !== 'ol') return false;
  let items = 0;
  for (let c = node.last; c >= 0; c = s.nodes[c]!.prev) if (s.nodes[c]!.name === 'li') items++;
  return items >= ITEM_MIN;
}

/**
 * Records whether a just-closed block's children are a series of items of one shape (cards of
 * a product grid, rows of a listing, entries of a feed): enough of them, each with some text
 * and most with an image, a heading or text beside their link. A menu's items (a link each,
 * one or two words) are not.
 */
export function repeatedItems(s: FilterState, at: number): void {
  const nodes = s.nodes;
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
  const index = s.landmarks > 0 && (nodes[at]!.name === 'ul' || nodes[at]!.name === 'ol');
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
    if (!node.priced && k.all <= SHOWN_PRICE_MAX_TEXT && s.chunksShowPrice(k.startChunk, k.endChunk)) shown++;
    // An item's picture outside its links is what the item's title link names: its alt text
    // repeats the title or describes a photo (as a picture link's alt text is, see MarkdownWriter).
    if (k.allLinks > 0) s.sink.blankLooseAlts(k.startChunk, k.endChunk);
    for (let i = c; i < nodes.length && nodes[i]!.startChunk < k.endChunk; i++) {
      const d = nodes[i]!;
      if (!d.doomed) continue;
      d.doomed = false;
      d.linky = true;
      d.claimed = true;
      s.doomedText -= d.text;
      s.doomedLink -= d.links;
    }
  }
  node.pricesShown = shown >= ITEM_RICH_SHARE * best[0]!;
  // A card's title stays with its series' other text only in a shop's grid (see pick): elsewhere
  // (a blog's teasers) the titles go with the rest of the series when it is not the content.
  if (!node.priced && !node.pricesShown) {
    for (let i = at + 1; i < nodes.length; i++) nodes[i]!.title = false;
  }
}
