/**
 * Pictures' alt text that the page does not show as text: a card's picture its title link names,
 * a gallery's slides, a picture whose caption (left out) the alt text copies. Blanked in the
 * markdown already written, by chunk index.
 */
import { ALT } from './markdown-types.js';

/**
 * How much of the opening of an alt text and a caption is compared (see blankCaptionAlt), in
 * letters and digits: enough to tell a copied caption, short enough that a credit or a date the
 * one adds at its end does not part them; and the least that counts (a name, not "Photo").
 */
const CAPTION_KEY = 40;
const CAPTION_KEY_MIN = 8;
const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;

/** The opening letters and digits of a text, lower-cased (the slice leaves room for markup and spaces). */
function captionKey(s: string): string {
  return s.slice(0, 4 * CAPTION_KEY).replace(NOT_ALNUM, '').toLowerCase();
}

/**
 * Blanks the alt text of the images outside links written in chunks [start, end): a card's
 * picture, when the card's title link names what it shows (see link-rules' repeatedItems).
 */
export function blankLooseAlts(out: string[], loose: readonly number[], start: number, end: number): void {
  let lo = 0;
  let hi = loose.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (loose[mid]! < start) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < loose.length && loose[k]! < end; k++) {
    const c = out[loose[k]!];
    if (c !== undefined && c.startsWith('![')) out[loose[k]!] = c.replace(ALT, '![]');
  }
}

/**
 * Blanks the alt text of every picture written in chunks [start, end), in links or not: a
 * gallery's slide (see ContentFilter.close), whose link only opens a larger copy of the photo.
 */
export function blankAlts(out: string[], start: number, end: number): void {
  for (let k = start; k < end && k < out.length; k++) {
    const c = out[k];
    if (c !== undefined && c.startsWith('![') && !c.startsWith('![]')) out[k] = c.replace(ALT, '![]');
  }
}

/**
 * Blanks the alt text of the last picture outside links before chunk `start` when the caption
 * written from `start` on opens with the same words: the publisher filled the alt text from the
 * caption, and the caption is being left out (see ContentFilter.close).
 */
export function blankCaptionAlt(out: string[], loose: readonly number[], start: number): void {
  let k = loose.length - 1;
  while (k >= 0 && loose[k]! >= start) k--;
  if (k < 0) return;
  const at = loose[k]!;
  const image = out[at];
  const alt = image === undefined ? undefined : ALT.exec(image)?.[0];
  if (image === undefined || alt === undefined || alt.length <= 3) return;
  const a = captionKey(alt.slice(2, -1));
  const c = captionKey(out.slice(start).join(''));
  const n = Math.min(a.length, c.length, CAPTION_KEY);
  if (n >= CAPTION_KEY_MIN && a.slice(0, n) === c.slice(0, n)) out[at] = image.replace(ALT, '![]');
}
