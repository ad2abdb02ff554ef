/**
 * Extractive summary: the page's most central sentences, verbatim and in page order. A sentence
 * scores by how frequent its words are across the page (normalised by its length), with a small
 * lift for the opening paragraphs, where articles state their subject.
 */
import { analyse, joinSentences, type PageText, type Sentence } from './text.js';

export interface SummaryOptions {
  /** Sentences kept at most. */
  maxSentences?: number;
}

export function extractiveSummary(page: string | PageText, opts: SummaryOptions = {}): string {
  const text = typeof page === 'string' ? analyse(page) : page;
  const keepIdx: number[] = [];
  const { ids, bounds } = text;
  text.sentences.forEach((s, i) => {
    const n = bounds[i + 1]! - bounds[i]!;
    if (!s.heading && n >= 3 && n <= 60) keepIdx.push(i);
  });
  if (keepIdx.length === 0) return '';
  const all = keepIdx.map((i) => text.sentences[i]!);
  // Document frequency of each term over the kept sentences (a term counts once per sentence).
  const df = new Float64Array(text.termCount);
  const seen = new Int32Array(text.termCount).fill(-1);
  keepIdx.forEach((si, k) => {
    for (let j = bounds[si]!; j < bounds[si + 1]!; j++) {
      const id = ids[j]!;
      if (seen[id] === k) continue;
      seen[id] = k;
      df[id]!++;
    }
  });
  let maxFreq = 1;
  for (const d of df) if (d > maxFreq) maxFreq = d;
  seen.fill(-1);
  const firstBlock = all[0]!.block;
  const scored = all.map((s, k) => {
    const si = keepIdx[k]!;
    let score = 0;
    for (let j = bounds[si]!; j < bounds[si + 1]!; j++) {
      const id = ids[j]!;
      if (seen[id] === k) continue;
      seen[id] = k;
      score += df[id]! / maxFreq;
    }
    score /= Math.sqrt(Math.max(4, bounds[si + 1]! - bounds[si]!));
    if (s.block - firstBlock < 2) score *= 1.25;
    return { s, score };
  });
  const keep = Math.min(opts.maxSentences ?? Math.max(3, Math.min(7, Math.round(all.length / 10))), all.length);
  const kept = scored
    .sort((a, b) => b.score - a.score)
    .slice(0, keep)
    .map((x) => x.s)
    .sort((a: Sentence, b: Sentence) => a.index - b.index)
    .map((s) => s.text);
  return joinSentences(kept);
}
