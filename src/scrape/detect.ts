/**
 * Cheap looks at a fetched page that decide what the pipeline does next: does it need a browser
 * to show its content, and was the request blocked (so `proxy: auto` should try again)?
 */

const NON_CONTENT = /<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const TAGS = /<[^>]*>/g;
const MOUNT_POINT = /<(div|main|section)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|svelte|main-app|application)["']?[^>]*>\s*<\/\1>/i;
const ENABLE_JS = /<noscript\b[^>]*>[\s\S]{0,400}?(enable|turn on|requires?)\s+javascript/i;

/** Visible text length of an HTML document, roughly (no DOM: this runs on every page). */
export function visibleTextLength(html: string): number {
  const body = /<body\b[\s\S]*$/i.exec(html)?.[0] ?? html;
  return body.replace(NON_CONTENT, ' ').replace(TAGS, ' ').replace(/&[a-z#0-9]+;/gi, ' ').replace(/\s+/g, ' ').trim().length;
}

/**
 * True when the HTML is an application shell whose content only appears after its scripts run:
 * little visible text, and either an empty mount point, a "please enable JavaScript" notice, or
 * scripts carrying the page.
 */
export function needsJavaScript(html: string): boolean {
  if (html.length > 2_000_000) return false;
  const text = visibleTextLength(html);
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
