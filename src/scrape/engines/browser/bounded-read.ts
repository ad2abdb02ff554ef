/**
 * Reading from a page without trusting its size. Whatever a page hands back crosses into this
 * process whole (a 400 MB string is 400 MB here, and more while Playwright decodes it), so the
 * value is measured inside the page and only crosses when it is within the limit.
 *
 * Page scripts may have replaced any global the measuring code touches (JSON, String, Error...);
 * what decides is only `typeof` and a primitive string's `length`, which no script can redefine,
 * so a hostile page can make a read fail but never make it large.
 */
import type { Locator, Page } from 'playwright-core';

/** Longest error message a page may hand back. */
const MAX_ERROR_CHARS = 4096;

/**
 * In-page: awaits `produce()`, and answers `{v}` (the text, or the value's JSON), `{u}` (the value
 * was undefined), `{n}` (its length, when over `max`) or `{e}` (what it threw, as a short message).
 */
const MEASURE = `async (produce, max, asJson) => {
  let value;
  try {
    value = await produce();
  } catch (err) {
    let m;
    try { m = err !== null && typeof err === 'object' && 'message' in err ? String(err.name) + ': ' + String(err.message) : String(err); } catch (_) { m = undefined; }
    return { e: typeof m === 'string' && m.length <= ${MAX_ERROR_CHARS} ? m : 'Error (its message could not be shown)' };
  }
  if (asJson && value === undefined) return { u: 1 };
  let text = value;
  if (asJson) {
    try { text = JSON.stringify(value); } catch (_) { return { e: 'TypeError: the value cannot be serialized as JSON' }; }
  }
  if (text === null || text === undefined) return { v: null };
  if (typeof text !== 'string') return { e: 'TypeError: the value is not text' };
  return text.length > max ? { n: text.length } : { v: text };
}`;

/** The page's HTML as Playwright's `content()` reads it: doctype, then the root element. */
const SERIALIZE_DOCUMENT = `() => {
  let html = '';
  if (document.doctype) {
    try { html = new XMLSerializer().serializeToString(document.doctype); } catch (_) { html = '<!DOCTYPE html>'; }
  }
  if (document.documentElement) html += document.documentElement.outerHTML;
  return html;
}`;

export interface BoundedReadOptions {
  /** Most characters (of text, or of JSON) that may come back. */
  maxChars: number;
  /** The error for a value over the limit, given its length in characters. */
  tooLarge(chars: number): Error;
  /** Bring the value back as JSON (parsed here) rather than as text. */
  json?: boolean;
  /** For a locator: how long to wait for its element. */
  timeout?: number;
}

type Measured = { v: string | null } | { u: 1 } | { n: number } | { e: string };

function settle(r: Measured, o: BoundedReadOptions): unknown {
  if ('u' in r) return undefined;
  if ('e' in r) throw new Error(r.e);
  if ('n' in r) throw o.tooLarge(r.n);
  if (r.v === null) return o.json ? null : r.v;
  return o.json ? (JSON.parse(r.v) as unknown) : r.v;
}

/** Evaluates an expression (an async function's body is fine: wrap it first) in the page, bounded. */
export async function evaluateInPage(page: Page, expression: string, o: BoundedReadOptions): Promise<unknown> {
  const r = (await page.evaluate(`(${MEASURE})(async () => (${expression}), ${o.maxChars}, ${o.json === true})`)) as Measured;
  return settle(r, o);
}

/**
 * Playwright calls a page function with the element only when it is given a function, which it
 * sends by its source text (`String(fn)`); a string it would evaluate, not call. This is a
 * function whose source text is the given one, so source that never was a function here (the
 * caller's, with the measuring around it) is called in the page as one.
 */
function pageFunction(source: string): (...args: unknown[]) => unknown {
  const fn = () => undefined;
  fn.toString = () => source;
  return fn;
}

const measuredCall = (fn: string, target: string, o: BoundedReadOptions) =>
  pageFunction(`(${target}, arg) => (${MEASURE})(() => (${fn})(${target}, arg), ${o.maxChars}, ${o.json === true})`);

/** Calls `fn(element, arg)` (function source) on the locator's element, bounded. */
export async function evaluateOnElement(locator: Locator, fn: string, arg: unknown, o: BoundedReadOptions): Promise<unknown> {
  const r = (await locator.evaluate(measuredCall(fn, 'el', o), arg ?? null, o.timeout === undefined ? undefined : { timeout: o.timeout })) as Measured;
  return settle(r, o);
}

/** Calls `fn(elements, arg)` on all the locator's elements, bounded. */
export async function evaluateOnAll(locator: Locator, fn: string, arg: unknown, o: BoundedReadOptions): Promise<unknown> {
  const r = (await locator.evaluateAll(measuredCall(fn, 'els', o), arg ?? null)) as Measured;
  return settle(r, o);
}

/** The page's HTML, refused (by `tooLarge`) past `maxChars` characters before any of it leaves the page. */
export async function readDocument(page: Page, maxChars: number, tooLarge: (chars: number) => Error): Promise<string> {
  const html = (await evaluateInPage(page, `(${SERIALIZE_DOCUMENT})()`, { maxChars, tooLarge })) as string | null;
  return html ?? '';
}
