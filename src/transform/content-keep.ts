/**
 * What is kept of the chosen subtree: its link-dense edges, the blocks the rules marked that no
 * series claimed, rails of priced cards and discussions are cut out of it (see selectContent).
 */
import { type BlockNode, DISCUSSION, type Selection } from './block-node.js';

/** A rail (see keep): at least this many priced, linked cards, this share of the series' children, and at most this share of the content's text. */
const RAIL_CARDS = 3;
const RAIL_SHARE = 0.5;
const RAIL_TEXT_SHARE = 0.5;
/**
 * ... and at most this much text per child on average: a card names a product and its price; a
 * buying guide's pick, priced too, goes on to review it at length.
 */
const RAIL_ITEM_TEXT = 1000;

const WHOLE_PARTS: ReadonlySet<string> = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'li']);

/** The subtree at `best` (relative to `from`), less its link-dense edges, pruned blocks and discussions. */
export function keep(
  nodes: readonly BlockNode[],
  from: number,
  best: number,
  size: Int32Array,
  sum: Float64Array,
  text: Float64Array,
  gone: Uint8Array,
  useHints: boolean,
  /** Whether rails of other products go (see rail): not where series are the content. */
  railsOut = false,
  /** Whether cards that only show prices in their text count as priced (see selectContent). */
  shop = false,
): Selection {
  const root = nodes[from + best]!;
  // A series inside the content whose items are mostly linked cards with a price is a rail of
  // other products (related, bought together, the brand's range), not the page's own; where it
  // is most of the content (a buying guide's picks), it is the content.
  const rail = (at: number): boolean => {
    const n = nodes[from + at]!;
    const shown = shop && n.pricesShown;
    if (n.items === 0 || !(n.priced || shown)) return false;
    let kids = 0;
    let cards = 0;
    for (let i = at + 1; i < at + size[at]!; i += size[i]!) {
      const k = nodes[from + i]!;
      kids++;
      if ((k.priced || shown) && k.allLinks > 0) cards++;
    }
    return cards >= RAIL_CARDS && cards >= RAIL_SHARE * kids && text[at]! <= RAIL_TEXT_SHARE * text[best]! && text[at]! <= RAIL_ITEM_TEXT * kids;
  };
  // Blocks at the edges of the chosen subtree that vote against it (link lists, share bars,
  // "next/previous" links) are left out; inside the content, such blocks (a checklist of links,
  // a table of contents) stay.
  const holes: number[] = [];
  const trim = (at: number): void => {
    // A table's rows and cells are its shape, not edges: a row without its first cell is garbled;
    // an item's linked title is its head, not an edge of the list. A series that is the content
    // keeps its first and last items though they are only a linked title and a price (the one
    // beside them with a note is no more the content than they are).
    if (WHOLE_PARTS.has(nodes[from + at]!.name) || (!railsOut && nodes[from + at]!.items > 0)) return;
    const kids: number[] = [];
    for (let i = at + 1; i < at + size[at]!; i += size[i]!) kids.push(i);
    let first = -1;
    let last = -1;
    for (let k = 0; k < kids.length; k++) {
      if (sum[kids[k]!]! > 0) {
        if (first < 0) first = k;
        last = k;
      }
    }
    if (first < 0) return;
    // (A labelled line of links, "Source code: Lib/codecs.py", is the text's, at its edge too.)
    for (let k = 0; k < kids.length; k++) if ((k < first || k > last) && sum[kids[k]!]! < 0 && nodes[from + kids[k]!]!.labelled !== true) holes.push(kids[k]!);
    trim(kids[first]!);
    if (last !== first) trim(kids[last]!);
  };
  trim(best);
  let outlines = 0;
  for (let i = best + 1; i < best + size[best]!; i++) {
    if (gone[i] === 1 && nodes[from + i]!.outline === true && outlineStays(nodes, from, best, i, text[best]!, gone)) {
      outlines += nodes[from + i]!.text;
      i += size[i]! - 1;
    } else if (gone[i] === 1) holes.push(i);
    else if (railsOut && rail(i)) holes.push(i);
    // A discussion inside the content (the comments under each answer of a Q&A page, a shop's
    // reviews between the description and the specs) goes too, not only one at its edges.
    else if (useHints && sum[i]! < 0 && nodes[from + i]!.hint === DISCUSSION && nodes[nodes[from + i]!.parent]!.hint !== DISCUSSION) holes.push(i);
  }
  holes.sort((a, b) => a - b);
  const ranges: Array<[number, number]> = [];
  let previous = -1;
  let keptText = text[best]! + outlines;
  let h1s = root.endH1 - root.startH1;
  let at = root.startChunk;
  for (const i of holes) {
    const n = nodes[from + i]!;
    // (A card inside a hole goes with it; a trimmed edge may be a discussion too.)
    if (n.startChunk < at || i === previous) continue;
    previous = i;
    if (n.startChunk > at) ranges.push([at, n.startChunk]);
    at = n.endChunk;
    keptText -= text[i]!;
    h1s -= n.endH1 - n.startH1;
  }
  if (root.endChunk > at) ranges.push([at, root.endChunk]);
  return { ranges, text: keptText, h1s, root: root.name };
}

/** A paragraph of prose, as the scoring counts one (see content-score's PROSE_MIN). */
const OUTLINE_PROSE_MIN = 40;
const HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * Whether a table of contents (see BlockNode.outline) in the content at `best` is the content's:
 * introduced by a paragraph of the text right before it (an index page's "the chapters are
 * listed below"), or holding more text than the rest of it under the page's title (a chapter's
 * page that is its contents). An in-page table before the text, shorter than it, goes; so does a
 * menu's tree, which no sentence introduces and no title heads.
 */
function outlineStays(nodes: readonly BlockNode[], from: number, best: number, at: number, kept: number, gone: Uint8Array): boolean {
  let a = from + at;
  while (nodes[a]!.prev < 0 && nodes[a]!.parent > from + best) a = nodes[a]!.parent;
  const prev = nodes[a]!.prev >= 0 ? nodes[nodes[a]!.prev]! : undefined;
  if (prev !== undefined && prev.name === 'p' && prev.plain >= OUTLINE_PROSE_MIN && prev.punct > 0 && prev.link <= prev.plain) return true;
  if (nodes[from + at]!.text < kept) return false;
  for (let i = best; i < at; i++) if (gone[i] === 0 && HEADINGS.has(nodes[from + i]!.name)) return true;
  return false;
}

/**
 * Where nothing scores (no prose to anchor on), the whole range is kept, less the blocks that
 * stand for pruned ones (see BlockNode.doomed and .linky): the chunk ranges left, and the text
 * and h1s cut (a card's text is already left out of the counts); undefined when there are none.
 */
export function withoutPruned(
  nodes: readonly BlockNode[],
  from: number,
  to: number,
  start: number,
  end: number,
): { ranges: Array<[number, number]>; text: number; h1s: number } | undefined {
  let ranges: Array<[number, number]> | undefined;
  let at = start;
  let text = 0;
  let h1s = 0;
  for (let i = from; i < to; i++) {
    const n = nodes[i]!;
    if (!(n.doomed || n.linky) || n.startChunk < at) continue;
    ranges ??= [];
    if (n.startChunk > at) ranges.push([at, n.startChunk]);
    at = n.endChunk;
    if (!n.doomed) text += n.text;
    h1s += n.endH1 - n.startH1;
  }
  if (ranges === undefined) return undefined;
  if (end > at) ranges.push([at, end]);
  return { ranges, text, h1s };
}
