/**
 * The positioned text every layout step works on: runs from a text layer or OCR, joined into
 * segments and lines, and the small measures taken of them.
 */

export interface TextRun {
  text: string;
  /** Left edge and width, in page units (top-left origin). */
  x: number;
  w: number;
  /** Baseline, in page units from the top. */
  baseline: number;
  /** Font size (em height) in page units. */
  size: number;
  /** OCR word confidence 0..1; absent for a text layer. */
  conf?: number;
  /** Set in a monospaced font (known for a text layer only). */
  mono?: boolean;
  /** Set in a bold font (known for a text layer only). */
  bold?: boolean;
  /** A space comes before it in the text layer: it continues the words on its left. */
  spaced?: boolean;
}

export interface Segment {
  text: string;
  x0: number;
  x1: number;
  confs: number[];
  mono: boolean;
  bold: boolean;
  /** Advance of one character, for monospaced segments: spaces are restored from it. */
  charWidth: number;
  /** Its first run follows a space (see TextRun). */
  spaced: boolean;
}

export interface Line {
  segments: Segment[];
  baseline: number;
  size: number;
}

export const lineText = (l: Line) => l.segments.map((s) => s.text).join(' ');
export const lineX0 = (l: Line) => l.segments[0]!.x0;
export const lineX1 = (l: Line) => l.segments.at(-1)!.x1;

export const isCode = (l: Line) => l.segments.every((s) => s.mono);

export const gapBetween = (a: Line, b: Line) => b.baseline - b.size * 0.9 - (a.baseline + a.size * 0.25);

export function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** A ruling line (a table border or separator), as a thin box in page units, top-left origin. */
export interface Rule {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
