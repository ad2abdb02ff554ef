/**
 * Picks the page's main content from a block tree recorded during the streaming pass (no DOM):
 * every block element's extent in the serialized output plus the text it holds directly. Each
 * block votes by its text: prose (long, few links) for, link text against; the subtree with the
 * largest total is the content. Prose in comment/related-like blocks votes against, unless such
 * blocks hold most of the page's prose (a forum thread is its comments). A series of like items
 * (a product grid, a listing's rows; see link-rules' repeatedItems) votes by its items' text
 * where it outweighs the page's prose: a listing is its items although none of them is prose.
 * Where it nearly does, on a page without a body of prose, the series and the prose are both kept;
 * so are a shop's priced grid and the prose under it, where the grid has a good share of its text.
 */

import type { BlockNode, Selection } from './block-node.js';
import { keep } from './content-keep.js';
import { Float64Scratch, Int32Scratch, Uint8Scratch } from './scratch.js';

const HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Blocks that are content whatever their votes: a subtree that has them beside its dominant child is kept whole. */
const STRUCTURE: ReadonlySet<string> = new Set(['h2', 'h3', 'h4', 'h5', 'h6', 'table', 'pre']);

/** A block's own vote. */
function vote(n: BlockNode, useHints: boolean, useItems: boolean): number {
  const own = n.plain + n.link + n.card;
  if (own === 0) return useItems ? itemsVote(n, useHints) : 0;
  if (HEADINGS.has(n.name)) return 0;
  // Link text votes against; short or unpunctuated text (labels, specs, prices) and the text of
  // teaser/title links are neutral.
  const w = (useItems ? itemsVote(n, useHints) : 0) - n.link;
  if (n.plain < PROSE_MIN || n.punct === 0) return w;
  return w + (useHints && n.hint < 0 ? -NEGATIVE_PROSE * n.plain : n.plain);
}

/**
 * A series of items (a product grid, a listing's rows) votes for itself by its items' text, as
 * prose does, and its items' links no longer count against it: none of it is prose, yet it is
 * what a listing page is for.
 */
function itemsVote(n: BlockNode, useHints: boolean): number {
  if (n.items === 0 || (useHints && n.hint < 0)) return 0;
  return n.itemLinks + ITEM_VOTE * n.items;
}

// Tunables, chosen on the aggregate of both datasets.
const PROSE_MIN = 40;
const OWN_PROSE_MIN = 700;
const OWN_PROSE_SHARE = 0.1;
const ARTICLE_PROSE_MIN = 200;
const ARTICLE_PROSE_SHARE = 0.05;
const NEGATIVE_PROSE = 0.5;
const DOMINANT_SHARE = 0.8;
const DOMINANT_TEXT = 0.5;
const ITEM_VOTE = 1;
const ITEM_PROSE_RATIO = 2;
const HEDGE_PROSE_RATIO = 1.2;
/** A priced grid before the prose is kept with it from this share of the prose's text on (see selectContent). */
const GRID_FIRST_PROSE_RATIO = 0.6;
const BODY_SHARE = 0.5;
/**
 * A block beside the content whose text is at least this share tables is the content's too (see
 * pick): a specifications tab has a title or a note besides its tables; a sidebar's calendar is a
 * sliver of the sidebar.
 */
const TABLE_SHARE = 0.1;
/** How many ancestors of a page without a body the content subtree may take siblings from (see pick). */
const SIBLING_LEVELS = 3;
/** ... the prose a sibling must hold in paragraphs, and the most link text it may have, as a share of its text. */
const SIBLING_PROSE = 200;
const SIBLING_LINK_SHARE = 0.05;
/** ... and the most text, and link text as a share of it, of the block around the page's title it keeps. */
const BOX_TEXT = 1000;
const BOX_LINK_SHARE = 0.3;
/**
 * A content subtree this much of whose text is one series keeps the page's introduction before
 * it (see introduction): at most this much text, and at most this share of it linked.
 */
const INTRO_SERIES_SHARE = 0.5;
const INTRO_MAX_TEXT = 2000;
const INTRO_LINK_SHARE = 0.3;
/** ... and, beside a body of prose, at least this share of the content's text (see pick). */
const INTRO_BODY_SHARE = 0.04;

// The scoring's per-block tables, one scratch each (see scratch.ts): selectContent's are read by
// the picks it makes, and each pick's by the keep and the helpers it calls.
const OUTSIDE_PROSE = new Float64Scratch();
const IN_ARTICLE = new Uint8Scratch();
const CHILD_PROSE = new Float64Scratch();
const GONE = new Uint8Scratch();
const OWN = new Uint8Scratch();
const SUM = new Float64Scratch();
const TEXT = new Float64Scratch();
const SIZE = new Int32Scratch();
const TABLED = new Float64Scratch();
const PROSE = new Float64Scratch();
const LINKED = new Float64Scratch();

/**
 * Whether a block outside `nodes[from..to)` (a <main>'s nodes) holds more prose in paragraphs of
 * its own than any block inside it, and a body's worth (OWN_PROSE_MIN): the page's body is not in
 * that <main> (a shop's category description after the <main> that holds only its grid).
 */
export function bodyOutside(nodes: readonly BlockNode[], from: number, to: number): boolean {
  const own = OUTSIDE_PROSE.take(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (n.parent < 0 || n.plain < PROSE_MIN || n.punct === 0 || n.hint < 0 || n.doomed || n.linky) continue;
    own[n.parent] = own[n.parent]! + n.plain;
  }
  let inside = 0;
  let outside = 0;
  for (let i = 0; i < nodes.length; i++) {
    const p = own[i]!;
    if (i >= from && i < to) {
      if (p > inside) inside = p;
    } else if (p > outside) outside = p;
  }
  return outside >= OWN_PROSE_MIN && outside > inside;
}

/**
 * Chooses the content subtree among `nodes[from..to)` (a landmark's nodes, or all of them).
 * Returns undefined when nothing scores above zero, i.e. the page has no prose to anchor on.
 * `discussion`: the page declares itself a forum thread or a Q&A (see useHints below); `story`:
 * an article (see rules/class-names' STORY_TYPE).
 */
export function selectContent(nodes: readonly BlockNode[], from: number, to: number, discussion = false, story = false): Selection | undefined {
  const count = to - from;
  if (count <= 0) return undefined;
  // Where most prose sits in comment-like blocks (a forum thread), those blocks are the content.
  let hinted = 0;
  let unhinted = 0;
  // The outermost <article>s, and the prose inside them, in and out of comment-like blocks; and
  // each block's prose in paragraphs of its own (children, not deeper).
  const inArticle = IN_ARTICLE.take(to - from);
  const childProse = CHILD_PROSE.take(to - from);
  let articles = 0;
  let articleProse = 0;
  let articleHinted = 0;
  for (let i = from; i < to; i++) {
    const n = nodes[i]!;
    const p = n.parent - from;
    const outer = p >= 0 && inArticle[p] === 1;
    if (outer || n.name === 'article') inArticle[i - from] = 1;
    if (!outer && n.name === 'article') articles++;
    if (n.plain < PROSE_MIN || n.punct === 0) continue;
    if (n.hint < 0) hinted += n.plain;
    else unhinted += n.plain;
    if (n.hint >= 0 && p >= 0) childProse[p] = childProse[p]! + n.plain;
    if (inArticle[i - from] === 1) {
      if (n.hint < 0) articleHinted += n.plain;
      else articleProse += n.plain;
    }
  }
  // ... but an article with a long comment thread still has its own body: substantial prose
  // outside those blocks keeps the hints on. A post marked up as the page's one <article>, with
  // the thread outside it, is its own body with less: an open thread's short post, say. Not on a
  // page that declares itself a discussion (see rules/class-names' DISCUSSION_TYPE): a thread's opening
  // post is no article, and the replies that outweigh it are the thread.
  const useHints =
    unhinted >= hinted ||
    (!discussion &&
      ((unhinted >= OWN_PROSE_MIN && unhinted >= OWN_PROSE_SHARE * hinted) ||
        (articles === 1 && articleHinted === 0 && articleProse >= ARTICLE_PROSE_MIN && articleProse >= ARTICLE_PROSE_SHARE * hinted)));
  // A series of items is the content only where it outweighs the page's prose (a listing, a
  // shop's category); beside an article it is a teaser rail, pruned as before.
  let items = 0;
  let series = -1;
  for (let i = from; i < to; i++) {
    const n = nodes[i]!;
    if (n.items > items && !(useHints && n.hint < 0)) {
      items = n.items;
      series = i;
    }
  }
  // A product's page (its title in a priced box of its own) is not a listing: a series of priced
  // cards beside that box is a rail of other products however little prose the page has.
  if (items > 0 && (nodes[series]!.priced || nodes[series]!.pricesShown) && buyBoxApart(nodes, from, to, series)) items = 0;
  // A page whose largest series is of priced cards is a shop's category, whichever block is picked.
  const catalogue = items > 0 && (nodes[series]!.priced || nodes[series]!.pricesShown);
  const prose = useHints ? unhinted : unhinted + hinted;
  // Whether the page has no body of its own: no block holds most of the prose, and a substantial
  // amount of it, in paragraphs of its own, as an article's body does (a short introduction is no body).
  let body = 0;
  for (let i = 0; i < count; i++) if (childProse[i]! > body) body = childProse[i]!;
  const bodiless = body < BODY_SHARE * prose || body < OWN_PROSE_MIN;
  // A front page is several series, one per section (top stories, latest, a topic's): on a page
  // without a body, they outweigh its prose together (a promotion's blurb, a sign-up box) as one
  // series would. Only series that hold no other series are counted, so none is counted twice.
  let allItems = 0;
  if (bodiless) {
    for (let i = from; i < to; i++) {
      const n = nodes[i]!;
      if (n.items > 0 && !n.nested && !(useHints && n.hint < 0)) allItems += n.items;
    }
  }
  const useItems = items > 0 && (items >= ITEM_PROSE_RATIO * prose || allItems >= ITEM_PROSE_RATIO * prose);
  // A series close to that (a category's grid beside its buying guide, a blog index beside its
  // excerpts) on a page with no body is the content or the prose is, and neither is clearly so:
  // both are kept rather than one of them lost.
  if (!useItems && items > 0 && items >= HEDGE_PROSE_RATIO * prose) {
    if (bodiless) {
      const a = pick(nodes, from, to, childProse, useHints, false);
      const b = pick(nodes, from, to, childProse, useHints, true);
      return inCatalogue(a === undefined || b === undefined ? (a ?? b) : union(a, b), catalogue);
    }
  }
  // On a product's page (its title in a priced box), a series of cards that show prices in their
  // text is a rail of other products too, though no class names their prices; elsewhere (a
  // buying guide's picks, a price list) such a series may be the content.
  const box = titleBox(nodes, from, to, -1);
  const shop = box >= 0 && nodes[box]!.priced;
  // A shop's grid of priced cards above the page's prose (a category's buying guide or
  // description under its products), with a good share of that prose's text, is what the page
  // shows first: both are kept. Prose above the grid is the page's own text, the grid below it
  // the products that text is about.
  if (!useItems && items > 0 && items >= GRID_FIRST_PROSE_RATIO * prose && nodes[series]!.priced) {
    const text = pick(nodes, from, to, childProse, useHints, false, bodiless, shop);
    const grid = pick(nodes, from, to, childProse, useHints, true, false, shop);
    if (text !== undefined && grid !== undefined && text.ranges.length > 0 && grid.ranges.length > 0 && grid.ranges[0]![0] < text.ranges[0]![0]) {
      return inCatalogue(union(text, grid), catalogue);
    }
    return inCatalogue(text, catalogue);
  }
  // A page without a body of prose and without an <article> (a service's or a course's landing
  // page, a collection's) opens with its title and introduction in a block of their own (a hero);
  // on a story, that block is the headline's standfirst and byline, which are not its text. A page
  // with a body of prose is a landing page too where nothing says it is a story: no <article>,
  // no Article type, no og:type article (a calculator's page, a category's guide; see pick).
  const landing = articles === 0 && (bodiless || !story);
  return inCatalogue(pick(nodes, from, to, childProse, useHints, useItems, bodiless, shop, landing), catalogue);
}

function inCatalogue(s: Selection | undefined, catalogue: boolean): Selection | undefined {
  if (s !== undefined && catalogue) s.catalogue = true;
  return s;
}

/**
 * Whether the range's first title sits in a priced box (its highest ancestor with at most
 * BOX_TEXT of text, at most BOX_LINK_SHARE of it links) that neither holds the series at
 * `series` nor sits inside it: a product's buy box.
 */
function buyBoxApart(nodes: readonly BlockNode[], from: number, to: number, series: number): boolean {
  const box = titleBox(nodes, from, to, series);
  if (box < 0) return false;
  const s = nodes[series]!;
  const b = nodes[box]!;
  const apart = b.endChunk <= s.startChunk || s.endChunk <= b.startChunk;
  return b.priced && apart;
}

/**
 * The block around the range's first title: its highest ancestor with at most BOX_TEXT of text,
 * at most BOX_LINK_SHARE of it links, that does not hold the series at `series` (-1: none).
 * -1 when the range has no title.
 */
function titleBox(nodes: readonly BlockNode[], from: number, to: number, series: number): number {
  let h1 = -1;
  for (let i = from; i < to && h1 < 0; i++) if (nodes[i]!.name === 'h1' && !nodes[i]!.doomed && !nodes[i]!.linky) h1 = i;
  if (h1 < 0) return -1;
  const s = series >= 0 ? nodes[series] : undefined;
  let box = h1;
  for (let q = nodes[h1]!.parent; q >= from; q = nodes[q]!.parent) {
    const n = nodes[q]!;
    if (n.text > BOX_TEXT || n.links > BOX_LINK_SHARE * n.text || (s !== undefined && n.startChunk <= s.startChunk && s.endChunk <= n.endChunk)) break;
    box = q;
  }
  return box;
}

/** Both selections' ranges, merged. */
function union(a: Selection, b: Selection): Selection {
  if (a.ranges.length === 0) return b;
  if (b.ranges.length === 0) return a;
  const all = [...a.ranges, ...b.ranges].sort((x, y) => x[0] - y[0]);
  const ranges: Array<[number, number]> = [];
  for (const r of all) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else ranges.push([r[0], r[1]]);
  }
  const series = a.series === true || b.series === true;
  const disjoint = a.ranges[a.ranges.length - 1]![1] <= b.ranges[0]![0] || b.ranges[b.ranges.length - 1]![1] <= a.ranges[0]![0];
  if (!disjoint) {
    // One holds the other (a page's wrapper, say): the outer one's counts stand.
    const outer = a.text >= b.text ? a : b;
    return { ranges, text: outer.text, h1s: outer.h1s, root: outer.root, series };
  }
  return { ranges, text: a.text + b.text, h1s: a.h1s + b.h1s, root: 'div', series };
}

/** The content subtree, with the page's prose weighed as `selectContent` decided (hints, items). */
function pick(
  nodes: readonly BlockNode[],
  from: number,
  to: number,
  childProse: Float64Array,
  useHints: boolean,
  useItems: boolean,
  bodiless = false,
  shop = false,
  /** The page is a landing page (see selectContent): its introduction is kept whatever the content. */
  landing = false,
): Selection | undefined {
  const count = to - from;
  // Blocks that stand for pruned ones, with everything inside them, count for nothing (1). An
  // item's card (its linked title under a heading or over a picture) counts for nothing either
  // where the series does not vote as items (a blog index whose excerpts are its prose), but it
  // stays wherever its series is kept (2): the excerpts without their titles are no listing. A
  // claimed list of bare links (an item's action bar) goes; a shop's card title (a product's name
  // beside its price) stays, as its picture's link does. (0: counted and kept.)
  const gone = GONE.take(count);
  // The blocks of a list or a line of links that is the text's own (see BlockNode.labelled): its
  // links vote against nothing, as the filter left them out of its ancestors' link density.
  const own = OWN.take(count);
  for (let i = 0; i < count; i++) {
    const n = nodes[from + i]!;
    const p = n.parent - from;
    const pg = p >= 0 ? gone[p]! : 0;
    if (n.labelled === true || (p >= 0 && own[p] === 1)) own[i] = 1;
    if (n.doomed || pg === 1) gone[i] = 1;
    else if (n.linky && !useItems) gone[i] = n.claimed && (n.rich > 0 || n.title) ? 2 : 1;
    else if (pg === 2) gone[i] = 2;
  }
  const sum = SUM.take(count);
  const text = TEXT.take(count);
  // Nodes are in document order, so a subtree is the node and the `size - 1` nodes after it.
  const size = SIZE.take(count);
  // The text of the tables kept in each subtree (see the descent below).
  const tabled = TABLED.take(count);
  for (let i = count - 1; i >= 0; i--) {
    const n = nodes[from + i]!;
    // An unclaimed card counts for nothing: it stands for a block that was pruned.
    const s = gone[i] !== 0 ? 0 : sum[i]! + vote(n, useHints, useItems) + (own[i] === 1 ? n.link : 0);
    const t = gone[i] !== 0 ? 0 : text[i]! + n.plain + n.link + n.card;
    const z = size[i]! + 1;
    sum[i] = s;
    text[i] = t;
    size[i] = z;
    if (n.name === 'table') tabled[i] = t;
    const p = n.parent - from;
    if (p >= 0 && p < count) {
      // A comment thread beside the paragraphs of a post (in the post's own wrapper) would outvote
      // them there, leaving one paragraph the best: it counts for nothing, and is trimmed away.
      const thread = useHints && s < 0 && n.hint < 0 && nodes[n.parent]!.hint >= 0 && childProse[p]! >= OWN_PROSE_MIN;
      sum[p] = sum[p]! + (thread ? 0 : s);
      text[p] = text[p]! + t;
      size[p] = size[p]! + z;
      tabled[p] = tabled[p]! + tabled[i]!;
    }
  }
  let best = -1;
  for (let i = 0; i < count; i++) if (best < 0 || sum[i]! > sum[best]!) best = i;
  if (best < 0 || sum[best]! <= 0) return undefined;
  // A child that carries nearly all of the subtree's positive weight and most of its text is
  // the content; what else is beside it is a donation appeal, an author box, captions, bylines.
  // Not when headings, code or tables sit beside it: those are the content's own structure; nor
  // when a block beside it is partly tables, names no price and does not vote against it (a
  // product's specifications in the tab after its description's; a table with prices is an
  // order form).
  for (;;) {
    let top = -1;
    let positive = Math.max(0, vote(nodes[from + best]!, useHints, useItems));
    let structured = false;
    for (let i = best + 1; i < best + size[best]!; i += size[i]!) {
      if (sum[i]! > 0) positive += sum[i]!;
      if (top < 0 || sum[i]! > sum[top]!) top = i;
      if (STRUCTURE.has(nodes[from + i]!.name)) structured = true;
    }
    // (A section of the outline beside the dominant one: see sectionTitle.)
    if (!structured && top >= 0) {
      const own = sectionTitle(nodes, from, top, size);
      for (let i = best + 1; i < best + size[best]!; i += size[i]!) {
        if (i === top || sum[i]! < 0) continue;
        const title = sectionTitle(nodes, from, i, size);
        if (title >= 0 && (nodes[from + title]!.numbered === true || (own >= 0 && nodes[from + own]!.name === nodes[from + title]!.name))) structured = true;
      }
    }
    if (!structured && top >= 0) {
      for (let i = best + 1; i < best + size[best]!; i += size[i]!) if (i !== top && sum[i]! >= 0 && tabled[i]! > TABLE_SHARE * text[i]! && !nodes[from + i]!.priced) structured = true;
    }
    // A single block is never the whole content: short lines beside one long one are content too.
    if (structured || top < 0 || size[top]! <= 1) break;
    // A series keeps the heading and introduction beside it.
    if (useItems && nodes[from + top]!.items > 0) break;
    if (sum[top]! < DOMINANT_SHARE * positive || text[top]! < DOMINANT_TEXT * text[best]!) break;
    best = top;
  }
  const roots = [best];
  // On a page without a body of prose (a product's page: a gallery and buy box in one column, its
  // description and specs in a section further down; a course's outline beside its testimonials),
  // the best subtree is one part of the content, and its siblings that hold prose of their own
  // with (nearly) no links are the other parts, though the ancestor that holds them all is
  // outvoted by what else it holds (a rail, a review widget). Up to SIBLING_LEVELS ancestors up,
  // the siblings next to the kept run are kept too, as far as such siblings go on each side: a
  // block that is not one (a link list, a rail) ends the run on its side.
  if (bodiless) {
    const prose = PROSE.take(count);
    const linked = LINKED.take(count);
    for (let i = count - 1; i >= 0; i--) {
      if (gone[i] !== 0) continue;
      const n = nodes[from + i]!;
      if (n.plain >= PROSE_MIN && n.punct > 0 && n.hint >= 0) prose[i] = prose[i]! + n.plain;
      linked[i] = linked[i]! + n.link + n.card;
      const p = n.parent - from;
      if (p >= 0) {
        prose[p] = prose[p]! + prose[i]!;
        linked[p] = linked[p]! + linked[i]!;
      }
    }
    const part = (i: number): boolean =>
      gone[i] === 0 && sum[i]! > 0 && prose[i]! >= SIBLING_PROSE && linked[i]! <= SIBLING_LINK_SHARE * text[i]!;
    let c = best;
    let p = nodes[from + c]!.parent - from;
    for (let level = 0; level < SIBLING_LEVELS && p >= 0; level++) {
      const kids: number[] = [];
      for (let i = p + 1; i < p + size[p]!; i += size[i]!) kids.push(i);
      const at = kids.indexOf(c);
      for (const step of [-1, 1]) {
        for (let k = at + step; k >= 0 && k < kids.length; k += step) {
          const i = kids[k]!;
          if (gone[i] !== 0 || text[i] === 0) continue;
          if (!part(i)) break;
          roots.push(i);
        }
      }
      c = p;
      p = nodes[from + c]!.parent - from;
    }
    // The page's title, when no part holds it, brings the block around it (its highest ancestor
    // that holds no part, with at most BOX_TEXT of text and a third of it links) if that block
    // names a price: a product's buy box (name, price, options) beside its description.
    let h1 = -1;
    for (let i = 0; i < count && h1 < 0; i++) if (gone[i] === 0 && nodes[from + i]!.name === 'h1') h1 = i;
    const holds = (a: number, b: number): boolean => b >= a && b < a + size[a]!;
    if (h1 >= 0 && !roots.some((r) => holds(r, h1))) {
      let box = h1;
      for (let q = nodes[from + box]!.parent - from; q >= 0; q = nodes[from + q]!.parent - from) {
        if (text[q]! > BOX_TEXT || linked[q]! > BOX_LINK_SHARE * text[q]! || roots.some((r) => holds(q, r))) break;
        box = q;
      }
      if (nodes[from + box]!.priced) roots.push(box);
    }
    roots.sort((x, y) => x - y);
  }
  // A series chosen as the content leaves the page's title and introduction out when they sit
  // in a block of their own before it (an archive's description, a category's blurb): that
  // block is kept too, as it is before a landing page's content (its sections under the hero).
  let series = 0;
  for (let i = best; i < best + size[best]!; i++) if (gone[i] === 0 && nodes[from + i]!.items > series) series = nodes[from + i]!.items;
  const isSeries = series >= INTRO_SERIES_SHARE * text[best]!;
  if (isSeries || landing) {
    let r = introduction(nodes, from, best, size, text, gone, !isSeries);
    // Beside a body of prose, a lead a sliver of the length of what it introduces is a long
    // story's standfirst, though nothing marks the page as a story.
    if (r >= 0 && !isSeries && !bodiless && text[r]! < INTRO_BODY_SHARE * text[best]!) r = -1;
    if (r >= 0 && !roots.includes(r)) {
      roots.push(r);
      roots.sort((x, y) => x - y);
    }
  }
  let out: Selection | undefined;
  for (const r of roots) {
    const s = keep(nodes, from, r, size, sum, text, gone, useHints, !useItems, shop);
    out = out === undefined ? s : union(out, s);
  }
  if (out !== undefined && isSeries) out.series = true;
  return out;
}

/**
 * The heading the subtree at `at` (relative to `from`) opens with, or -1: the title of a section.
 * A section beside the dominant one is of the document's outline, and content whatever its title
 * says, when its title is numbered ("4.1.5. Comments") or of the same level as the dominant
 * section's own title (the "See also" after a reference page's "Description"); a sidebar's
 * widget under a title of its own ("Most popular") is neither (see pick).
 */
function sectionTitle(nodes: readonly BlockNode[], from: number, at: number, size: Int32Array): number {
  for (let i = at; i < at + size[at]!; i++) {
    const n = nodes[from + i]!;
    if (n.plain + n.link + n.card > 0) return HEADINGS.has(n.name) && n.link === 0 ? i : -1;
  }
  return -1;
}

/** Whether the node at `i` is inside an <article> (or is one). */
function inArticle(nodes: readonly BlockNode[], i: number): boolean {
  for (let q = i; q >= 0; q = nodes[q]!.parent) if (nodes[q]!.name === 'article') return true;
  return false;
}

/** Whether the subtree at `at` (relative to `from`) holds a paragraph of prose that is kept. */
function holdsProse(nodes: readonly BlockNode[], from: number, at: number, size: Int32Array, gone: Uint8Array): boolean {
  for (let i = at; i < at + size[at]!; i++) {
    const n = nodes[from + i]!;
    if (gone[i] === 0 && n.plain >= PROSE_MIN && n.punct > 0) return true;
  }
  return false;
}

/** Whether the block at `at` holds a paragraph of prose outside the blocks pruned (see introBefore). */
function keptProse(nodes: readonly BlockNode[], at: number): boolean {
  const end = nodes[at]!.endChunk;
  for (let i = at; i < nodes.length && nodes[i]!.startChunk < end; i++) {
    const n = nodes[i]!;
    if (!n.doomed && !n.linky && n.plain >= PROSE_MIN && n.punct > 0) return true;
  }
  return false;
}

/**
 * The block that holds the page's first h1 (before the content subtree at `best`, outside it)
 * when it is an introduction: short, with a paragraph of prose, few links, and not around the
 * content itself. -1 when there is none. `lead`: exactly one paragraph of prose, a hero's lead;
 * a block of several by the title is a part of its own (a product's buy box), which the parts
 * of a page without a body decide on (see pick).
 */
function introduction(nodes: readonly BlockNode[], from: number, best: number, size: Int32Array, text: Float64Array, gone: Uint8Array, lead = false): number {
  let h1 = -1;
  for (let i = 0; i < best && h1 < 0; i++) if (nodes[from + i]!.name === 'h1' && gone[i] === 0) h1 = i;
  if (h1 < 0) return -1;
  let p = nodes[from + h1]!.parent - from;
  if (p < 0 || best < p + size[p]! || text[p]! > INTRO_MAX_TEXT) return -1;
  // A title in a wrapper of its own (a heading container beside the lead's text block) has its
  // introduction in the nearest block up that holds prose. Not on a story: there that block is
  // the headline's standfirst and byline.
  if (!inArticle(nodes, from + h1) && !inArticle(nodes, from + best)) {
    while (!holdsProse(nodes, from, p, size, gone)) {
      const q = nodes[from + p]!.parent - from;
      if (q < 0 || best < q + size[q]! || text[q]! > INTRO_MAX_TEXT) break;
      p = q;
    }
  }
  let prose = 0;
  let paragraphs = 0;
  let links = 0;
  for (let i = p; i < p + size[p]!; i++) {
    if (gone[i] !== 0) continue;
    const n = nodes[from + i]!;
    if (n.plain >= PROSE_MIN && n.punct > 0 && n.hint >= 0) {
      prose += n.plain;
      paragraphs++;
    }
    links += n.link;
  }
  if (lead && paragraphs !== 1) return -1;
  return prose >= PROSE_MIN && links <= INTRO_LINK_SHARE * text[p]! ? p : -1;
}

/**
 * The same introduction before a landmark the content was narrowed to (`from`: the landmark's
 * first node): the block that holds the page's first h1, when it ends before the landmark and
 * is an introduction (see introduction). Its node index, or -1.
 */
export function introBefore(nodes: readonly BlockNode[], from: number): number {
  if (from <= 0 || from >= nodes.length) return -1;
  let h1 = -1;
  for (let i = 0; i < from && h1 < 0; i++) if (nodes[i]!.name === 'h1' && !nodes[i]!.doomed && !nodes[i]!.linky) h1 = i;
  if (h1 < 0) return -1;
  let p = nodes[h1]!.parent;
  if (p < 0) return -1;
  // A title in a wrapper of its own: its introduction is the nearest block up that holds prose
  // (see introduction), still before the landmark.
  if (!inArticle(nodes, h1)) {
    while (!keptProse(nodes, p)) {
      const q = nodes[p]!.parent;
      if (q < 0 || nodes[q]!.endChunk > nodes[from]!.startChunk || nodes[q]!.text > INTRO_MAX_TEXT) break;
      p = q;
    }
  }
  const box = nodes[p]!;
  if (box.endChunk > nodes[from]!.startChunk || box.doomed || box.linky || box.text > INTRO_MAX_TEXT) return -1;
  let prose = 0;
  let links = 0;
  for (let i = p; i < nodes.length && nodes[i]!.startChunk < box.endChunk; i++) {
    const n = nodes[i]!;
    // A card no series claimed is cut from the box (see clean-html); an item of one is no introduction.
    if (n.doomed) continue;
    if (n.linky) return -1;
    if (n.plain >= PROSE_MIN && n.punct > 0 && n.hint >= 0) prose += n.plain;
    links += n.link;
  }
  return prose >= PROSE_MIN && links <= INTRO_LINK_SHARE * box.text ? p : -1;
}

