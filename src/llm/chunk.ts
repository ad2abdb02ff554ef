/**
 * Long pages in parts that fit a prompt's token budget, cut at paragraph (else line, else word)
 * boundaries, and the parts' JSON answers merged back into one.
 */
import { estimateTokens } from './provider.js';

export function splitByTokens(text: string, budget: number): string[] {
  if (estimateTokens(text) <= budget) return [text];
  const maxChars = Math.max(200, budget * 4);
  const parts: string[] = [];
  let current = '';
  const pieces = text.split(/(\n\n+)/);
  const push = () => {
    if (current.trim()) parts.push(current.trim());
    current = '';
  };
  for (const piece of pieces) {
    if (current.length + piece.length <= maxChars) {
      current += piece;
      continue;
    }
    push();
    if (piece.length <= maxChars) {
      current = piece;
      continue;
    }
    // One paragraph longer than a part: cut it at lines, then at words.
    for (const line of piece.split(/(?<=\n)|(?<=\s)/)) {
      if (current.length + line.length > maxChars) push();
      current += line.length > maxChars ? line.slice(0, maxChars) : line;
    }
  }
  push();
  return parts;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * Arrays are concatenated and de-duplicated; objects merge field by field; a scalar takes the
 * value the most parts agree on (the best-supported), the earliest part breaking a tie.
 */
export function mergeAnswers(answers: unknown[]): unknown {
  const present = answers.filter((a) => !isEmpty(a));
  if (present.length === 0) return answers[0];
  if (present.every(Array.isArray)) {
    const seen = new Set<string>();
    const out: unknown[] = [];
    for (const item of (present as unknown[][]).flat()) {
      const key = JSON.stringify(item);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(item);
      }
    }
    return out;
  }
  if (present.every(isPlainObject)) {
    const keys = [...new Set(present.flatMap((o) => Object.keys(o)))];
    return Object.fromEntries(keys.map((k) => [k, mergeAnswers(present.map((o) => o[k]))]).filter(([, v]) => v !== undefined));
  }
  const votes = new Map<string, { value: unknown; n: number; first: number }>();
  present.forEach((v, i) => {
    const key = JSON.stringify(v);
    const hit = votes.get(key) ?? { value: v, n: 0, first: i };
    hit.n++;
    votes.set(key, hit);
  });
  return [...votes.values()].sort((a, b) => b.n - a.n || a.first - b.first)[0]!.value;
}
