/**
 * A page's text layer as positioned runs, with the font weights and ruling lines that only the
 * page's operator list gives. Building that list costs about as much as reading the text, so it
 * is built only where it can change the result: where the text hints at a table (aligned cells,
 * a "Table n" caption), or where a line may be wholly bold at about body size (a heading by
 * weight) and the weight of its fonts is not yet known to the document.
 */
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import { median, type Line, type Rule, type TextRun } from './geometry.js';
import { linesOf } from './layout.js';
import { AnnotationMode, Util, type PDFPageProxy } from './pdfjs.js';
import { rulesOf } from './rules.js';

/** Fewer visible characters than this and `auto` treats the page as a scan. */
const USABLE_TEXT_CHARS = 16;
const BOLD_NAME = /bold|black|heavy|semibold|demi|[-,](sb|bd)$/i;
const TABLE_CAPTION = /^table\s+[\dA-Z]/i;

/** Whether each font (by pdf.js's name for it) is bold; kept for the whole document. */
export type FontWeights = Map<string, boolean>;

export interface TextLayer {
  runs: TextRun[];
  rules: Rule[];
  /** Rules reach down to the last line: a ruled table may go on over the page break. */
  ruledToEnd: boolean;
  /** The runs as lines, when no rules cut them (the layout's first step, done here already). */
  lines?: Line[];
  /** Whether the operator list was read: the rules are then known, not merely left out. */
  drawn: boolean;
}

export const usable = (runs: { text: string }[]) => {
  const text = runs.map((r) => r.text).join('');
  // Text layers of broken fonts decode to private-use or replacement characters.
  const visible = text.replace(/[\s\uFFFD\uE000-\uF8FF]/g, '');
  return visible.length >= USABLE_TEXT_CHARS;
};

/** `afterRuled`: the page before ended in a ruled table (see TextLayer). */
export async function readTextLayer(page: PDFPageProxy, weights: FontWeights, afterRuled = false): Promise<TextLayer> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const all = content.items.filter((item): item is TextItem => 'str' in item);
  const items = all.filter((t) => t.str.trim().length > 0);
  // A word space drawn between two runs joins them as words. Printers also fill the gap between
  // table cells with one wide "space": that one is no word space.
  const wordSpace = (t: TextItem) => t.str.trim() === '' && t.width < 0.6 * Math.hypot(t.transform[2] as number, t.transform[3] as number);
  const spaced = new Set(all.filter((t, k) => k > 0 && t.str.trim().length > 0 && (/^\s/.test(t.str) || wordSpace(all[k - 1]!) || /\S\s$/.test(all[k - 1]!.str))));
  const mono = (font: string) => content.styles[font]?.fontFamily === 'monospace';
  const runs: TextRun[] = items.map((t) => {
    // Into viewport space: top-left origin, page rotation applied.
    const m = Util.transform(viewport.transform, t.transform) as number[];
    const size = Math.hypot(m[2]!, m[3]!);
    return { text: t.str, x: m[4]!, w: t.width, baseline: m[5]!, size: size || t.height, mono: mono(t.fontName), bold: weights.get(t.fontName) === true, spaced: spaced.has(t) };
  });
  if (!usable(runs)) return { runs, rules: [], ruledToEnd: false, drawn: false };
  const unknown = [...new Set(items.map((t) => t.fontName))].filter((f) => !weights.has(f));
  const lines = linesOf(runs);
  if (!afterRuled && !hintsAtTable(lines) && !(unknown.length > 0 && weightMatters(runs, items, weights, lines))) return { runs, rules: [], ruledToEnd: false, lines, drawn: false };
  let rules: Rule[] = [];
  try {
    // Annotations (links, form fields) are not the page's drawing: their appearances would only
    // be read and passed over (without them, 8% more pages a second on the manual's pages).
    rules = rulesOf(await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE }), viewport.transform);
  } catch {
    // A page that cannot be drawn still has its text; its weights stay unknown (regular).
  }
  // pdf.js hands a page's fonts over with its operator list; their PostScript names tell the weight.
  for (const name of unknown) {
    const font = page.commonObjs.has(name) ? (page.commonObjs.get(name) as { name?: unknown; bold?: unknown; black?: unknown }) : undefined;
    const psName = typeof font?.name === 'string' ? font.name : '';
    weights.set(name, font?.bold === true || font?.black === true || BOLD_NAME.test(psName));
  }
  if (unknown.length > 0) items.forEach((t, k) => (runs[k]!.bold = weights.get(t.fontName) === true));
  const last = runs.reduce((a, r) => (r.baseline > a.baseline ? r : a));
  return { runs, rules, ruledToEnd: rules.some((r) => r.y1 >= last.baseline), drawn: true };
}

/** Text that may sit in a table drawn with rules: cells side by side, or a "Table n" caption. */
function hintsAtTable(lines: Line[]): boolean {
  let multi = 0;
  for (const l of lines) {
    if (l.segments.length >= 2 && !l.segments.every((s) => s.mono) && ++multi >= 2) return true;
    if (TABLE_CAPTION.test(l.segments[0]!.text)) return true;
  }
  return false;
}

/**
 * Whether fonts of unknown weight could make a line wholly bold at about body size (a heading by
 * weight) that is not one with the weights known so far. The font most of the page is set in is
 * its body font: taken as regular, whatever its name says.
 */
function weightMatters(runs: TextRun[], items: TextItem[], weights: FontWeights, lines: Line[]): boolean {
  const chars = new Map<string, number>();
  for (const t of items) chars.set(t.fontName, (chars.get(t.fontName) ?? 0) + t.str.length);
  const bodyFont = [...chars].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  const guessed = runs.map((r, k) => ({ ...r, bold: weights.get(items[k]!.fontName) ?? items[k]!.fontName !== bodyFont }));
  return boldLine(linesOf(guessed)) && !boldLine(lines);
}

/** A line wholly bold at about body size (the prose's size: a page of code sets it smaller). */
function boldLine(lines: Line[]): boolean {
  const prose = lines.filter((l) => !l.segments.every((s) => s.mono));
  const body = median((prose.length ? prose : lines).map((l) => l.size));
  return lines.some((l) => l.size < 1.2 * body && l.segments.every((s) => s.bold) && !l.segments.every((s) => s.mono));
}
