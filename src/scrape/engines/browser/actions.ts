/**
 * Runs a scrape's actions against its page, in order, between loading and capture. A failing
 * action stops the scrape with SCRAPE_ACTION_ERROR naming its index and type; running out of
 * the scrape's own time stays a SCRAPE_TIMEOUT.
 */
import * as acorn from 'acorn';
import type { Page } from 'playwright-core';
import { ApiError, isApiError } from '../../../errors.js';
import type { Action, ActionOutput } from './action-schema.js';
import { responseTooLarge } from '../too-large.js';
import { evaluateInPage } from './bounded-read.js';
import { readBoundedHtml } from './capture.js';
import { sleep, throwIfAborted } from './waits.js';

export interface ActionTarget {
  page: Page;
  /** Aborts at the scrape's deadline or when the caller goes away. */
  signal: AbortSignal;
  /** Time left as a positive Playwright timeout, at most `cap`. */
  timeout(cap?: number): number;
  /** Largest page, script value, screenshot or PDF an action may bring back (MAX_RESPONSE_BYTES). */
  maxBytes: number;
  /** Throws when the page may not go on (a navigation the guard refused); called after each action. */
  check?(): void;
}

export const emptyActionOutput = (): ActionOutput => ({ screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] });

export async function runActions(t: ActionTarget, actions: readonly Action[]): Promise<ActionOutput> {
  const out = emptyActionOutput();
  for (const [index, action] of actions.entries()) {
    throwIfAborted(t.signal);
    try {
      await runOne(t, action, out);
      t.check?.();
    } catch (e) {
      // The scrape's own deadline is not the action's fault.
      if (t.signal.aborted) throw t.signal.reason;
      if (isApiError(e) && e.key !== 'SCRAPE_SITE_ERROR') throw e;
      throw actionError(index, action.type, e);
    }
  }
  return out;
}

export function actionError(index: number, type: string, e: unknown): ApiError {
  const reason = String((e as Error | undefined)?.message ?? e).split('\n')[0] ?? 'unknown error';
  return new ApiError('SCRAPE_ACTION_ERROR', {
    message: `Action ${index} (${type}) failed: ${reason}`,
    details: { index, type, reason },
  });
}

async function runOne(t: ActionTarget, a: Action, out: ActionOutput): Promise<void> {
  const { page } = t;
  switch (a.type) {
    case 'wait':
      if (a.selector !== undefined) await page.waitForSelector(a.selector, { state: 'visible', timeout: t.timeout() });
      else await sleep(a.milliseconds ?? 0, t.signal);
      return;
    case 'click':
      if (a.all) {
        const all = page.locator(a.selector);
        const n = await all.count();
        for (let i = 0; i < n; i++) await all.nth(i).click({ timeout: t.timeout() });
      } else {
        await page.locator(a.selector).first().click({ timeout: t.timeout() });
      }
      return;
    case 'write':
      // Typed key by key into whatever has focus, as a person would (input events fire per key).
      await page.keyboard.type(a.text);
      return;
    case 'press':
      await page.keyboard.press(a.key);
      return;
    case 'scroll':
      await scroll(t, a.direction, a.selector);
      return;
    case 'screenshot': {
      if (a.viewport) await page.setViewportSize(a.viewport);
      const jpeg = a.quality !== undefined;
      const data = await page.screenshot({
        type: jpeg ? 'jpeg' : 'png',
        ...(jpeg ? { quality: a.quality } : {}),
        fullPage: a.fullPage,
        timeout: t.timeout(),
      });
      out.screenshots.push({ data: checkSize(data, t.maxBytes), mime: jpeg ? 'image/jpeg' : 'image/png' });
      return;
    }
    case 'scrape':
      out.scrapes.push({ url: page.url(), html: await readBoundedHtml(page, t.maxBytes) });
      return;
    case 'executeJavascript':
      out.javascriptReturns.push(await evaluateScript(page, a.script, t.maxBytes));
      return;
    case 'pdf':
      out.pdfs.push(checkSize(await page.pdf({ format: a.format, landscape: a.landscape, scale: a.scale, printBackground: true }), t.maxBytes));
      return;
  }
}

async function scroll(t: ActionTarget, direction: 'up' | 'down', selector: string | undefined): Promise<void> {
  const sign = direction === 'up' ? -1 : 1;
  if (selector === undefined) {
    await t.page.evaluate((s) => window.scrollBy(0, s * window.innerHeight), sign);
    return;
  }
  const el = t.page.locator(selector).first();
  await el.waitFor({ state: 'attached', timeout: t.timeout() });
  // A scrollable element scrolls its own content; anything else is brought into view.
  await el.evaluate((node, s) => {
    const e = node as HTMLElement;
    if (e.scrollHeight > e.clientHeight + 1) e.scrollBy(0, s * e.clientHeight);
    else e.scrollIntoView({ block: s < 0 ? 'start' : 'end' });
  }, sign);
}

/**
 * A script runs as the body of an async function; when its last statement is an expression,
 * that expression's value is returned (so `document.title` and `return document.title` agree).
 * The script is only parsed here, never run, and a script that does not parse is passed on as
 * it is, so the error the caller sees is the JavaScript engine's own.
 */
export function wrapScript(script: string): string {
  const head = '(async () => {\n';
  const body = `${head}${script}\n})()`;
  let program: acorn.Program;
  try {
    // With parentheses kept as nodes, a parenthesised last expression (`(a, b)`) is returned
    // whole instead of being cut open inside its own parentheses.
    program = acorn.parse(body, { ecmaVersion: 'latest', sourceType: 'script', preserveParens: true });
  } catch {
    return body;
  }
  const call = (program.body[0] as acorn.ExpressionStatement | undefined)?.expression as acorn.CallExpression | undefined;
  const callee = call?.callee as acorn.ParenthesizedExpression | undefined;
  const fn = callee?.expression as acorn.ArrowFunctionExpression | undefined;
  const last = fn?.body.type === 'BlockStatement' ? fn.body.body.at(-1) : undefined;
  if (last?.type !== 'ExpressionStatement') return body;
  const { start, end } = last.expression;
  return `${body.slice(0, last.start)}return (${body.slice(start, end)});${body.slice(last.end)}`;
}

function checkSize(data: Buffer, maxBytes: number): Buffer {
  if (data.length > maxBytes) throw responseTooLarge(maxBytes);
  return data;
}

async function evaluateScript(page: Page, script: string, maxBytes: number): Promise<{ type: string; value: unknown }> {
  // The value comes back as JSON, measured in the page: a script cannot flood this process.
  const value: unknown = await evaluateInPage(page, wrapScript(script), { maxChars: maxBytes, json: true, tooLarge: () => responseTooLarge(maxBytes) });
  return { type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value, value: value ?? null };
}
