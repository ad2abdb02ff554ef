/**
 * Extractive summary: the page's most central sentences, verbatim and in page order. A sentence
 * scores by how frequent its words are across the page (normalised by its length), with a small
 * lift for the opening paragraphs, where articles state their subject.
 */
import { sentences, terms, wordCount, type Sentence } from './text.js';

export interface SummaryOptions {
  /** Sentences kept at most. */
  maxSentences?: number;
}

export function extractiveSummary(markdown: string, opts: SummaryOptions = {}): string {
  const all = sentences(markdown).filter((s) => !s.heading && wordCount(s.text) >= 5 && wordCount(s.text) <= 80);
  if (all.length === 0) return '';
  const bags = all.map((s) => terms(s.text));
  const freq = new Map<string, number>();
  for (const bag of bags) for (const t of new Set(bag)) freq.set(t, (freq.get(t) ?? 0) + 1);
  const maxFreq = Math.max(1, ...freq.values());
  const firstBlock = all[0]!.block;
  const scored = all.map((s, i) => {
    const bag = bags[i]!;
    let score = 0;
    for (const t of new Set(bag)) score += (freq.get(t) ?? 0) / maxFreq;
    score /= Math.sqrt(Math.max(4, bag.length));
    if (s.block - firstBlock < 2) score *= 1.25;
    return { s, score };
  });
  const keep = Math.min(opts.maxSentences ?? Math.max(3, Math.min(7, Math.round(all.length / 10))), all.length);
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, keep)
    .map((x) => x.s)
    .sort((a: Sentence, b: Sentence) => a.index - b.index)
    .map((s) => s.text)
    .join(' ');
}
