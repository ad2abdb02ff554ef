/**
 * BM25 over windows of consecutive sentences: the passages of a page most relevant to a query,
 * verbatim. Used for `highlights` and, without a model, for `question` (the best supporting passage).
 */
import { analyse, terms, type PageText } from './text.js';

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
  const q = [...new Set(terms(query))].map((t) => text.vocab.get(t)).filter((id): id is number => id !== undefined);
  const keep: number[] = [];
  text.sentences.forEach((s, i) => {
    if (!s.heading) keep.push(i);
  });
  if (keep.length === 0 || q.length === 0) return [];
  const all = keep.map((i) => text.sentences[i]!);
  // BM25 reads only the query's terms: per sentence, their counts and the sentence's length.
  const lengths = keep.map((i) => text.ids[i]!.length);
  const counts = keep.map((i) => {
    const bag = text.ids[i]!;
    const c = new Array<number>(q.length).fill(0);
    for (const t of bag) {
      const k = q.indexOf(t);
      if (k >= 0) c[k]!++;
    }
    return c;
  });
  const size = Math.max(1, opts.window ?? 2);
  const windows: { start: number; end: number; len: number; tf: number[] }[] = [];
  for (let i = 0; i < all.length; i++) {
    const end = Math.min(all.length, i + size);
    // A window stays inside one paragraph, so a passage reads as the page wrote it.
    let j = i + 1;
    while (j < end && all[j]!.block === all[i]!.block) j++;
    const tf = new Array<number>(q.length).fill(0);
    let len = 0;
    for (let k = i; k < j; k++) {
      len += lengths[k]!;
      for (let x = 0; x < q.length; x++) tf[x]! += counts[k]![x]!;
    }
    windows.push({ start: i, end: j, len, tf });
  }
  const n = windows.length;
  const df = q.map((_, x) => windows.reduce((m, w) => m + (w.tf[x]! > 0 ? 1 : 0), 0));
  const avg = windows.reduce((m, w) => m + w.len, 0) / n || 1;
  const idf = df.map((d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  const scored = windows.map((w) => {
    let score = 0;
    for (let x = 0; x < q.length; x++) {
      const f = w.tf[x]!;
      if (f) score += (idf[x]! * f * (K1 + 1)) / (f + K1 * (1 - B + (B * w.len) / avg));
    }
    return { w, score };
  });
  const picked: Passage[] = [];
  for (const { w, score } of scored.filter((p) => p.score > 0).sort((a, b) => b.score - a.score)) {
    if (picked.some((o) => w.start < o.end && o.start < w.end)) continue;
    picked.push({ text: all.slice(w.start, w.end).map((s) => s.text).join(' '), score, start: w.start, end: w.end });
    if (picked.length >= (opts.top ?? 3)) break;
  }
  return picked;
}
