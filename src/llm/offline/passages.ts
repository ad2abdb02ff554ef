/**
 * BM25 over windows of consecutive sentences: the passages of a page most relevant to a query,
 * verbatim. Used for `highlights` and, without a model, for `question` (the best supporting passage).
 */
import { analyse, joinSentences, termId, terms, type PageText } from './text.js';

export interface Passage {
  text: string;
  score: number;
  /** Index of the first sentence. */
  start: number;
  end: number;
}

const K1 = 1.2;
const B = 0.75;

export function rankPassages(page: string | PageText, query: string, opts: { window?: number; top?: number } = {}): Passage[] {
  const text = typeof page === 'string' ? analyse(page) : page;
  // Query terms the page never uses score nothing: only the others are counted.
  const q = [...new Set(terms(query))].map((t) => termId(text, t)).filter((id) => id >= 0);
  const keep: number[] = [];
  text.sentences.forEach((s, i) => {
    if (!s.heading) keep.push(i);
  });
  const nq = q.length;
  if (keep.length === 0 || nq === 0) return [];
  const all = keep.map((i) => text.sentences[i]!);
  // BM25 reads only the query's terms: per sentence, their counts (one row of `counts` each) and
  // the sentence's length. `slot` maps a term to its place in the query (-1: not in it).
  const slot = new Int32Array(text.termCount).fill(-1);
  q.forEach((t, x) => (slot[t] = x));
  const lengths = new Int32Array(keep.length);
  const counts = new Int32Array(keep.length * nq);
  const { ids, bounds } = text;
  keep.forEach((si, k) => {
    lengths[k] = bounds[si + 1]! - bounds[si]!;
    for (let j = bounds[si]!; j < bounds[si + 1]!; j++) {
      const x = slot[ids[j]!]!;
      if (x >= 0) counts[k * nq + x]!++;
    }
  });
  const size = Math.max(1, opts.window ?? 2);
  const n = all.length;
  // Window i starts at sentence i and ends before ends[i]; its term counts are row i of `tf`.
  const ends = new Int32Array(n);
  const lens = new Int32Array(n);
  const tf = new Int32Array(n * nq);
  const df = new Int32Array(nq);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const end = Math.min(n, i + size);
    // A window stays inside one paragraph, so a passage reads as the page wrote it.
    let j = i + 1;
    while (j < end && all[j]!.block === all[i]!.block) j++;
    ends[i] = j;
    for (let k = i; k < j; k++) {
      lens[i]! += lengths[k]!;
      for (let x = 0; x < nq; x++) tf[i * nq + x]! += counts[k * nq + x]!;
    }
    total += lens[i]!;
    for (let x = 0; x < nq; x++) if (tf[i * nq + x]! > 0) df[x]!++;
  }
  const avg = total / n || 1;
  const idf = Array.from(df, (d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  const scored: { start: number; score: number }[] = [];
  for (let i = 0; i < n; i++) {
    let score = 0;
    for (let x = 0; x < nq; x++) {
      const f = tf[i * nq + x]!;
      if (f) score += (idf[x]! * f * (K1 + 1)) / (f + K1 * (1 - B + (B * lens[i]!) / avg));
    }
    if (score > 0) scored.push({ start: i, score });
  }
  const picked: Passage[] = [];
  for (const { start, score } of scored.sort((a, b) => b.score - a.score)) {
    const end = ends[start]!;
    if (picked.some((o) => start < o.end && o.start < end)) continue;
    picked.push({ text: joinSentences(all.slice(start, end).map((s) => s.text)), score, start, end });
    if (picked.length >= (opts.top ?? 3)) break;
  }
  return picked;
}
