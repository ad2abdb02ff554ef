/**
 * Cheap looks at a fetched page that decide what the pipeline does next: does it need a browser
 * to show its content, and was the request blocked (so `proxy: auto` should try again)?
 */
import { isPatternSpace } from '../transform/html-util.js';

const MOUNT_POINT = /<(div|main|section)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|svelte|main-app|application)["']?[^>]*>\s*<\/\1>/i;
const ENABLE_JS = /<noscript\b[^>]*>[\s\S]{0,400}?(enable|turn on|requires?)\s+javascript/i;

/** Elements whose content is never read as the page's text, each with the search for its end tag. */
const UNSEEN = ['script', 'style', 'noscript', 'template', 'svg', 'head'].map((name) => ({ name, end: new RegExp(`</${name}\\s*>`, 'gi') }));
const ENTITY = /&[a-z#0-9]+;/iy;
const BODY = /<body\b/i;

/**
 * Visible text length of an HTML document, roughly (no DOM: this runs on every page): the text
 * from `<body` on, outside tags, comments and the elements above, an entity and each run of white
 * space counting one, the ends none. Counting stops at `enough`: callers ask whether a page holds
 * a few hundred characters, which a real page's first screen answers, where regular expressions
 * over the whole page cost some 0.7 ms on a 240 KB page.
 */
export function visibleTextLength(html: string, enough = Infinity): number {
  let i = BODY.exec(html)?.index ?? 0;
  let count = 0;
  let gap = false;
  while (i < html.length) {
    const c = html.charCodeAt(i);
    const skipTo = c === 60 ? markupEnd(html, i) : c === 38 ? entityEnd(html, i) : isPatternSpace(c) ? i + 1 : -1;
    if (skipTo > 0) {
      gap = true;
      i = skipTo;
      continue;
    }
    if (gap && count > 0) count++;
    gap = false;
    if (++count >= enough) return count;
    i++;
  }
  return count;
}

/** Where the comment, unseen element or tag opening at `at` ends; -1 when the `<` is text. */
function markupEnd(html: string, at: number): number {
  if (html.startsWith('<!--', at)) {
    const end = html.indexOf('-->', at + 4);
    if (end >= 0) return end + 3;
  }
  for (const { name, end } of UNSEEN) {
    const after = at + 1 + name.length;
    // (The first letter, any case, is compared before anything is sliced off the page.)
    if ((html.charCodeAt(at + 1) | 0x20) !== name.charCodeAt(0) || html.slice(at + 1, after).toLowerCase() !== name || isWordChar(html.charCodeAt(after))) continue;
    end.lastIndex = after;
    const close = end.exec(html);
    if (close) return close.index + close[0].length;
  }
  const gt = html.indexOf('>', at + 1);
  return gt >= 0 ? gt + 1 : -1;
}

function entityEnd(html: string, at: number): number {
  ENTITY.lastIndex = at;
  return ENTITY.test(html) ? ENTITY.lastIndex : -1;
}

/** `\w`: what a `\b` after a tag name must not be followed by. */
function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * True when the HTML is an application shell whose content only appears after its scripts run:
 * little visible text, and either an empty mount point, a "please enable JavaScript" notice, or
 * scripts carrying the page.
 */
export function needsJavaScript(html: string): boolean {
  if (html.length > 2_000_000) return false;
  const text = visibleTextLength(html, 200);
  if (text >= 200) return false;
  if (MOUNT_POINT.test(html) || ENABLE_JS.test(html)) return true;
  const scripts = html.match(/<script\b/gi)?.length ?? 0;
  return scripts > 0 && text < 50;
}

/** needsJavaScript of a fetched answer: the verdict of the engine that transformed it, or read off its text. */
export function isScriptShell(r: { contentType: string; text?: string | undefined; needsJavaScript?: boolean | undefined }): boolean {
  return r.needsJavaScript ?? (r.text !== undefined && isHtml(r) && needsJavaScript(r.text));
}

const CHALLENGE =
  /<title>\s*(just a moment|attention required|access denied|verify you are human|security check|pardon our interruption)|cf-chl-|challenge-platform|captcha-delivery|px-captcha|_incapsula_resource/i;

/** True when a response looks like an anti-bot block rather than the page itself. */
export function looksBlocked(status: number, html: string | undefined): boolean {
  if (status === 403 || status === 429 || status === 503) return true;
  return html !== undefined && html.length < 200_000 && CHALLENGE.test(html);
}

/** Whether a fetched answer is a web page for the transform (HTML, or XML that may be XHTML). */
export function isHtml(r: { contentType: string; text?: string | undefined }): boolean {
  return /html|xml/i.test(r.contentType) || (!r.contentType && r.text !== undefined && /^\s*</.test(r.text));
}
