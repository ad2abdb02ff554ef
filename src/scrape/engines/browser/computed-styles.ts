/**
 * The `branding` format's view of a rendered page: one bounded evaluate that reads the computed
 * styles of a few dozen telling elements (the root and body, the first headings, links, buttons
 * and code), so colours and fonts set by scripts, inherited, or cascaded from rules a style-sheet
 * reader cannot tie to an element come back as the browser resolved them.
 */
import type { Page } from 'playwright-core';
import { z } from 'zod';
import type { RenderedStyles } from '../../types.js';
import { evaluateInPage } from './bounded-read.js';
import { withTimeout } from './waits.js';

const READ_TIMEOUT_MS = 2_000;
/** Far above what the elements below produce (some 6 KB); a page that inflates it gets nothing. */
const MAX_CHARS = 64 * 1024;

/** In-page, self-contained: the styles as RenderedStyles. */
const COLLECT = `() => {
  const BUTTONS = 'button, [role="button"], input[type="submit"], input[type="button"], a[class*="btn" i], a[class*="button" i]';
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
  };
  const style = (el, box) => {
    const s = getComputedStyle(el);
    const out = { color: s.color, backgroundColor: s.backgroundColor, fontFamily: s.fontFamily };
    if (box) {
      out.borderColor = s.borderTopColor;
      out.borderRadius = s.borderTopLeftRadius;
    }
    return out;
  };
  const pick = (selector, max, keep) => {
    const out = [];
    for (const el of document.querySelectorAll(selector)) {
      if (out.length >= max) break;
      if ((!keep || keep(el)) && visible(el)) out.push(el);
    }
    return out;
  };
  const root = document.documentElement;
  return {
    colorScheme: getComputedStyle(root).colorScheme,
    root: style(root),
    body: style(document.body || root),
    headings: pick('h1, h2, h3', 6).map((el) => style(el)),
    links: pick('a[href]', 12, (el) => !el.matches(BUTTONS) && (el.textContent || '').trim().length > 0).map((el) => style(el)),
    buttons: pick(BUTTONS, 8).map((el) => style(el, true)),
    code: pick('code, pre, kbd', 4).map((el) => style(el)),
  };
}`;

const text = z.string().max(500);
const element = z.object({ color: text, backgroundColor: text, fontFamily: text, borderColor: text.optional(), borderRadius: text.optional() });
const list = z.array(element).max(12);
// The page's answer is the page's to make up: only this shape is taken from it.
const shape = z.object({ colorScheme: text, root: element, body: element, headings: list, links: list, buttons: list, code: list });

/** The page's styles, or undefined when it will not say in time or says nonsense (branding then reads its CSS). */
export async function readRenderedStyles(page: Page, timeoutMs: number): Promise<RenderedStyles | undefined> {
  try {
    const value = await withTimeout(
      evaluateInPage(page, `(${COLLECT})()`, { maxChars: MAX_CHARS, json: true, tooLarge: () => new Error('styles too large') }),
      Math.max(1, Math.min(READ_TIMEOUT_MS, timeoutMs)),
      'reading computed styles',
    );
    const parsed = shape.safeParse(value);
    return parsed.success ? (parsed.data as RenderedStyles) : undefined;
  } catch {
    return undefined;
  }
}
