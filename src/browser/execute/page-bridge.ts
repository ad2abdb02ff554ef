/**
 * The host side of the sandbox's `page`: a fixed table of Playwright operations, each taking and
 * returning plain data. Options are copied key by key from a list per operation, so nothing the
 * caller sends can name a host file (`path`), a host function, or anything not listed here.
 * Screenshots and PDFs become signed file links instead of bytes.
 */
import type { Locator, Page } from 'playwright-core';
import { ApiError } from '../../errors.js';
import { wrapScript } from '../../scrape/engines/browser/actions.js';
import { evaluateInPage, evaluateOnAll, evaluateOnElement, readDocument, type BoundedReadOptions } from '../../scrape/engines/browser/bounded-read.js';
import { isHttpScheme, schemeOf } from '../../scrape/engines/browser/hosts.js';

export interface BridgeDeps {
  page: Page;
  /** Milliseconds left before the run's deadline. */
  remaining(): number;
  /** Stores a file and answers its signed URL. */
  saveFile(data: Buffer, mime: string): Promise<string>;
  /** Called before a navigation the code asks for; throws when the URL is refused. */
  checkNavigation(url: string): Promise<void>;
  /** Most characters (of text or JSON) a value read from the page may have. */
  maxValueChars: number;
}

type Json = unknown;
type Handler = (d: BridgeDeps, args: Json[]) => Promise<Json>;

const MAX_WAIT_MS = 300_000;

/** Only these option keys pass, each only as a JSON primitive or a plain object of primitives. */
function pick(o: Json, keys: readonly string[], d: BridgeDeps | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (o && typeof o === 'object' && !Array.isArray(o)) {
    for (const k of keys) {
      const v = (o as Record<string, unknown>)[k];
      if (v === undefined) continue;
      if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
      else if (typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => ['string', 'number', 'boolean'].includes(typeof x))) out[k] = v;
      else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out[k] = v;
    }
  }
  // Every wait ends by the run's deadline; `d` is absent for calls that take no timeout.
  if (d) out.timeout = timeoutOf(out.timeout, d);
  return out;
}

export function timeoutOf(given: unknown, d: BridgeDeps): number {
  const left = Math.max(1, d.remaining());
  return typeof given === 'number' && given > 0 ? Math.min(given, left) : left;
}

const str = (v: Json, what: string): string => {
  if (typeof v !== 'string') throw new Error(`${what} must be a string`);
  return v;
};

const ACTION_OPTS = ['timeout', 'force', 'button', 'clickCount', 'delay', 'position', 'modifiers', 'noWaitAfter', 'trial', 'strict'];
const NAV_OPTS = ['timeout', 'waitUntil', 'referer'];
const SHOT_OPTS = ['timeout', 'fullPage', 'type', 'quality', 'clip', 'omitBackground', 'scale', 'animations', 'caret'];
const PDF_OPTS = ['format', 'landscape', 'scale', 'printBackground', 'width', 'height', 'margin', 'pageRanges', 'preferCSSPageSize'];

/**
 * What the page hands back is measured there and refused past the limit before it is read over:
 * a page can build a string far larger than this process should hold (`'x'.repeat(4e8)`).
 */
export function bounded(d: BridgeDeps, json: boolean): BoundedReadOptions {
  const max = d.maxValueChars;
  return {
    maxChars: max,
    json,
    timeout: timeoutOf(undefined, d),
    tooLarge: (chars) =>
      new ApiError('PAYLOAD_TOO_LARGE', {
        message: `Payload Too Large: the page's value is ${chars} characters${json ? ' of JSON' : ''}, over this server's ${max}-character limit; bring back less of it (a slice, a count)`,
      }),
  };
}

/** Element readers, run in the page so their value is measured there. */
export const READ = {
  textContent: '(el) => el.textContent',
  innerText: "(el) => { if (!(el instanceof HTMLElement)) throw new Error('Node is not an HTMLElement'); return el.innerText; }",
  innerHTML: '(el) => el.innerHTML',
  inputValue:
    "(el) => { if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement)) throw new Error('Node is not an <input>, <textarea> or <select> element'); return el.value; }",
  getAttribute: '(el, name) => el.getAttribute(name)',
  allTextContents: "(els) => els.map((e) => e.textContent || '')",
  allInnerTexts: "(els) => els.map((e) => (e instanceof HTMLElement ? e.innerText : e.textContent || ''))",
} as const;

const readText = (d: BridgeDeps, loc: Locator, fn: string, arg?: unknown) => evaluateOnElement(loc, fn, arg, bounded(d, false));

/** `evaluate(fn, arg)`: a function's source is called with the argument; a string is an expression or body. */
function evaluateSource(src: string, isFunction: boolean, arg: Json): string {
  return isFunction ? `(${src})(${JSON.stringify(arg ?? null)})` : wrapScript(src);
}

async function response(r: Awaited<ReturnType<Page['goto']>>): Promise<Json> {
  if (!r) return null;
  return { status: r.status(), url: r.url(), statusText: r.statusText(), headers: r.headers() };
}

async function screenshot(d: BridgeDeps, take: (o: Record<string, unknown>) => Promise<Buffer>, opts: Json): Promise<string> {
  const o = pick(opts, SHOT_OPTS, d);
  const jpeg = o.type === 'jpeg' || o.quality !== undefined;
  if (jpeg) o.type = 'jpeg';
  else delete o.quality;
  return d.saveFile(await take(o), jpeg ? 'image/jpeg' : 'image/png');
}

function locatorOf(page: Page, steps: Json): Locator {
  if (!Array.isArray(steps) || steps.length === 0) throw new Error('empty locator');
  let loc: Locator | undefined;
  for (const s of steps as Record<string, unknown>[]) {
    const base: Page | Locator = loc ?? page;
    const exact = s.exact === true;
    if (typeof s.css === 'string') loc = base.locator(s.css);
    else if (typeof s.text === 'string') loc = base.getByText(s.text, { exact });
    else if (typeof s.role === 'string') loc = base.getByRole(s.role as Parameters<Page['getByRole']>[0], { ...(typeof s.name === 'string' ? { name: s.name } : {}), exact });
    else if (typeof s.placeholder === 'string') loc = base.getByPlaceholder(s.placeholder, { exact });
    else if (typeof s.label === 'string') loc = base.getByLabel(s.label, { exact });
    else if (typeof s.testId === 'string') loc = base.getByTestId(s.testId);
    else if (typeof s.nth === 'number' && loc) loc = s.nth === -1 ? loc.last() : loc.nth(s.nth);
    else throw new Error('unsupported locator step');
  }
  return loc!;
}

async function onLocator(d: BridgeDeps, args: Json[]): Promise<Json> {
  const [steps, method, a, b] = args;
  const loc = locatorOf(d.page, steps);
  const t = { timeout: timeoutOf(undefined, d) };
  switch (method) {
    case 'click':
      return loc.click(pick(a, ACTION_OPTS, d));
    case 'dblclick':
      return loc.dblclick(pick(a, ACTION_OPTS, d));
    case 'fill':
      return loc.fill(str(a, 'value'), t);
    case 'clear':
      return loc.clear(t);
    case 'type':
    case 'pressSequentially':
      return loc.pressSequentially(str(a, 'text'), pick(b, ['delay', 'timeout'], d));
    case 'press':
      return loc.press(str(a, 'key'), t);
    case 'hover':
      return loc.hover(t);
    case 'focus':
      return loc.focus(t);
    case 'check':
      return loc.check(t);
    case 'uncheck':
      return loc.uncheck(t);
    case 'selectOption':
      return loc.selectOption(typeof a === 'string' || Array.isArray(a) ? (a as string | string[]) : String(a), t);
    case 'textContent':
      return readText(d, loc, READ.textContent);
    case 'innerText':
      return readText(d, loc, READ.innerText);
    case 'innerHTML':
      return readText(d, loc, READ.innerHTML);
    case 'inputValue':
      return readText(d, loc, READ.inputValue);
    case 'getAttribute':
      return readText(d, loc, READ.getAttribute, str(a, 'name'));
    case 'isVisible':
      return loc.isVisible();
    case 'isHidden':
      return loc.isHidden();
    case 'isChecked':
      return loc.isChecked(t);
    case 'isEnabled':
      return loc.isEnabled(t);
    case 'count':
      return loc.count();
    case 'allTextContents':
      return evaluateOnAll(loc, READ.allTextContents, null, bounded(d, true));
    case 'allInnerTexts':
      return evaluateOnAll(loc, READ.allInnerTexts, null, bounded(d, true));
    case 'waitFor':
      return loc.waitFor(pick(a, ['state', 'timeout'], d));
    case 'scrollIntoViewIfNeeded':
      return loc.scrollIntoViewIfNeeded(t);
    case 'evaluate':
      return evaluateOnElement(loc, str(a, 'function'), b ?? null, bounded(d, true));
    case 'evaluateAll':
      return evaluateOnAll(loc, str(a, 'function'), b ?? null, bounded(d, true));
    case 'screenshot':
      return screenshot(d, (o) => loc.screenshot(o), a);
    default:
      throw new Error(`locator.${String(method)} is not available`);
  }
}

const handlers: Record<string, Handler> = {
  goto: async (d, [url, o]) => {
    const target = str(url, 'url');
    await d.checkNavigation(target);
    return response(await d.page.goto(target, pick(o, NAV_OPTS, d)));
  },
  reload: async (d, [o]) => response(await d.page.reload(pick(o, NAV_OPTS, d))),
  goBack: async (d, [o]) => response(await d.page.goBack(pick(o, NAV_OPTS, d))),
  goForward: async (d, [o]) => response(await d.page.goForward(pick(o, NAV_OPTS, d))),
  content: (d) => readDocument(d.page, d.maxValueChars, bounded(d, false).tooLarge),
  title: (d) => evaluateInPage(d.page, 'document.title', bounded(d, false)),
  setContent: async (d, [html]) => d.page.setContent(str(html, 'html'), { timeout: timeoutOf(undefined, d) }),
  evaluate: (d, [src, isFn, arg]) => evaluateInPage(d.page, evaluateSource(str(src, 'script'), isFn === true, arg), bounded(d, true)),
  waitForFunction: async (d, [src, arg, o]) => {
    await d.page.waitForFunction(`(${str(src, 'function')})`, arg ?? null, pick(o, ['timeout', 'polling'], d));
    return true;
  },
  click: (d, [s, o]) => d.page.click(str(s, 'selector'), pick(o, ACTION_OPTS, d)),
  dblclick: (d, [s, o]) => d.page.dblclick(str(s, 'selector'), pick(o, ACTION_OPTS, d)),
  fill: (d, [s, v, o]) => d.page.fill(str(s, 'selector'), str(v, 'value'), pick(o, ['timeout', 'force'], d)),
  type: (d, [s, v, o]) => d.page.locator(str(s, 'selector')).pressSequentially(str(v, 'text'), pick(o, ['delay', 'timeout'], d)),
  press: (d, [s, k, o]) => d.page.press(str(s, 'selector'), str(k, 'key'), pick(o, ['delay', 'timeout'], d)),
  hover: (d, [s, o]) => d.page.hover(str(s, 'selector'), pick(o, ACTION_OPTS, d)),
  focus: (d, [s]) => d.page.focus(str(s, 'selector'), { timeout: timeoutOf(undefined, d) }),
  check: (d, [s]) => d.page.check(str(s, 'selector'), { timeout: timeoutOf(undefined, d) }),
  uncheck: (d, [s]) => d.page.uncheck(str(s, 'selector'), { timeout: timeoutOf(undefined, d) }),
  selectOption: (d, [s, v]) => d.page.selectOption(str(s, 'selector'), typeof v === 'string' || Array.isArray(v) ? (v as string | string[]) : String(v), { timeout: timeoutOf(undefined, d) }),
  // Page-level readers take the first match, as Playwright's do outside strict mode.
  textContent: (d, [s]) => readText(d, d.page.locator(str(s, 'selector')).first(), READ.textContent),
  innerText: (d, [s]) => readText(d, d.page.locator(str(s, 'selector')).first(), READ.innerText),
  innerHTML: (d, [s]) => readText(d, d.page.locator(str(s, 'selector')).first(), READ.innerHTML),
  inputValue: (d, [s]) => readText(d, d.page.locator(str(s, 'selector')).first(), READ.inputValue),
  getAttribute: (d, [s, n]) => readText(d, d.page.locator(str(s, 'selector')).first(), READ.getAttribute, str(n, 'name')),
  isVisible: (d, [s]) => d.page.isVisible(str(s, 'selector')),
  isHidden: (d, [s]) => d.page.isHidden(str(s, 'selector')),
  waitForSelector: async (d, [s, o]) => {
    const el = await d.page.waitForSelector(str(s, 'selector'), pick(o, ['state', 'timeout'], d));
    await el?.dispose();
    return el !== null;
  },
  waitForTimeout: (d, [ms]) => d.page.waitForTimeout(Math.max(0, Math.min(Number(ms) || 0, MAX_WAIT_MS, d.remaining()))),
  waitForLoadState: (d, [state, o]) =>
    d.page.waitForLoadState(state === 'domcontentloaded' || state === 'networkidle' ? state : 'load', pick(o, ['timeout'], d)),
  waitForURL: (d, [url, o]) => d.page.waitForURL(str(url, 'url'), pick(o, ['timeout', 'waitUntil'], d)),
  screenshot: (d, [o]) => screenshot(d, (opts) => d.page.screenshot(opts), o),
  pdf: async (d, [o]) => d.saveFile(await d.page.pdf(pick(o, PDF_OPTS, undefined)), 'application/pdf'),
  setViewportSize: (d, [size]) => d.page.setViewportSize(pick(size, ['width', 'height'], undefined) as { width: number; height: number }),
  viewportSize: async (d) => d.page.viewportSize(),
  cookies: (d, [urls]) => d.page.context().cookies(Array.isArray(urls) || typeof urls === 'string' ? (urls as string | string[]) : undefined),
  clearCookies: (d) => d.page.context().clearCookies(),
  'keyboard.type': (d, [t, o]) => d.page.keyboard.type(str(t, 'text'), pick(o, ['delay'], undefined)),
  'keyboard.press': (d, [k, o]) => d.page.keyboard.press(str(k, 'key'), pick(o, ['delay'], undefined)),
  'keyboard.down': (d, [k]) => d.page.keyboard.down(str(k, 'key')),
  'keyboard.up': (d, [k]) => d.page.keyboard.up(str(k, 'key')),
  'keyboard.insertText': (d, [t]) => d.page.keyboard.insertText(str(t, 'text')),
  'mouse.click': (d, [x, y, o]) => d.page.mouse.click(Number(x), Number(y), pick(o, ['button', 'clickCount', 'delay'], undefined)),
  'mouse.move': (d, [x, y, o]) => d.page.mouse.move(Number(x), Number(y), pick(o, ['steps'], undefined)),
  'mouse.down': (d, [o]) => d.page.mouse.down(pick(o, ['button', 'clickCount'], undefined)),
  'mouse.up': (d, [o]) => d.page.mouse.up(pick(o, ['button', 'clickCount'], undefined)),
  'mouse.wheel': (d, [x, y]) => d.page.mouse.wheel(Number(x), Number(y)),
  locator: onLocator,
};

/** Runs one sandbox call; answers `{v: value, u: page URL}` so `page.url()` stays synchronous. */
export async function bridgeCall(d: BridgeDeps, method: string, args: Json[]): Promise<{ v: Json; u: string }> {
  const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
  if (!handler) throw new Error(`page.${method} is not available in this sandbox`);
  const value = await handler(d, args);
  return { v: value === undefined ? null : value, u: d.page.url() };
}

/** Navigations the code asks for go to http(s) only; the SSRF guard vets the address too. */
export function navigationScheme(url: string): void {
  if (!isHttpScheme(schemeOf(url))) {
    throw new ApiError('URL_BLOCKED', { message: `Scheme ${schemeOf(url) || '(none)'} is not allowed`, details: { url } });
  }
}
