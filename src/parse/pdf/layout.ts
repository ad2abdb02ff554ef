/**
 * Page layout from positioned text: runs (from a PDF's text layer or from OCR words) become
 * rows, rows become segments, a two-column page is read column by column, and consecutive lines
 * become typed blocks (headings by relative font size, list items by their markers, tables by
 * aligned segments, captions by their "Figure n" lead). Pure geometry, no I/O, so it is cheap
 * to test and the same code serves both text sources.
 */
import type { Block } from '../blocks.js';
import { gapBetween, isCode, lineText, lineX0, lineX1, median, type Line, type Rule, type Segment, type TextRun } from './geometry.js';
import { horizontal, ruledTables, type RuledTable } from './ruled.js';
import { tableAt } from './table.js';

export type { Line, TextRun } from './geometry.js';

/** A line this much larger than body text is a heading. */
const HEADING_RATIO = 1.2;
/** Monospaced runs this many ems apart on one line are still one line of code (aligned output). */
const MONO_JOIN_EM = 8;
/**
 * Gaps (in ems) that split a line into cells: a word space is about a third of an em; padding
 * between table cells is wider than that, yet without a drawn space. OCR words carry no spaces.
 */
const SPACED_GAP_EM = 0.8;
const UNSPACED_GAP_EM = 0.45;
const OCR_GAP_EM = 1.0;
const cellGap = (r: TextRun) => (r.conf !== undefined ? OCR_GAP_EM : r.spaced ? SPACED_GAP_EM : UNSPACED_GAP_EM);
const BULLET_CHAR = /^[•·▪◦●○■□‣⁃∙–—*+«»-]$/;

export type BlockType = 'title' | 'section_header' | 'text' | 'list_item' | 'table' | 'caption' | 'code';

export interface LaidOutBlock {
  type: BlockType;
  block: Block;
  /** Absolute page units: [x0, y0, x1, y1], top-left origin. */
  bbox: [number, number, number, number];
  /** Mean OCR confidence of the words in the block, when they came from OCR. */
  ocrConfidence: number | null;
}

/** Document-wide type scale: the body size and the larger sizes that mark headings. */
export interface TypeScale {
  body: number;
  headings: number[];
}

/**
 * Joins runs on one baseline; a gap wider than about one em starts a new segment (a table cell
 * or another column), and so does a vertical rule between two runs (a drawn cell border).
 */
export function linesOf(runs: TextRun[], rules: Rule[] = []): Line[] {
  const walls = rules.filter((r) => !horizontal(r));
  const walled = (x0: number, x1: number, y: number) => walls.some((w) => w.x0 >= x0 - 1 && w.x1 <= x1 + 1 && w.y0 <= y && w.y1 >= y);
  const visible = splitAtWalls(runs.filter((r) => r.text.trim().length > 0 && r.size > 0), walls);
  visible.sort((a, b) => a.baseline - b.baseline || a.x - b.x);
  const rows: TextRun[][] = [];
  for (const run of visible) {
    const row = rows.at(-1);
    const ref = row?.[0];
    if (row && ref && Math.abs(run.baseline - ref.baseline) < 0.45 * Math.min(run.size, ref.size)) row.push(run);
    else rows.push([run]);
  }
  return rows.map((row) => {
    row.sort((a, b) => a.x - b.x);
    // Inline code is often set smaller than the prose around it; the prose gives the line's size.
    const prose = row.filter((r) => !r.mono);
    const size = median((prose.length ? prose : row).map((r) => r.size));
    const segments: Segment[] = [];
    for (const run of row) {
      const seg = segments.at(-1);
      const gap = seg ? run.x - seg.x1 : Infinity;
      const mono = run.mono === true;
      // Code keeps its alignment spaces, however wide: monospaced runs stay one segment.
      const joins = seg !== undefined && seg.mono === mono && (mono ? gap < MONO_JOIN_EM * size : gap < cellGap(run) * size) && !walled(seg.x1, run.x, run.baseline);
      if (seg && joins) {
        if (mono && seg.charWidth > 0) seg.text += ' '.repeat(Math.max(gap > 0.15 * size ? 1 : 0, Math.round(gap / seg.charWidth))) + run.text;
        else {
          const needsSpace = gap > 0.15 * size && !seg.text.endsWith(' ') && !run.text.startsWith(' ');
          seg.text += (needsSpace ? ' ' : '') + run.text;
        }
        seg.x1 = Math.max(seg.x1, run.x + run.w);
        seg.bold &&= run.bold === true;
        if (run.conf !== undefined) seg.confs.push(run.conf);
      } else {
        segments.push({
          text: run.text,
          x0: run.x,
          x1: run.x + run.w,
          confs: run.conf === undefined ? [] : [run.conf],
          mono,
          bold: run.bold === true,
          charWidth: mono && run.text.length ? run.w / run.text.length : 0,
          spaced: run.spaced === true || run.conf !== undefined,
        });
      }
    }
    // A narrow gap between two fonts (inline code in prose) is a space, not a cell.
    for (let k = segments.length - 2; k >= 0; k--) {
      const [a, b] = [segments[k]!, segments[k + 1]!];
      if (!(a.mono && b.mono) && b.x0 - a.x1 < (b.spaced ? SPACED_GAP_EM : UNSPACED_GAP_EM) * size && !walled(a.x1, b.x0, row[0]!.baseline)) {
        segments.splice(k, 2, { ...a, text: `${a.text}${b.x0 - a.x1 > 0.15 * size ? ' ' : ''}${b.text}`, x1: b.x1, confs: [...a.confs, ...b.confs], mono: false, bold: a.bold && b.bold });
      }
    }
    for (const s of segments) s.text = s.mono ? s.text.trimEnd() : s.text.replace(/\s+/g, ' ').trim();
    // A list marker set apart from its text (hanging indent) belongs to the text, not a table cell.
    for (let k = segments.length - 2; k >= 0; k--) {
      const [a, b] = [segments[k]!, segments[k + 1]!];
      if (BULLET_CHAR.test(a.text) && b.x0 - a.x1 < 4 * size) {
        segments.splice(k, 2, { ...b, text: `${a.text} ${b.text}`, x0: a.x0, confs: [...a.confs, ...b.confs] });
      }
    }
    return { segments: segments.filter((s) => s.text.length > 0), baseline: median(row.map((r) => r.baseline)), size };
  }).filter((l) => l.segments.length > 0);
}

/**
 * A text layer may carry two cells' words as one run when the cell padding is narrower than a
 * space; a vertical rule through the run cuts it at the word space nearest the rule.
 */
function splitAtWalls(runs: TextRun[], walls: Rule[]): TextRun[] {
  if (walls.length === 0) return runs;
  return runs.flatMap((r) => {
    const wall = walls.find((w) => w.x0 > r.x + 1 && w.x1 < r.x + r.w - 1 && w.y0 <= r.baseline && w.y1 >= r.baseline);
    if (!wall || r.text.length < 3) return [r];
    const per = r.w / r.text.length;
    const at = (wall.x0 + wall.x1) / 2;
    let cut = -1;
    for (const m of r.text.matchAll(/ /g)) if (cut < 0 || Math.abs(r.x + m.index * per - at) < Math.abs(r.x + cut * per - at)) cut = m.index;
    if (cut <= 0) return [r];
    const left = { ...r, text: r.text.slice(0, cut), w: cut * per };
    const right = { ...r, text: r.text.slice(cut + 1), x: Math.max(r.x + (cut + 1) * per, wall.x1), w: r.w - (cut + 1) * per, spaced: false };
    return [left, ...splitAtWalls([right], walls)];
  });
}

export function typeScale(lines: Line[]): TypeScale {
  // The character-weighted median size is the body text; OCR sizes are noisy, so a mode would
  // land on whichever narrow bin happened to collect most.
  // Code is often set smaller than prose; it says nothing about the body size.
  const prose = lines.filter((l) => !isCode(l));
  const weighted = (prose.length ? prose : lines).map((l) => ({ size: l.size, w: lineText(l).length })).sort((a, b) => a.size - b.size);
  const total = weighted.reduce((a, x) => a + x.w, 0);
  let acc = 0;
  let body = 0;
  for (const x of weighted) {
    acc += x.w;
    body = x.size;
    if (acc >= total / 2) break;
  }
  // Larger sizes, grouped when within 10% of each other: one group per heading level.
  const headings: number[] = [];
  for (const size of weighted.map((x) => x.size).filter((s) => s >= body * HEADING_RATIO).sort((a, b) => b - a)) {
    const last = headings.at(-1);
    if (last === undefined || size < last * 0.9) headings.push(size);
  }
  return { body, headings };
}

/**
 * Finds a vertical gutter splitting the page into two columns of prose, or undefined. Lines
 * crossing it (a full-width title, a wide table) are read in place; runs of lines between them
 * are read left column first.
 */
function gutterOf(lines: Line[], body: number): number | undefined {
  const segs = lines.flatMap((l) => l.segments);
  if (lines.length < 6 || segs.length === 0) return undefined;
  const left = Math.min(...segs.map((s) => s.x0));
  const right = Math.max(...segs.map((s) => s.x1));
  const width = right - left;
  if (width <= 0) return undefined;
  const bins = Math.ceil(width);
  // How many segments cover each point across: each segment adds one over its span, summed from
  // the spans' ends rather than point by point.
  const cover = new Int32Array(bins + 2);
  for (const s of segs) {
    const from = Math.floor(s.x0 - left);
    const to = Math.min(Math.ceil(s.x1 - left), bins + 1);
    if (from < to) {
      cover[from]!++;
      cover[to]!--;
    }
  }
  for (let x = 1; x <= bins; x++) cover[x]! += cover[x - 1]!;
  const allowed = Math.max(1, Math.floor(lines.length * 0.1));
  let bestStart = -1;
  let bestLen = 0;
  for (let x = Math.floor(width * 0.3), start = -1; x <= Math.ceil(width * 0.7); x++) {
    if (cover[x]! <= allowed) {
      if (start < 0) start = x;
      if (x - start + 1 > bestLen) [bestStart, bestLen] = [start, x - start + 1];
    } else start = -1;
  }
  if (bestLen < Math.max(0.8 * body, 6)) return undefined;
  const gutter = left + bestStart + bestLen / 2;
  // Both sides must hold prose: long lines on many rows, not the short cells of a table.
  const side = (pick: (s: Segment) => boolean) => lines.filter((l) => l.segments.some(pick) && !l.segments.some((s) => s.x0 < gutter && s.x1 > gutter));
  const leftLines = side((s) => s.x1 <= gutter);
  const rightLines = side((s) => s.x0 >= gutter);
  const prose = (ls: Line[], x0: number, x1: number) =>
    ls.length >= 3 && median(ls.map((l) => l.segments.filter((s) => s.x0 >= x0 && s.x1 <= x1).reduce((a, s) => a + s.x1 - s.x0, 0))) >= 0.45 * (x1 - x0);
  return prose(leftLines, left, gutter) && prose(rightLines, gutter, right) ? gutter : undefined;
}

/** Lines in reading order: column by column inside two-column stretches. */
export function readingOrder(lines: Line[], scale: TypeScale): Line[] {
  const gutter = gutterOf(lines, scale.body);
  if (gutter === undefined) return lines;
  const out: Line[] = [];
  let leftCol: Line[] = [];
  let rightCol: Line[] = [];
  const flush = () => {
    out.push(...leftCol, ...rightCol);
    leftCol = [];
    rightCol = [];
  };
  for (const l of lines) {
    if (l.segments.some((s) => s.x0 < gutter && s.x1 > gutter)) {
      flush();
      out.push(l);
      continue;
    }
    const l0 = l.segments.filter((s) => s.x1 <= gutter);
    const r0 = l.segments.filter((s) => s.x0 >= gutter);
    if (l0.length) leftCol.push({ ...l, segments: l0 });
    if (r0.length) rightCol.push({ ...l, segments: r0 });
  }
  flush();
  return out;
}

const BULLET = /^([•·▪◦●○■□‣⁃∙–—*+«»-]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+/;
const ORDERED = /^\(?(\d{1,3}|[a-z])[.)]\s+/;
const CAPTION = /^(figure|fig\.|table|chart|exhibit|example|listing)\s+\d+(\.\d+)*[.:]?\s/i;

interface Draft {
  type: BlockType | 'heading';
  lines: Line[];
  level?: number;
  rows?: string[][];
  /** A heading by weight alone (bold at body size). */
  weak?: boolean;
  demote?: boolean;
}

const confOf = (lines: Line[]): number | null => {
  const all = lines.flatMap((l) => l.segments.flatMap((s) => s.confs));
  return all.length ? all.reduce((a, b) => a + b, 0) / all.length : null;
};

function joinLines(lines: Line[]): string {
  let text = '';
  for (const l of lines) {
    const t = lineText(l);
    // "exam-" + "ple" was one word broken by the line end.
    if (/[A-Za-z]-$/.test(text) && /^[a-z]/.test(t)) text = text.slice(0, -1) + t;
    else text = text ? `${text} ${t}` : t;
  }
  return text;
}

/**
 * The heading level a line's type gives it, if any: larger sizes by their rank in the document's
 * scale; below them, a wholly bold line at about body size (a run-in section title set bold).
 */
function headingLevel(line: Line, scale: TypeScale): number | undefined {
  const { size } = line;
  if (size >= scale.body * HEADING_RATIO) {
    const i = scale.headings.findIndex((h) => size >= h * 0.9);
    return Math.min((i < 0 ? scale.headings.length - 1 : i) + 1, 6);
  }
  if (size >= scale.body * 0.95 && line.segments.every((s) => s.bold && !s.mono)) {
    return Math.min(scale.headings.length + (size >= scale.body * 1.08 ? 1 : 2), 6);
  }
  return undefined;
}

/** Heading text reads as a title: not a sentence or a paragraph set large. */
function titleLike(text: string): boolean {
  const words = text.split(/\s+/).length;
  if (text.length > 140 || words > 20) return false;
  return !(words > 8 && /[.,;]$/.test(text));
}

/**
 * Groups ordered lines into blocks. `first` marks page 1, where the top heading is the title;
 * `rules` are the page's ruling lines, when known (tables drawn with borders).
 */
export function blocksOf(ordered: Line[], scale: TypeScale, first: boolean, rules: Rule[] = []): LaidOutBlock[] {
  // A copy: table detection may re-cut lines it takes.
  const lines = [...ordered];
  const drafts: Draft[] = [];
  // The space between lines of a paragraph: lines closer than that plus a little are one cell.
  // Paragraph lines: one segment, wide, the next starting at the same x.
  const width = Math.max(0, ...lines.map((l) => lineX1(l) - lineX0(l)));
  const prose = (l: Line) => l.segments.length === 1 && lineX1(l) - lineX0(l) > 0.5 * width && !isCode(l);
  const leadings = lines.slice(1).flatMap((l, k) => {
    const p = lines[k]!;
    const g = gapBetween(p, l);
    return prose(p) && prose(l) && Math.abs(lineX0(p) - lineX0(l)) < 1 && Math.abs(p.size - l.size) < 0.1 && g > -0.3 * l.size && g < l.size ? [g] : [];
  });
  const leading = leadings.length ? median(leadings) : undefined;
  // The left edge most lines start at.
  const starts = new Map<number, number>();
  for (const l of lines) starts.set(Math.round(lineX0(l)), (starts.get(Math.round(lineX0(l))) ?? 0) + 1);
  const margin = [...starts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  // Ruled tables are found first: their rules say more than any alignment of the text.
  const ruled = new Map<number, RuledTable | null>();
  for (const t of ruledTables(lines, rules)) t.lines.forEach((k, n) => ruled.set(k, n === 0 ? t : null));
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const inRuled = ruled.get(i);
    if (inRuled !== undefined) {
      if (inRuled) drafts.push({ type: 'table', lines: inRuled.lines.map((k) => lines[k]!), rows: inRuled.rows });
      i++;
      continue;
    }
    const scanned = line.segments.some((s) => s.confs.length > 0);
    // A scan has no fonts: code is told by its punctuation instead, before its aligned gaps make it a table.
    const prevDraft = drafts.at(-1);
    const afterCode = prevDraft?.type === 'code' && gapBetween(prevDraft.lines.at(-1)!, line) < 1.2 * line.size;
    const code = scanned ? codeLike(lineText(line)) || (afterCode && !proseLike(lineText(line))) : isCode(line);
    // An aligned table stops where a ruled one starts.
    const bound = [...ruled.keys()].reduce((m, k) => (k > i && k < m ? k : m), lines.length);
    const table = scanned && code ? undefined : tableAt(bound < lines.length ? lines.slice(0, bound) : lines, i, leading);
    if (table) {
      drafts.push({ type: 'table', lines: lines.slice(i, table.end), rows: table.rows });
      i = table.end;
      continue;
    }
    // Code: lines wholly in a monospaced font, kept together across blank lines.
    if (code) {
      const prev = drafts.at(-1);
      const prevLine = prev?.lines.at(-1);
      const gap = prevLine === undefined ? Infinity : gapBetween(prevLine, line);
      if (prev?.type === 'code' && gap > -0.3 * line.size && gap < CODE_BLANK_LINES * line.size) prev.lines.push(line);
      else drafts.push({ type: 'code', lines: [line] });
      i++;
      continue;
    }
    const text = lineText(line);
    // A ruling line or a box read by OCR ("[@ |= — —") is no heading.
    let level = scanned && (text.match(/[\p{L}\p{N}]/gu) ?? []).length < 0.6 * text.replace(/\s/g, '').length ? undefined : headingLevel(line, scale);
    const prev = drafts.at(-1);
    const prevLine = prev?.lines.at(-1);
    const gap = prevLine === undefined ? Infinity : gapBetween(prevLine, line);
    // A negative gap is a jump back up the page (the next column), not a continuation.
    const near = prevLine !== undefined && gap > -0.3 * line.size && gap < 0.75 * Math.max(line.size, prevLine.size) && Math.abs(prevLine.size - line.size) < 0.12 * line.size;
    // Body-size bold is a heading only when it stands apart, not a bold line inside a paragraph,
    // and starts where the text beside it starts: a centred bold line is a table's header cell.
    if (level !== undefined && line.size < scale.body * HEADING_RATIO) {
      const aligned = [lines[i - 1], lines[i + 1]].some((l) => l !== undefined && Math.abs(lineX0(l) - lineX0(line)) < line.size) || Math.abs(lineX0(line) - margin) < line.size;
      if ((near && prev?.type !== 'heading') || line.segments.length > 1 || !aligned) level = undefined;
    }
    if (CAPTION.test(text)) {
      drafts.push({ type: 'caption', lines: [line] });
    } else if (level !== undefined) {
      if (prev?.type === 'heading' && prev.level === level && near) prev.lines.push(line);
      else drafts.push({ type: 'heading', lines: [line], level, weak: line.size < scale.body * HEADING_RATIO });
    } else if (BULLET.test(text)) {
      drafts.push({ type: 'list_item', lines: [line] });
    } else if (near && prev && (prev.type === 'text' || prev.type === 'caption' || (prev.type === 'list_item' && lineX0(line) > lineX0(prev.lines[0]!) + 0.5 * line.size))) {
      prev.lines.push(line);
    } else {
      drafts.push({ type: 'text', lines: [line] });
    }
    i++;
  }

  // Bold lines stacked with nothing between them are a block of labels (a table's header cell
  // of several lines, a form), not a run of empty sections.
  drafts.forEach((d, k) => {
    const stacked = (o: Draft | undefined) => o?.type === 'heading' && o.weak === true;
    if (stacked(d) && (stacked(drafts[k - 1]) || stacked(drafts[k + 1]))) d.demote = true;
  });
  for (const d of drafts) if (d.demote) d.type = 'text';

  let titled = !first;
  return drafts.map((d) => {
    const bbox: [number, number, number, number] = [
      Math.min(...d.lines.map(lineX0)),
      Math.min(...d.lines.map((l) => l.baseline - 0.9 * l.size)),
      Math.max(...d.lines.map(lineX1)),
      Math.max(...d.lines.map((l) => l.baseline + 0.25 * l.size)),
    ];
    const ocrConfidence = confOf(d.lines);
    if (d.type === 'table') {
      return { type: 'table', block: { kind: 'table', rows: d.rows! }, bbox, ocrConfidence };
    }
    if (d.type === 'code') return { type: 'code', block: { kind: 'code', text: codeText(d.lines) }, bbox, ocrConfidence };
    const text = joinLines(d.lines);
    // More than three lines of heading type is prose set large (a lead paragraph, a quirk of a table).
    if (d.type === 'heading' && (d.lines.length > 3 || !titleLike(text))) return { type: 'text', block: { kind: 'paragraph', text }, bbox, ocrConfidence };
    if (d.type === 'heading') {
      const isTitle = !titled && d.level === 1;
      titled ||= d.level === 1;
      return { type: isTitle ? 'title' : 'section_header', block: { kind: 'heading', level: d.level!, text }, bbox, ocrConfidence };
    }
    if (d.type === 'list_item') {
      const ordered = ORDERED.test(text);
      return { type: 'list_item', block: { kind: 'list', ordered, items: [text.replace(BULLET, '')] }, bbox, ocrConfidence };
    }
    return { type: d.type, block: { kind: 'paragraph', text }, bbox, ocrConfidence };
  });
}

/** Gaps up to this many ems between code lines are blank lines inside one block. */
const CODE_BLANK_LINES = 2.6;

/**
 * Whether an OCR'd line reads as code: dense in the punctuation programs use, ending a statement
 * or opening a block, a shell prompt, or a run of upper-case keywords (SQL).
 */
export function codeLike(text: string): boolean {
  const t = text.trim();
  if (t.length < 2) return false;
  const marks = (t.match(/[(){}[\];=<>|_$*\\/:+]/g) ?? []).length;
  if (marks / t.length >= 0.08 && marks >= 2) return true;
  if (/[;{}]$/.test(t) || /^[$#>] \S/.test(t)) return true;
  return /^[A-Z][A-Z_]+\b/.test(t) && !proseLike(t);
}

/** A run of plain lower-case words, as sentences have and code rarely does. */
const proseLike = (t: string) => /[a-z]{2,} [a-z]{2,} [a-z]{3,}/.test(t);

/** Code lines with their indentation (from x positions, in character widths) and blank lines. */
function codeText(lines: Line[]): string {
  const cw = median(lines.flatMap((l) => l.segments.map((s) => s.charWidth)).filter((w) => w > 0)) || lines[0]!.size * 0.6;
  const left = Math.min(...lines.map(lineX0));
  const pitches = lines.slice(1).map((l, k) => l.baseline - lines[k]!.baseline).filter((p) => p > 0);
  const pitch = pitches.length ? Math.min(...pitches) : Infinity;
  const out: string[] = [];
  lines.forEach((l, k) => {
    if (k > 0 && l.baseline - lines[k - 1]!.baseline > 1.6 * pitch) out.push('');
    let text = '';
    for (const s of l.segments) {
      const col = Math.round((s.x0 - left) / cw);
      text += ' '.repeat(Math.max(text ? 1 : 0, col - text.length)) + s.text;
    }
    out.push(text);
  });
  return out.join('\n');
}

