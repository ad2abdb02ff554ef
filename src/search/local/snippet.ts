/**
 * The snippet shown for a local hit: the passage of the page's text that holds the most of the
 * query's words (distinct words first, then how often), made readable (the index keeps markup:
 * page-text.ts) and trimmed around its first match.
 */
import { markdownToText } from './page-text.js';

const MAX_SNIPPET = 240;

/** Lower-case words of a text; the index and the snippet agree on what a word is. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A crude stem, enough to match "pages" to "page" and "running" to "run" in a passage. */
const stem = (w: string) => w.replace(/(ing|ed|es|s)$/, '') || w;

function passages(text: string): string[] {
  const out: string[] = [];
  for (const para of text.split(/\n+/)) {
    // A code fence's own line is no passage (the code between fences is, as it is indexed).
    if (/^\s*(```|~~~)/.test(para)) continue;
    const p = para.replace(/\s+/g, ' ').trim();
    if (!p) continue;
    if (p.length <= MAX_SNIPPET * 2) {
      out.push(p);
      continue;
    }
    // A long paragraph: sentences, gathered into passages of about snippet size.
    let cur = '';
    for (const s of p.split(/(?<=[.!?])\s+/)) {
      if (cur && cur.length + s.length > MAX_SNIPPET) {
        out.push(cur);
        cur = '';
      }
      cur = cur ? `${cur} ${s}` : s;
    }
    if (cur) out.push(cur);
  }
  return out;
}

export function bestSnippet(text: string, query: string): string {
  const terms = [...new Set(wordsOf(query).map(stem))];
  const all = passages(text);
  if (all.length === 0) return '';
  let best = all[0]!;
  let bestScore = -1;
  for (const p of all) {
    const stems = wordsOf(p).map(stem);
    const distinct = terms.filter((t) => stems.includes(t)).length;
    const total = stems.filter((s) => terms.includes(s)).length;
    const score = distinct * 1000 + Math.min(total, 999);
    if (score > bestScore) {
      best = p;
      bestScore = score;
    }
  }
  return trimAround(readable(best), terms);
}

/** A passage of the indexed text as a reader sees it: markup out, blanks closed up. */
const readable = (passage: string): string => markdownToText(passage).replace(/\s+/g, ' ').trim();

function trimAround(passage: string, terms: string[]): string {
  if (passage.length <= MAX_SNIPPET) return passage;
  const lower = passage.toLowerCase();
  let at = -1;
  for (const t of terms) {
    const i = lower.search(new RegExp(`(?<![\\p{L}\\p{N}])${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u'));
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const start = Math.max(0, at < 0 ? 0 : at - 60);
  const cut = passage.slice(start, start + MAX_SNIPPET);
  const clean = cut.replace(/^\S*\s/, start > 0 ? '' : '$&').replace(/\s\S*$/, '');
  return `${start > 0 ? '…' : ''}${clean}${start + MAX_SNIPPET < passage.length ? '…' : ''}`;
}
