/**
 * Ruling lines from a page's drawing operators: the borders and separators of tables. Printers
 * draw them either as thin filled rectangles or as stroked lines; both become axis-aligned
 * rules in page space (top-left origin), like the text.
 */
import type { Rule } from './geometry.js';
import { OPS, Util } from './pdfjs.js';

/** Thicker than this (page units) is a filled area, not a line. */
const MAX_THICKNESS = 3;
/** Shorter than this is a dot, a tick or a glyph-like mark. */
const MIN_LENGTH = 6;

const DRAW_MOVE = 0;
const DRAW_LINE = 1;
const DRAW_CURVE = 2;
const DRAW_QUAD = 3;
const DRAW_CLOSE = 4;

const FILLS: ReadonlySet<number> = new Set([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke]);
const STROKES: ReadonlySet<number> = new Set([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);

type Matrix = number[];

export interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

const apply = (m: Matrix, x: number, y: number): [number, number] => [m[0]! * x + m[2]! * y + m[4]!, m[1]! * x + m[3]! * y + m[5]!];

function box(m: Matrix, x0: number, y0: number, x1: number, y1: number): Rule {
  const [ax, ay] = apply(m, x0, y0);
  const [bx, by] = apply(m, x1, y1);
  return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}

const thin = (r: Rule) => {
  const w = r.x1 - r.x0;
  const h = r.y1 - r.y0;
  return (h <= MAX_THICKNESS && w >= MIN_LENGTH) || (w <= MAX_THICKNESS && h >= MIN_LENGTH);
};

/** The straight, axis-aligned pieces of a stroked path. */
function strokedPieces(m: Matrix, path: ArrayLike<number>): Rule[] {
  const out: Rule[] = [];
  let start: [number, number] | undefined;
  let at: [number, number] | undefined;
  const piece = (a: [number, number], b: [number, number]) => {
    const r = box(m, a[0], a[1], b[0], b[1]);
    if ((r.y1 - r.y0 < 0.5 || r.x1 - r.x0 < 0.5) && thin(r)) out.push(r);
  };
  for (let k = 0; k < path.length; ) {
    const op = path[k++]!;
    if (op === DRAW_MOVE) {
      at = start = [path[k]!, path[k + 1]!];
      k += 2;
    } else if (op === DRAW_LINE) {
      const to: [number, number] = [path[k]!, path[k + 1]!];
      if (at) piece(at, to);
      at = to;
      k += 2;
    } else if (op === DRAW_CURVE) {
      at = [path[k + 4]!, path[k + 5]!];
      k += 6;
    } else if (op === DRAW_QUAD) {
      at = [path[k + 2]!, path[k + 3]!];
      k += 4;
    } else if (op === DRAW_CLOSE) {
      if (at && start) piece(at, start);
      at = start;
    } else break;
  }
  return out;
}

/** Rules drawn on a page, given its operator list and the viewport transform. */
export function rulesOf(list: OperatorList, viewportTransform: Matrix): Rule[] {
  const rules: Rule[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  list.fnArray.forEach((fn, i) => {
    const args = list.argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = Util.transform(ctm, args as Matrix) as Matrix;
    else if (fn === OPS.constructPath && args) {
      const [paint, data, minMax] = args as [number, ArrayLike<number>[] | undefined, ArrayLike<number> | null];
      const m = Util.transform(viewportTransform, ctm) as Matrix;
      if (FILLS.has(paint) && minMax) {
        const r = box(m, minMax[0]!, minMax[1]!, minMax[2]!, minMax[3]!);
        if (thin(r)) rules.push(r);
      }
      const path = data?.[0];
      if (STROKES.has(paint) && path && typeof path !== 'string') rules.push(...strokedPieces(m, path));
    }
  });
  return rules;
}
