/**
 * HTML → markdown. The converter (kreuzberg, native) sits behind `convertCleanHtml`, so it can be
 * swapped without touching callers; everything it does not do on its own (absolute URLs, code
 * languages from wrappers, prolog leaks) is handled by the cleaning pass in scan.ts or by the
 * post-processing here.
 */
import kreuzberg from '@kreuzberg/html-to-markdown-node';
import type {
  CodeBlockStyle,
  ConversionOptions,
  HeadingStyle,
  NewlineStyle,
} from '@kreuzberg/html-to-markdown-node';
import { scanDocument } from './scan.js';

// The binding's enums are type-only (empty objects at run time), so their string values are
// spelled out here.
const CONVERT_OPTIONS: ConversionOptions = {
  extractMetadata: false,
  headingStyle: 'Atx' as HeadingStyle,
  codeBlockStyle: 'Backticks' as CodeBlockStyle,
  bullets: '-',
  // Column padding only costs tokens; readers and LLMs do not need aligned pipes.
  compactTables: true,
  // Backslash breaks survive the trailing-whitespace trim below; two-space breaks would not.
  newlineStyle: 'Backslash' as NewlineStyle,
  // Our own pass decides what is boilerplate; the converter's navigation stripping would
  // silently override onlyMainContent=false and includeTags.
  preprocessing: { enabled: false },
};

/** Languages that name no language: a fence without a tag says the same more plainly. */
const NON_LANGUAGES = new Set(['none', 'default', 'text', 'plain', 'plaintext', 'nohighlight', 'no-highlight', 'txt']);

const LANG_TOKEN = /^(?:language|lang|highlight-source|highlight)-([\w+#.-]{1,40})$/;

/**
 * The code language named by a class list: `language-x`, `lang-x`, Sphinx's `highlight-x`
 * wrapper, GitHub's `highlight-source-x`, or pandoc's `sourceCode x`.
 */
export function codeLanguage(classAttr: string | undefined): string | undefined {
  if (!classAttr) return undefined;
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

// Whitespace runs a browser would render as one space (single spaces need no rewrite).
const WS_RUN = /[\t\n\r\f][ \t\n\r\f]*| [ \t\n\r\f]+/g;
const PRE_BLOCK = /<pre[\s>][\s\S]*?<\/pre>/g;

/**
 * Collapses whitespace outside <pre> in cleaned HTML. Done once over the whole string: one
 * regex pass is far cheaper than one per text node, and the converter keeps source newlines
 * inside paragraphs otherwise.
 */
export function collapseWhitespace(html: string): string {
  if (!html.includes('<pre')) return html.replace(WS_RUN, ' ');
  let out = '';
  let last = 0;
  PRE_BLOCK.lastIndex = 0;
  for (let m = PRE_BLOCK.exec(html); m !== null; m = PRE_BLOCK.exec(html)) {
    out += html.slice(last, m.index).replace(WS_RUN, ' ') + m[0];
    last = m.index + m[0].length;
  }
  return out + html.slice(last).replace(WS_RUN, ' ');
}

export interface MarkdownOptions {
  /** Replace `data:` image sources with their alt text (default true). */
  removeBase64Images?: boolean;
}

/**
 * Converts HTML that has already been through the cleaning pass (absolute URLs, code languages
 * on `<pre>`, no prolog) and tidies the result.
 */
export function convertCleanHtml(cleanHtml: string, opts: MarkdownOptions = {}): string {
  let md: string;
  try {
    md = kreuzberg.convert(collapseWhitespace(cleanHtml), CONVERT_OPTIONS).content ?? '';
  } catch {
    // The converter only fails on input it cannot read at all; plain text beats an error.
    md = cleanHtml.replace(/<[^>]*>/g, ' ').replace(/[ \t]+/g, ' ');
  }
  return postprocessMarkdown(md, opts.removeBase64Images ?? true);
}

/**
 * HTML → markdown for any HTML document or fragment: links and images absolute against
 * `baseUrl` (and the document's `<base href>`), scripts and styles dropped, nothing else removed.
 */
export function toMarkdown(html: string, baseUrl: string, opts: MarkdownOptions = {}): string {
  const scan = scanDocument(html, {
    baseUrl,
    content: { onlyMainContent: false, attributes: 'minimal' },
  });
  return convertCleanHtml(scan.content?.html ?? '', opts);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// An image whose source is a data: URI, with the destination bare or in angle brackets.
const BASE64_IMAGE = /!\[([^\]]*)\]\((?:<data:[^>]*>|data:[^)\s]*)(?:\s+"[^"]*")?\)/g;
const QUOTE_ONLY = /^(?:>\s*)+$/;
const INNER_SPACES = /(?<=\S) {2,}(?=\S)/g;

/**
 * Trims trailing whitespace, collapses runs of blank lines to one, and (optionally) replaces
 * base64 images by their alt text. Lines inside fenced code are left as they are.
 */
export function postprocessMarkdown(md: string, removeBase64Images: boolean): string {
  if (removeBase64Images && md.includes('](')) md = md.replace(BASE64_IMAGE, (_m, alt: string) => alt.trim());
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
    const mayFence = raw.includes('```') || raw.includes('~~~');
    if (fence !== null) {
      out.push(raw);
      const m = mayFence ? FENCE.exec(raw) : null;
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && raw.trim() === m[1]) {
        fence = null;
        closedFence = true;
      }
      continue;
    }
    // The converter sometimes starts the next block right under a closing fence; a block quote
    // there would read as part of the code's surroundings, so give it its blank line.
    if (closedFence && raw !== '') out.push('');
    closedFence = false;
    const last = raw.charCodeAt(raw.length - 1);
    let line = last === 32 || last === 9 ? raw.replace(/[ \t]+$/, '') : raw;
    // Inline elements that rendered as nothing leave doubled spaces between words.
    if (line.includes('  ')) line = line.replace(INNER_SPACES, ' ');
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
    const quoteOnly = line.charCodeAt(0) === 62 && QUOTE_ONLY.test(line);
    if (quoteOnly && prevQuoteOnly) continue;
    prevQuoteOnly = quoteOnly;
    blank = 0;
    out.push(line);
  }
  while (out.length > 0 && out[0] === '') out.shift();
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
