/**
 * Tables told by their ruling lines. Horizontal rules stacked over the same span cut rows (a
 * cell of several lines stays one cell); vertical rules, when drawn, cut columns, and where a
 * border is missing between two grid cells they are one spanning cell, as in the source table.
 * Without vertical rules the columns come from the text's alignment. A table drawn with only
 * a rule under each row also takes the row just above its first rule (its header).
 */
import { joinLines2 } from './table.js';
import { lineX0, lineX1, type Line, type Rule, type Segment } from './geometry.js';

/** Rules closer than this (page units) are one border: cell boxes drawn side by side, double lines. */
const SAME_BORDER = 3.5;
/** Text this close (in ems) to a rule sits in the cell it bounds (cell padding). */
const PADDING_EM = 0.75;
/** A rule shorter than this is an underline or a mark, not a table's. */
const MIN_TABLE_WIDTH = 30;
/** More rules than this is a drawing (a chart, a plan), not tables: the grid would cost too much. */
const MAX_RULES = 1500;
const MAX_GRID_CELLS = 20_000;

export interface RuledTable {
  /** Indices (into the lines given) of the lines the table holds, ascending. */
  lines: number[];
  rows: string[][];
}

interface Level {
  y: number;
  x0: number;
  x1: number;
  rules: Rule[];
}

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
const top = (l: Line) => l.baseline - 0.9 * l.size;
const bottom = (l: Line) => l.baseline + 0.25 * l.size;
const middle = (l: Line) => l.baseline - 0.35 * l.size;

export const horizontal = (r: Rule) => r.x1 - r.x0 > r.y1 - r.y0;

/** Horizontal rules grouped into borders: about one y, overlapping or touching in x. */
function levelsOf(rules: Rule[]): Level[] {
  const hs = rules.filter(horizontal).sort((a, b) => a.y0 + a.y1 - b.y0 - b.y1);
  const levels: Level[] = [];
  for (const r of hs) {
    const y = (r.y0 + r.y1) / 2;
    const level = levels.find((l) => Math.abs(l.y - y) < SAME_BORDER && r.x0 <= l.x1 + SAME_BORDER && r.x1 >= l.x0 - SAME_BORDER);
    if (level) {
      level.rules.push(r);
      level.x0 = Math.min(level.x0, r.x0);
      level.x1 = Math.max(level.x1, r.x1);
    } else levels.push({ y, x0: r.x0, x1: r.x1, rules: [r] });
  }
  return levels.sort((a, b) => a.y - b.y);
}

/** Clusters of nearby values (one per border), ascending. */
function clusters(xs: number[]): number[] {
  const out: number[][] = [];
  for (const x of [...xs].sort((a, b) => a - b)) {
    const last = out.at(-1);
    if (last && x - last.at(-1)! < SAME_BORDER) last.push(x);
    else out.push([x]);
  }
  return out.map((c) => (c[0]! + c.at(-1)!) / 2);
}

/** Finds the tables drawn with rules among a page's lines (in reading order). */
export function ruledTables(lines: Line[], rules: Rule[]): RuledTable[] {
  if (rules.length < 2 || rules.length > MAX_RULES) return [];
  const verticals = rules.filter((r) => !horizontal(r));
  const levels = levelsOf(rules).filter((l) => l.x1 - l.x0 >= MIN_TABLE_WIDTH);
  const inside = (x0: number, x1: number, y0: number, y1: number) =>
    lines.flatMap((l, k) => (middle(l) > y0 && middle(l) < y1 && lineX0(l) < x1 && lineX1(l) > x0 ? [k] : []));
  const covered = (x0: number, x1: number, y0: number, y1: number) =>
    verticals.some((v) => Math.abs(v.x0 - x0) < SAME_BORDER + 1 && overlap(v.y0, v.y1, y0, y1) > 0.8 * (y1 - y0)) &&
    verticals.some((v) => Math.abs(v.x1 - x1) < SAME_BORDER + 1 && overlap(v.y0, v.y1, y0, y1) > 0.8 * (y1 - y0));

  // Chains of levels over one span, each band between two of them holding table rows.
  const chains: Level[][] = [];
  const used = new Set<Level>();
  for (const first of levels) {
    if (used.has(first)) continue;
    const chain = [first];
    used.add(first);
    let [x0, x1] = [first.x0, first.x1];
    for (const next of levels) {
      const last = chain.at(-1)!;
      if (used.has(next) || next.y <= last.y) continue;
      if (overlap(x0, x1, next.x0, next.x1) < 0.8 * Math.min(x1 - x0, next.x1 - next.x0)) continue;
      if (!bandHolds(lines, inside(x0, x1, last.y, next.y), last.y, next.y, x0, x1) && !covered(x0, x1, last.y, next.y)) break;
      chain.push(next);
      used.add(next);
      [x0, x1] = [Math.min(x0, next.x0), Math.max(x1, next.x1)];
    }
    if (chain.length >= 2) chains.push(chain);
  }

  const tables: RuledTable[] = [];
  for (const chain of chains) {
    const x0 = Math.min(...chain.map((l) => l.x0));
    const x1 = Math.max(...chain.map((l) => l.x1));
    const sides = verticals.filter((v) => v.x1 > x0 - SAME_BORDER && v.x0 < x1 + SAME_BORDER && overlap(v.y0, v.y1, chain[0]!.y - 1, chain.at(-1)!.y + 1) > 0);
    let y0 = Math.min(chain[0]!.y, ...sides.map((v) => v.y0));
    let y1 = Math.max(chain.at(-1)!.y, ...sides.map((v) => v.y1));
    if (sides.length === 0) {
      // Rules under (or over) each row only: the row beyond the outermost rule is the table's too.
      y0 = reach(lines, inside(x0, x1, -Infinity, y0), y0, -1) ?? y0;
      y1 = reach(lines, inside(x0, x1, y1, Infinity), y1, 1) ?? y1;
    }
    const members = inside(x0, x1, y0, y1);
    if (members.length === 0) continue;
    const rows = gridRows(members.map((k) => lines[k]!), chain, sides, [x0, x1], [y0, y1]);
    if (rows.length >= 2) tables.push({ lines: members, rows });
  }
  return tables;
}

/** A band between two rules holds table rows: its lines fit the span and touch both rules. */
function bandHolds(lines: Line[], ks: number[], y0: number, y1: number, x0: number, x1: number): boolean {
  if (ks.length === 0) return y1 - y0 < 16;
  const ls = ks.map((k) => lines[k]!);
  if (ls.some((l) => lineX0(l) < x0 - l.size || lineX1(l) > x1 + l.size)) return false;
  const first = ls.reduce((a, l) => (top(l) < top(a) ? l : a));
  const last = ls.reduce((a, l) => (bottom(l) > bottom(a) ? l : a));
  return top(first) - y0 < PADDING_EM * first.size && y1 - bottom(last) < PADDING_EM * last.size;
}

/** The edge of the row just beyond an outer rule (direction -1: above, 1: below), if one sits there. */
function reach(lines: Line[], ks: number[], y: number, dir: -1 | 1): number | undefined {
  const ls = ks.map((k) => lines[k]!).sort((a, b) => dir * (a.baseline - b.baseline));
  let edge: number | undefined;
  let at = y;
  for (const l of ls) {
    const gap = dir < 0 ? at - bottom(l) : top(l) - at;
    if (gap > (edge === undefined ? PADDING_EM : 0.5) * l.size) break;
    at = dir < 0 ? top(l) : bottom(l);
    edge = at + dir * 1;
  }
  return edge;
}

/**
 * The rows of a ruled table: grid cells between the borders, merged where no rule separates
 * them; each merged cell belongs to the row it starts in, as a source table's spanning cell does.
 */
function gridRows(lines: Line[], chain: Level[], sides: Rule[], [x0, x1]: [number, number], [y0, y1]: [number, number]): string[][] {
  const ys = [y0, ...chain.map((l) => l.y).filter((y) => y > y0 + SAME_BORDER && y < y1 - SAME_BORDER), y1];
  const inner = clusters(sides.map((v) => (v.x0 + v.x1) / 2)).filter((x) => x > x0 + SAME_BORDER && x < x1 - SAME_BORDER);
  const byText = inner.length === 0 ? textColumns(lines) : undefined;
  const xs = byText ? [x0, ...byText.slice(1).map((c) => c.x0), x1] : [x0, ...inner, x1];
  const R = ys.length - 1;
  const C = xs.length - 1;
  if (R * C > MAX_GRID_CELLS) return [];
  const parent = Array.from({ length: R * C }, (_, k) => k);
  const find = (k: number): number => (parent[k] === k ? k : (parent[k] = find(parent[k]!)));
  const union = (a: number, b: number) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const levelAt = (y: number) => chain.find((l) => Math.abs(l.y - y) < SAME_BORDER);
  for (let r = 0; r < R; r++) {
    for (let c = 0; c < C; c++) {
      if (!byText && c + 1 < C) {
        const walled = sides.some((v) => Math.abs((v.x0 + v.x1) / 2 - xs[c + 1]!) < SAME_BORDER && overlap(v.y0, v.y1, ys[r]!, ys[r + 1]!) > 0.5 * (ys[r + 1]! - ys[r]!));
        if (!walled) union(r * C + c, r * C + c + 1);
      }
      if (r + 1 < R) {
        const level = levelAt(ys[r + 1]!);
        const ruled = level !== undefined && level.rules.reduce((a, h) => a + overlap(h.x0, h.x1, xs[c]!, xs[c + 1]!), 0) > 0.5 * (xs[c + 1]! - xs[c]!);
        if (!ruled) union(r * C + c, (r + 1) * C + c);
      }
    }
  }
  const text = new Map<number, string>();
  const ordered = [...lines].sort((a, b) => a.baseline - b.baseline);
  for (const l of ordered) {
    const r = Math.max(0, ys.findLastIndex((y) => y <= middle(l)));
    for (const s of l.segments) {
      const c = byText ? bestColumn(s, byText) : Math.max(0, xs.findLastIndex((x) => x <= (s.x0 + s.x1) / 2));
      const cell = find(Math.min(r, R - 1) * C + Math.min(c, C - 1));
      text.set(cell, joinLines2(text.get(cell) ?? '', s.text));
    }
  }
  const rows: string[][] = [];
  for (let r = 0; r < R; r++) {
    const row: string[] = [];
    for (let c = 0; c < C; c++) {
      const k = r * C + c;
      if (find(k) === k) row.push(text.get(k) ?? '');
    }
    if (row.some((t) => t.length > 0)) rows.push(row);
  }
  return rows;
}

/** Columns from the lines cut into the most segments (as the alignment reader finds them). */
function textColumns(lines: Line[]): { x0: number; x1: number }[] {
  const widest = Math.max(...lines.map((l) => l.segments.length));
  const model = lines.filter((l) => l.segments.length === widest);
  return Array.from({ length: widest }, (_, k) => ({
    x0: Math.min(...model.map((l) => l.segments[k]!.x0)),
    x1: Math.max(...model.map((l) => l.segments[k]!.x1)),
  }));
}

function bestColumn(s: Segment, columns: { x0: number; x1: number }[]): number {
  let best = 0;
  let bestScore = -Infinity;
  columns.forEach((c, k) => {
    const score = Math.min(s.x1, c.x1) - Math.max(s.x0, c.x0);
    if (score > bestScore) [best, bestScore] = [k, score];
  });
  return best;
}
