/**
 * Markdown helpers: code languages from class conventions and the final tidy-up of the markdown the streaming writer (markdown-writer.ts) produces.
 */
import { codeAt, codeOrNone, holds } from './html-util.js';

/** Languages that name no language: a fence without a tag says the same more plainly. */
const NON_LANGUAGES = new Set(['none', 'default', 'text', 'plain', 'plaintext', 'nohighlight', 'no-highlight', 'txt']);

const LANG_TOKEN = /^(?:language|lang|highlight-source|highlight)-([\w+#.-]{1,40})$/;

/**
 * The code language named by a class list: `language-x`, `lang-x`, Sphinx's `highlight-x`
 * wrapper, GitHub's `highlight-source-x`, or pandoc's `sourceCode x`.
 */
export function codeLanguage(classAttr: string | undefined): string | undefined {
  // Every convention below has one of these words in it; most class lists (a manual's "literal")
  // have none and are not split.
  if (!classAttr || !(holds(classAttr, 'lang') || holds(classAttr, 'highlight') || holds(classAttr, 'sourceCode'))) return undefined;
  const tokens = classAttr.trim().split(/\s+/);
  for (const t of tokens) {
    const m = LANG_TOKEN.exec(t);
    if (m) {
      const lang = m[1]!.toLowerCase();
      return NON_LANGUAGES.has(lang) ? undefined : lang;
    }
  }
  if (tokens.length === 2 && tokens.includes('sourceCode')) {
    const other = tokens.find((t) => t !== 'sourceCode')!;
    if (/^[\w+#.-]{1,40}$/.test(other) && !NON_LANGUAGES.has(other.toLowerCase())) return other.toLowerCase();
  }
  return undefined;
}

// A fence, possibly indented under list items or prefixed by block quotes.
const IMAGE = /!\[((?:\\.|[^\]\\])+)\]\(/g;
const MAX_ALT_CHECKS = 200;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * An image's alt text that says nothing (see saysNothing) or says again what the page says anyway
 * is dropped: an alt repeated from
 * an earlier image (a gallery's or a pin button's copies), one the text shows as a phrase (its
 * caption, the title of the item it illustrates), or one most of whose words stand in a single
 * line of the text (the title it restates with a word changed, a product's name and colour).
 */
function dropRepeatedAlt(md: string): string {
  const shown = md.replace(/!\[(?:\\.|[^\]\\])*\]\([^)]*\)/g, ' ').toLowerCase();
  let lines: string[] | undefined;
  const said = new Set<string>();
  let checks = 0;
  return md.replace(IMAGE, (m, alt: string) => {
    if (++checks > MAX_ALT_CHECKS) return m;
    const a = alt.toLowerCase();
    if (saysNothing(a) || said.has(a)) return '![](';
    said.add(a);
    if (showsPhrase(shown, a)) return '![](';
    return restatesLine((lines ??= shown.split('\n')), a) ? '![](' : m;
  });
}

const WORDS = /[^\p{L}\p{N}]+/u;
const FILE_NAME = /\.(?:jpe?g|png|gif|webp|svg|avif|bmp|tiff?|heic)\b|^https?:\/\/|^(?:screenshot|screen shot|img|dsc|image|photo|pxl)[\s_-]*\d/;
const PICTURE_KIND = /\b(?:logo|logos|icon|icons|avatar|avatars|placeholder|thumbnail|headshot|banner|spacer|badge)\b/;

/**
 * Alt text (lower-cased) that names a file (a camera's or a screenshot's file name, a hash, a
 * URL) or the kind of picture rather than what it shows (a logo, an icon, an avatar) tells a
 * reader nothing the page does not.
 */
function saysNothing(alt: string): boolean {
  if (FILE_NAME.test(alt) || PICTURE_KIND.test(alt)) return true;
  const words = alt.split(/[\s_-]+/).filter((w) => w.length > 0);
  return words.length > 0 && words.every((w) => w.length >= 4 && /\d/.test(w));
}
/** An alt restates a line when at least this share of its words (and two) stand in that line. */
const RESTATED_SHARE = 0.75;

function restatesLine(lines: readonly string[], alt: string): boolean {
  const words = alt.split(WORDS).filter((w) => w.length > 0);
  if (words.length < 2) return false;
  // Lines without the alt's longest word cannot hold three quarters of it often enough to matter.
  let longest = words[0]!;
  for (const w of words) if (w.length > longest.length) longest = w;
  for (const line of lines) {
    if (!line.includes(longest)) continue;
    const have = new Set(line.split(WORDS));
    let n = 0;
    for (const w of words) if (have.has(w)) n++;
    if (n >= RESTATED_SHARE * words.length) return true;
  }
  return false;
}

/** Whether `phrase` occurs in `text` as whole words. */
function showsPhrase(text: string, phrase: string): boolean {
  for (let at = text.indexOf(phrase); at >= 0; at = text.indexOf(phrase, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + phrase.length] ?? '';
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}

const FENCE = /^(?:[ ]*>)*[ ]*(`{3,}|~{3,})/;

/** Whether a line may open or close a fence (see FENCE): its first mark past spaces and quote markers is a backtick or a tilde. */
function mayBeFence(line: string): boolean {
  const len = line.length;
  for (let i = 0; i < len; i++) {
    const c = codeAt(line, i);
    if (c !== 32 && c !== 62) return c === 96 || c === 126;
  }
  return false;
}

/**
 * What stands in for an inlined (data: URI) image under removeBase64Images: the image and its
 * alt text stay where they were, without the bytes. Angle brackets keep it one destination.
 */
export const BASE64_PLACEHOLDER = '<Base64-Image-Removed>';
// An image whose source is a data: URI, with the destination bare or in angle brackets.
const BASE64_IMAGE = /!\[((?:\\.|[^\]\\])*)\]\((?:<data:[^>]*>|data:[^)\s]*)(?:\s+"[^"]*")?\)/g;
const QUOTE_ONLY = /^(?:>\s*)+$/;
const INNER_SPACES = /(?<=\S) {2,}(?=\S)/g;

/**
 * Trims trailing whitespace, collapses runs of blank lines to one, and (optionally) replaces
 * base64 images by their alt text. Lines inside fenced code are left as they are.
 */
export function postprocessMarkdown(md: string, removeBase64Images: boolean): string {
  // Such an image has "(data:" or "<data:" in it: a search for either is several times as fast
  // as one for "data:", whose first letter is everywhere.
  if (removeBase64Images && (md.includes('(data:') || md.includes('<data:'))) md = md.replace(BASE64_IMAGE, (_m, alt: string) => `![${alt.trim()}](${BASE64_PLACEHOLDER})`);
  if (md.includes('![')) md = dropRepeatedAlt(md);
  // A stray XML prolog can reach the converter when a caller skips the cleaning pass.
  md = md.replace(/^\s*\?xml[^\n]*\?>\s*/, '');
  const lines = md.split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  let blank = 0;
  let prevQuoteOnly = false;
  let closedFence = false;
  for (const raw of lines) {
    // Cheap character checks first: most lines have no trailing blanks, fence or quote marker.
    const mayFence = mayBeFence(raw);
    if (fence !== null) {
      out.push(raw);
      const m = mayFence ? FENCE.exec(raw) : null;
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && raw.slice(m.index + m[0].length).trim() === '') {
        fence = null;
        closedFence = true;
      }
      continue;
    }
    // The converter sometimes starts the next block right under a closing fence; a block quote
    // there would read as part of the code's surroundings, so give it its blank line.
    if (closedFence && raw !== '') out.push('');
    closedFence = false;
    const len = raw.length;
    const last = codeOrNone(raw, len - 1, len);
    let line = last === 32 || last === 9 ? raw.replace(/[ \t]+$/, '') : raw;
    // Inline elements that rendered as nothing leave doubled spaces between words.
    if (holds(line, '  ')) line = line.replace(INNER_SPACES, ' ');
    const m = mayFence ? FENCE.exec(line) : null;
    if (m) {
      fence = m[1]!;
      blank = 0;
      prevQuoteOnly = false;
      out.push(line);
      continue;
    }
    if (line === '') {
      blank++;
      if (blank > 1) continue;
      out.push(line);
      continue;
    }
    // Nested blockquotes come out of the converter with stacks of empty `>` lines.
    const quoteOnly = codeAt(line, 0) === 62 && QUOTE_ONLY.test(line);
    if (quoteOnly && prevQuoteOnly) continue;
    prevQuoteOnly = quoteOnly;
    blank = 0;
    out.push(line);
  }
  while (out.length > 0 && out[0] === '') out.shift();
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
