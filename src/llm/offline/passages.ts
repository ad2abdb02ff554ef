/**
 * BM25 over windows of consecutive sentences: the passages of a page most relevant to a query,
 * verbatim. Used for `highlights` and, without a model, for `question` (the best supporting passage).
 */
import { sentences, terms } from './text.js';

export interface Passage {
  text: string;
  score: number;
  /** Index of the first sentence. */
  start: number;
  end: number;
}

const K1 = 1.2;
const B = 0.75;

export function rankPassages(markdown: string, query: string, opts: { window?: number; top?: number } = {}): Passage[] {
  const all = sentences(markdown).filter((s) => !s.heading);
  const q = [...new Set(terms(query))];
  if (all.length === 0 || q.length === 0) return [];
  const size = Math.max(1, opts.window ?? 2);
  const sentTerms = all.map((s) => terms(s.text));
  const windows: { start: number; end: number; bag: string[] }[] = [];
  for (let i = 0; i < all.length; i++) {
    const end = Math.min(all.length, i + size);
    // A window stays inside one paragraph, so a passage reads as the page wrote it.
    let j = i + 1;
    while (j < end && all[j]!.block === all[i]!.block) j++;
    windows.push({ start: i, end: j, bag: sentTerms.slice(i, j).flat() });
  }
  const df = new Map<string, number>();
  for (const w of windows) for (const t of new Set(w.bag)) if (q.includes(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const avg = windows.reduce((n, w) => n + w.bag.length, 0) / windows.length || 1;
  const n = windows.length;
  const scored: Passage[] = windows.map((w) => {
    const tf = new Map<string, number>();
    for (const t of w.bag) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    for (const t of q) {
      const f = tf.get(t) ?? 0;
      if (!f) continue;
      const idf = Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
      score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * w.bag.length) / avg));
    }
    return { text: all.slice(w.start, w.end).map((s) => s.text).join(' '), score, start: w.start, end: w.end };
  });
  const picked: Passage[] = [];
  for (const p of scored.filter((p) => p.score > 0).sort((a, b) => b.score - a.score)) {
    if (picked.some((o) => p.start < o.end && o.start < p.end)) continue;
    picked.push(p);
    if (picked.length >= (opts.top ?? 3)) break;
  }
  return picked;
}
