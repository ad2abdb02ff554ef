/**
 * Landmarks (<main>, <article>) recorded as the page streams past, and the choice of the one to
 * narrow the page to: the first <main> that holds enough of it, an <article> that dominates its
 * scope unless it opens a thread of posts.
 */
import type { BlockNode } from './block-node.js';
import type { LandmarkKind } from './main-content.js';

/**
 * A landmark's extent in the output (chunks), in the block tree (nodes) and in open/close order
 * (`seq`/`closeSeq`: chunk extents can coincide when the output writes nothing for a wrapper),
 * and the text it holds.
 */
export interface Candidate {
  kind: LandmarkKind;
  startChunk: number;
  endChunk: number;
  startNode: number;
  endNode: number;
  seq: number;
  closeSeq: number;
  startText: number;
  endText: number;
  startH1: number;
  endH1: number;
  closed: boolean;
}

/** Whether `outer` opened before `inner` and closed after it (or is it). */
function encloses(outer: Candidate, inner: Candidate): boolean {
  return outer.seq <= inner.seq && outer.closeSeq >= inner.closeSeq;
}

export function candidateText(c: Candidate): number {
  return c.endText - c.startText;
}

// A <main> must hold at least this share of the kept text to be trusted as the page's content.
const MAIN_MIN_SHARE = 0.3;
// An <article> must dominate its scope this much, and its runner-up must be this much smaller,
// so listings and forums (many similar articles) are not cut down to one entry.
const ARTICLE_MIN_SHARE = 0.5;
const ARTICLE_RUNNER_UP_MAX = 0.3;
// A thread's replies together this much of its opening post make the page the thread, not the post.
const THREAD_REPLIES_MIN_SHARE = 0.3;
// How far above two posts the block that lists them both may sit (a post's wrappers, its list item).
const THREAD_LIST_MAX_UP = 6;

/**
 * Whether two outermost <article>s are entries of one list: their wrappers have the same shapes
 * up to the block that holds both, as a thread's posts do (each in a post wrapper of its own),
 * and a story and the teasers of a widget below it (wrapped by a template of another kind) do not.
 */
function sameList(nodes: readonly BlockNode[], a: Candidate, b: Candidate): boolean {
  const x = nodes[a.startNode];
  const y = nodes[b.startNode];
  if (x?.name !== 'article' || y?.name !== 'article') return false;
  let pa = x.parent;
  let pb = y.parent;
  for (let up = 0; up < THREAD_LIST_MAX_UP && pa >= 0 && pb >= 0; up++) {
    if (pa === pb) return true;
    const na = nodes[pa]!;
    const nb = nodes[pb]!;
    if (na.shape !== nb.shape) return false;
    pa = na.parent;
    pb = nb.parent;
  }
  return false;
}

/**
 * Picks the landmark to narrow the page to, or undefined to keep the whole cleaned page.
 * `keptText` is the text length of the whole cleaned page.
 */
export function chooseLandmark(candidates: readonly Candidate[], keptText: number, nodes: readonly BlockNode[] = []): Candidate | undefined {
  if (keptText <= 0) return undefined;
  let scope: Candidate | undefined;
  let scopeText = keptText;

  // The first <main> that holds enough of the page, not the longest: a later one is what the
  // template appends (the next story of an endless scroll, a feed of teasers), however long.
  const main = candidates.find((c) => c.kind === 'main' && c.closed && candidateText(c) >= MAIN_MIN_SHARE * keptText);
  if (main) {
    scope = main;
    scopeText = candidateText(main);
  }

  // Outermost articles within the scope.
  const articles = candidates.filter(
    (c) =>
      c.kind === 'article' &&
      c.closed &&
      (!scope || encloses(scope, c)) &&
      !candidates.some((o) => o !== c && o.kind === 'article' && encloses(o, c)),
  );
  if (articles.length > 0 && scopeText > 0) {
    const sorted = [...articles].sort((a, b) => candidateText(b) - candidateText(a));
    const first = sorted[0]!;
    const second = sorted[1];
    const firstText = candidateText(first);
    if (
      firstText >= ARTICLE_MIN_SHARE * scopeText &&
      (!second || candidateText(second) <= ARTICLE_RUNNER_UP_MAX * firstText) &&
      !isThread(nodes, first, sorted)
    ) {
      scope = first;
    }
  }
  return scope;
}

/**
 * Whether the longest <article> opens a thread: the posts listed with it (see sameList) add up to
 * a fair share of it, each one too short to be the runner-up that keeps a forum whole.
 */
function isThread(nodes: readonly BlockNode[], first: Candidate, articles: readonly Candidate[]): boolean {
  let replies = 0;
  for (const c of articles) if (c !== first && sameList(nodes, first, c)) replies += candidateText(c);
  return replies >= THREAD_REPLIES_MIN_SHARE * candidateText(first);
}
