/**
 * Tables told by text alignment alone: lines cut into aligned segments, with the narrow lines
 * between them that continue a cell.
 */
import { gapBetween, isCode, lineX0, lineX1, type Line, type Segment } from './geometry.js';

const spans = (a: Segment, x0: number, x1: number) => Math.min(a.x1, x1) - Math.max(a.x0, x0);

/**
 * A table starting at line `i`: lines cut into two or more segments (cells), with the narrow
 * lines between them that continue a cell. Columns come from the lines with the most cells;
 * every segment goes to the column it overlaps most (centred headers included). Lines are rows,
 * except that where the vertical gaps fall into two groups (a cell wrapped inside a row is
 * closer than the next row), the close lines continue their row.
 */
export function tableAt(lines: Line[], i: number, leading: number | undefined): { end: number; rows: string[][] } | undefined {
  // Up to two narrow lines above the first row of cells belong to it: wrapped header cells, or
  // the top of a cell centred vertically beside shorter ones.
  let head = i;
  while (head < i + 2 && head < lines.length - 1 && lines[head]!.segments.length === 1 && !isCode(lines[head]!)) head++;
  const row = lines[head];
  if (!row || row.segments.length < 2) return undefined;
  for (let k = i; k < head; k++) {
    const seg = lines[k]!.segments[0]!;
    if (gapBetween(lines[k]!, lines[k + 1]!) > 1.2 * row.size || seg.x1 - seg.x0 > 0.4 * (lineX1(row) - lineX0(row)) || seg.x0 < lineX0(row) - row.size) return undefined;
  }
  const first = lines[head]!;
  if (first.segments.length < 2 || isCode(first)) return undefined;
  const size = first.size;
  const left = Math.min(lineX0(first), ...lines.slice(i, head).map(lineX0));
  let j = head + 1;
  let multi = 1;
  let model = first;
  // Where each column starts: the leftmost of its cells (headers are often centred).
  let starts = first.segments.map((s) => s.x0);
  for (; j < lines.length; j++) {
    const l = splitAtColumns(lines[j]!, starts);
    lines[j] = l;
    const prev = lines[j - 1]!;
    // Cells centred vertically overlap the lines beside them: only a jump back up ends the table.
    if (l.baseline <= prev.baseline || gapBetween(prev, l) > 2.5 * size) break;
    if (l.segments.length >= 2) {
      multi++;
      if (l.segments.length > model.segments.length) [model, starts] = [l, l.segments.map((s) => s.x0)];
      else if (l.segments.length === starts.length) starts = starts.map((x, k) => Math.min(x, l.segments[k]!.x0));
      continue;
    }
    // One segment: a wrapped cell stays inside its column; a paragraph or code runs across them.
    const seg = l.segments[0]!;
    const k = starts.findLastIndex((x) => x <= seg.x0 + size);
    const inside = k >= 0 && (k === starts.length - 1 || seg.x1 <= starts[k + 1]! + 0.5 * size) && seg.x0 >= left - size && gapBetween(prev, l) < 1.2 * size;
    if (!inside) break;
  }
  if (multi < 2 || j - i < 2) return undefined;
  const region = lines.slice(i, j);

  const widest = Math.max(...region.map((l) => l.segments.length));
  const widestLines = region.filter((l) => l.segments.length === widest);
  const columns = Array.from({ length: widest }, (_, k) => ({
    x0: Math.min(...widestLines.map((l) => l.segments[k]!.x0)),
    x1: Math.max(...widestLines.map((l) => l.segments[k]!.x1)),
  }));
  const columnOf = (s: Segment) => {
    let best = 0;
    let bestScore = -Infinity;
    columns.forEach((c, k) => {
      const score = spans(s, c.x0, c.x1);
      if (score > bestScore) [best, bestScore] = [k, score];
    });
    return best;
  };

  // Rows: a line closer to the one above than rows are apart continues its row (a wrapped cell;
  // cells centred vertically wrap above and below the row's middle). When no line holds a single
  // cell, nothing wraps unless the gaps fall into two groups; otherwise each line is a row.
  const lineGaps = region.slice(1).map((l, k) => gapBetween(region[k]!, l));
  const wraps = region.some((l) => l.segments.length < 2);
  let joins: (g: number) => boolean;
  if (wraps) {
    // Without paragraphs to measure, the closest lines of the table are a cell's.
    const lead = leading ?? Math.min(...lineGaps.filter((g) => g > 0), Infinity);
    joins = (g) => g < lead + 0.25 * size;
  }
  else {
    const lo = Math.min(...lineGaps);
    const hi = Math.max(...lineGaps);
    joins = (g) => hi - lo > 0.25 * size && g < (lo + hi) / 2;
  }
  const members: number[][] = [];
  region.forEach((_, k) => {
    if (k === 0 || !joins(lineGaps[k - 1]!)) members.push([]);
    members.at(-1)!.push(k);
  });
  const rows = members.map((ks) => {
    const row = Array.from({ length: widest }, () => '');
    for (const k of ks.sort((a, b) => a - b)) for (const seg of region[k]!.segments) row[columnOf(seg)] = joinLines2(row[columnOf(seg)]!, seg.text);
    return row;
  });
  return { end: j, rows };
}

/**
 * Monospaced cells side by side read as one line of code with wide spaces; inside a table, a
 * run of spaces that ends where one of the table's columns starts is a cell boundary.
 */
function splitAtColumns(line: Line, starts: number[]): Line {
  let changed = false;
  const segments = line.segments.flatMap((seg) => {
    if (!seg.mono || seg.charWidth <= 0) return [seg];
    const parts: Segment[] = [];
    let from = 0;
    for (const m of seg.text.matchAll(/ {2,}/g)) {
      const at = m.index + m[0].length;
      const x = seg.x0 + at * seg.charWidth;
      if (!starts.some((c) => Math.abs(c - x) < line.size) || x <= seg.x0 + line.size) continue;
      parts.push({ ...seg, text: seg.text.slice(from, m.index), x0: seg.x0 + from * seg.charWidth, x1: seg.x0 + m.index * seg.charWidth });
      from = at;
    }
    if (parts.length === 0) return [seg];
    changed = true;
    parts.push({ ...seg, text: seg.text.slice(from), x0: seg.x0 + from * seg.charWidth });
    return parts;
  });
  return changed ? { ...line, segments } : line;
}

/** Appends a wrapped line to cell text, mending a word hyphenated at the line end. */
export function joinLines2(text: string, next: string): string {
  if (!text) return next;
  if (/[A-Za-z]-$/.test(text) && /^[a-z]/.test(next)) return text.slice(0, -1) + next;
  return `${text} ${next}`;
}

