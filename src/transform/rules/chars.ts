/** Character classes read on every text chunk, cheap first for ASCII. */

const LETTER = /\p{L}/u;

/** A letter, of any script; ASCII without the regular expression, which runs on every text. */
export function isLetter(c: number): boolean {
  if (c < 128) return ((c | 32) >= 97 && (c | 32) <= 122);
  return LETTER.test(String.fromCharCode(c));
}

export function isHtmlSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 12;
}

/** Sentence punctuation: . , ; ! ? and their full-width / ideographic forms. */
export const PUNCT = /[.,;!?\u3002\uff0c\u3001]/;
