/**
 * Plain text from a page's markdown, cut into sentences and words: what the offline summary,
 * highlights and question answering rank. Kept verbatim (no rewording): every passage these
 * algorithms return is a quote from the page.
 */

export interface Sentence {
  text: string;
  /** Position in the page, from 0. */
  index: number;
  /** Index of the paragraph (block) the sentence belongs to. */
  block: number;
  heading: boolean;
}

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our out she so than that the their them then there these they this those to too up us was we ' +
    'were what when where which while who whom why will with would you your yours about after all also any because before ' +
    'being between both each few more most other over own same should some such through under until very just only'
  ).split(' '),
);

/** Markdown syntax out, words and punctuation kept. */
export function inlineText(line: string): string {
  return line
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/(^|\s)[*_](\S[^*_]*\S|\S)[*_](?=\s|[.,;:!?]|$)/g, '$1$2')
    .replace(/\s*\|\s*/g, ' | ')
    .replace(/\s+/g, ' ')
    .trim();
}

const SENTENCE_END = /(?<=[.!?]["')\]]?)\s+(?=["'([]?[\p{Lu}\p{N}])/u;

/** Sentences of a markdown page in reading order; code blocks and table rulers left out. */
export function sentences(markdown: string): Sentence[] {
  const out: Sentence[] = [];
  let block = 0;
  let inCode = false;
  let lastBlank = true;
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('```') || line.startsWith('~~~')) {
      inCode = !inCode;
      continue;
    }
    if (inCode) continue;
    if (!line) {
      if (!lastBlank) block++;
      lastBlank = true;
      continue;
    }
    lastBlank = false;
    if (/^\|?\s*:?-{3,}/.test(line) || /^(-{3,}|\*{3,})$/.test(line)) continue;
    const heading = /^#{1,6}\s/.test(line);
    const text = inlineText(line.replace(/^#{1,6}\s+/, '').replace(/^([-*+]|\d+[.)])\s+/, '').replace(/^>\s?/, ''));
    if (!text) continue;
    if (heading) {
      out.push({ text, index: out.length, block, heading: true });
      block++;
      continue;
    }
    for (const part of text.split(SENTENCE_END)) {
      const t = part.trim();
      if (t) out.push({ text: t, index: out.length, block, heading: false });
    }
  }
  return out;
}

/** A crude English stem: enough to let "baking" meet "bake" and "ovens" meet "oven". */
function stem(w: string): string {
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  if (w.length > 4 && w.endsWith('e')) return w.slice(0, -1);
  return w;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'_-]*/gu;

/** Content words, lower-cased and stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const w = m[0];
    if (w.length < 2 || STOPWORDS.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}

/** Words in a sentence (for length limits); stopwords count. */
export const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;
