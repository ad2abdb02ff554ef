/**
 * The choice of the page's main block once the page has streamed past: the landmark to narrow
 * it to (chooseLandmark), the block the scoring picks inside it (selectContent), the
 * introduction a series leaves before it, and the blocks the rules marked that no series claimed.
 */
import { withoutPruned } from './content-keep.js';
import { bodyOutside, introBefore, selectContent } from './content-score.js';
import type { FilterState } from './filter-state.js';
import { candidateText, chooseLandmark } from './landmarks.js';
import { isNearlyEmpty } from './main-content.js';

/** The output chunks of the main block, and what they hold. */
export interface MainBlock {
  chunks: string[];
  keptText: number;
  h1s: number;
  /** The chosen block's tag, when only its inside was chosen (see ContentSink.standalone). */
  rootName: string | undefined;
  /** The output's chunk ranges the chunks are, in order (undefined: the whole output). */
  ranges: ReadonlyArray<readonly [number, number]> | undefined;
}

export function selectMain(s: FilterState): MainBlock {
  let chunks: string[] = s.out;
  let keptText = s.keptText - s.doomedText;
  let h1s = s.h1Kept;
  let rootName: string | undefined;
  let chosen = chooseLandmark(s.candidates, keptText, s.nodes);
  // A <main> beside a longer body of prose outside it is not the page's content on its own.
  if (chosen !== undefined && chosen.kind === 'main' && bodyOutside(s.nodes, chosen.startNode, chosen.endNode)) chosen = undefined;
  let from = 0;
  let to = s.nodes.length;
  let start = 0;
  let end = s.out.length;
  if (chosen !== undefined) {
    start = chosen.startChunk;
    end = chosen.endChunk;
    chunks = s.out.slice(start, end);
    keptText = candidateText(chosen);
    h1s = chosen.endH1 - chosen.startH1;
    from = chosen.startNode;
    to = chosen.endNode;
  }
  let picked = selectContent(s.nodes, from, to, s.discussion, s.story);
  // A pick that leaves (nearly) nothing of a page the rules left text on anchored on a stray
  // sentence (a comment policy under an unpunctuated table or list): what the rules kept is
  // the content, rather than the page without them.
  if (picked !== undefined && !s.lenient && isNearlyEmpty(picked.text, s.baseText) && !isNearlyEmpty(keptText, s.baseText)) picked = undefined;
  let ranges: Array<[number, number]> | undefined = chosen !== undefined ? [[start, end]] : undefined;
  if (picked !== undefined) {
    ranges = picked.ranges;
    keptText = picked.text;
    h1s = picked.h1s;
    rootName = picked.root;
    // A series narrowed to its <main> leaves the page's title and introduction before it out;
    // so does a shop's category narrowed to a <main> that holds its buying guide and grid.
    if (chosen !== undefined && (picked.series === true || picked.catalogue === true) && h1s === 0 && ranges.length > 0) {
      const intro = introBefore(s.nodes, from);
      if (intro >= 0) {
        const box = s.nodes[intro]!;
        // (Less the cards it holds that no series claimed: a course's links under its blurb.)
        let last = intro + 1;
        while (last < s.nodes.length && s.nodes[last]!.startChunk < box.endChunk) last++;
        const cut = withoutPruned(s.nodes, intro, last, box.startChunk, box.endChunk);
        ranges = [...(cut?.ranges ?? [[box.startChunk, box.endChunk]]), ...ranges];
        keptText += box.text;
        h1s += box.endH1 - box.startH1;
        rootName = 'div';
      }
    }
  } else {
    const cut = withoutPruned(s.nodes, from, to, start, end);
    if (cut !== undefined) {
      ranges = cut.ranges;
      keptText -= cut.text;
      h1s -= cut.h1s;
    }
  }
  if (ranges !== undefined) {
    // Links and emphasis cut in two by the selection lose their other half too.
    s.sink.dropUnpaired(ranges);
    chunks = ranges.length === 1 ? s.out.slice(ranges[0]![0], ranges[0]![1]) : ranges.flatMap(([from, to]) => s.out.slice(from, to));
  }
  return { chunks, keptText, h1s, rootName, ranges };
}
