/**
 * Runs parsed `agent-browser` commands against a session's page, one after another, stopping at
 * the first that fails (exit code 1, its error on stderr) or at the deadline (killed, 137).
 * Each command's output is a line of stdout; the last one's is also `result`. Navigation passes
 * the same checks as `page.goto` from code, and reads from the page are measured in the page.
 */
import type { Locator, Page } from 'playwright-core';
import { ApiError } from '../../errors.js';
import { wrapScript } from '../../scrape/engines/browser/actions.js';
import { evaluateInPage, evaluateOnElement } from '../../scrape/engines/browser/bounded-read.js';
import type { BrowserCommand } from './commands.js';
import { bounded, READ, timeoutOf, type BridgeDeps } from './page-bridge.js';
import { Output, type SandboxLimits, type SandboxResult } from './sandbox.js';

const DEFAULT_SCROLL_PX = 500;
/**
 * How long one command waits for its element, load state or condition: a selector that
 * matches nothing fails as that command, well before the whole run's deadline.
 */
const COMMAND_TIMEOUT_MS = 10_000;
const MAX_WAIT_MS = 300_000;
const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem',
]);

class DeadlinePassed extends Error {}

const commandTimeout = (d: BridgeDeps) => Math.min(COMMAND_TIMEOUT_MS, timeoutOf(undefined, d));

/** `@e3` and `ref=e3` name an element of the last snapshot; anything else is a selector. */
function locate(page: Page, sel: string): Locator {
  const ref = /^(?:@|ref=)(f?\d*e\d+)$/.exec(sel)?.[1];
  return ref ? page.getByRef(ref) : page.locator(sel).first();
}

/** `example.com` means `https://example.com`, as agent-browser takes it. */
const withScheme = (url: string) => (/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`);

/** Commands that act print nothing, as agent-browser's actions print no value. */
const quiet = async (p: Promise<unknown>): Promise<string> => {
  await p;
  return '';
};

const show = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

async function snapshot(d: BridgeDeps, c: BrowserCommand): Promise<string> {
  const { page } = d;
  // The tree's text is the page's text; a page too large to read back is too large to snapshot.
  const size = (await evaluateInPage(page, 'document.documentElement ? document.documentElement.outerHTML.length : 0', bounded(d, true))) as number;
  if (size > d.maxValueChars) throw bounded(d, false).tooLarge(size);
  const scope = (c.flags.s ?? c.flags.selector) as string | undefined;
  const depth = Number(c.flags.d ?? c.flags.depth);
  const opts = { mode: 'ai' as const, timeout: commandTimeout(d), ...(Number.isInteger(depth) && depth > 0 ? { depth } : {}) };
  const tree = scope ? await page.locator(scope).first().ariaSnapshot(opts) : await page.ariaSnapshot(opts);
  let lines = tree.split('\n');
  if (c.flags.i || c.flags.interactive) {
    lines = lines
      .map((l) => l.trim())
      .filter((l) => /\[ref=/.test(l) && INTERACTIVE_ROLES.has(/^- ([a-z]+)/.exec(l)?.[1] ?? ''))
      .map((l) => l.replace(/:$/, ''));
  } else if (c.flags.c || c.flags.compact) {
    // Unnamed wrappers carry no meaning of their own.
    lines = lines.filter((l) => !/^\s*- generic \[ref=[^\]]+\]:$/.test(l));
  }
  return lines.join('\n');
}

async function get(d: BridgeDeps, c: BrowserCommand): Promise<string> {
  const { page } = d;
  const [sel, attr] = c.args;
  const read = (fn: string, arg?: unknown) => evaluateOnElement(locate(page, sel!), fn, arg, { ...bounded(d, false), timeout: commandTimeout(d) });
  switch (c.field) {
    case 'text':
      return show(await read(READ.innerText));
    case 'html':
      return show(await read(READ.innerHTML));
    case 'value':
      return show(await read(READ.inputValue));
    case 'attr':
      return show(await read(READ.getAttribute, attr));
    case 'count':
      return String(await page.locator(sel!).count());
    case 'title':
      return show(await evaluateInPage(page, 'document.title', bounded(d, false)));
    default:
      return page.url();
  }
}

async function scroll(d: BridgeDeps, c: BrowserCommand): Promise<void> {
  const [dir = 'down', px] = c.args;
  if (!['up', 'down', 'left', 'right'].includes(dir)) throw new Error(`scroll direction must be up, down, left or right, not '${dir}'`);
  const amount = px === undefined ? DEFAULT_SCROLL_PX : Number(px);
  if (!Number.isFinite(amount)) throw new Error(`scroll amount must be a number of pixels, not '${px}'`);
  const dx = dir === 'left' ? -amount : dir === 'right' ? amount : 0;
  const dy = dir === 'up' ? -amount : dir === 'down' ? amount : 0;
  const sel = c.flags.selector as string | undefined;
  if (sel) await locate(d.page, sel).evaluate((el, [x, y]) => el.scrollBy(x!, y!), [dx, dy], { timeout: commandTimeout(d) });
  else await d.page.evaluate(([x, y]) => window.scrollBy(x!, y!), [dx, dy]);
}

async function wait(d: BridgeDeps, c: BrowserCommand): Promise<void> {
  const { page } = d;
  // Waiting is what was asked for: a wait may take the run's whole time.
  const timeout = timeoutOf(undefined, d);
  const { load, url, text, fn } = c.flags;
  if (typeof load === 'string') {
    if (load !== 'load' && load !== 'domcontentloaded' && load !== 'networkidle') throw new Error(`--load takes load, domcontentloaded or networkidle, not '${load}'`);
    return page.waitForLoadState(load, { timeout });
  }
  if (typeof url === 'string') return page.waitForURL(url, { timeout });
  if (typeof text === 'string') return page.getByText(text).first().waitFor({ state: 'visible', timeout });
  if (typeof fn === 'string') return void (await (await page.waitForFunction(fn, null, { timeout })).dispose());
  const target = c.args[0]!;
  if (/^\d+$/.test(target)) return page.waitForTimeout(Math.min(Number(target), MAX_WAIT_MS, d.remaining()));
  await locate(page, target).waitFor({ state: 'visible', timeout });
}

/** Runs one command; answers what it prints. */
async function runOne(d: BridgeDeps, c: BrowserCommand): Promise<string> {
  const { page } = d;
  const t = () => ({ timeout: commandTimeout(d) });
  // A page may take the run's whole time to load.
  const nav = () => ({ timeout: timeoutOf(undefined, d) });
  const el = () => locate(page, c.args[0]!);
  switch (c.name) {
    case 'open': {
      const url = withScheme(c.args[0]!);
      await d.checkNavigation(url);
      await page.goto(url, { ...nav(), waitUntil: 'load' });
      return `${show(await evaluateInPage(page, 'document.title', bounded(d, false)))}\n${page.url()}`;
    }
    case 'back':
      return quiet(page.goBack(nav()));
    case 'forward':
      return quiet(page.goForward(nav()));
    case 'reload':
      return quiet(page.reload(nav()));
    case 'click':
      return quiet(el().click(t()));
    case 'dblclick':
      return quiet(el().dblclick(t()));
    case 'hover':
      return quiet(el().hover(t()));
    case 'focus':
      return quiet(el().focus(t()));
    case 'check':
      return quiet(el().check(t()));
    case 'uncheck':
      return quiet(el().uncheck(t()));
    case 'fill':
      return quiet(el().fill(c.args[1]!, t()));
    case 'type':
      return quiet(el().pressSequentially(c.args[1]!, t()));
    case 'press':
      return quiet(page.keyboard.press(c.args[0]!));
    case 'select':
      return quiet(el().selectOption(c.args[1]!, t()));
    case 'scroll':
      return quiet(scroll(d, c));
    case 'scrollintoview':
      return quiet(el().scrollIntoViewIfNeeded(t()));
    case 'wait':
      return quiet(wait(d, c));
    case 'snapshot':
      return snapshot(d, c);
    case 'screenshot': {
      // A path names a file on the caller's machine; here the shot is a signed link instead.
      const data = await page.screenshot({ ...t(), fullPage: c.flags.full === true || c.flags.f === true, type: 'png' });
      return d.saveFile(data, 'image/png');
    }
    case 'get':
      return get(d, c);
    case 'eval':
      return show(await evaluateInPage(page, wrapScript(c.args[0]!), bounded(d, true)));
  }
}

export async function runCommands(commands: readonly BrowserCommand[], d: BridgeDeps, limits: Omit<SandboxLimits, 'memoryBytes'>): Promise<SandboxResult> {
  const stdout = new Output(limits.maxOutputChars);
  const stderr = new Output(limits.maxOutputChars);
  const finish = (exitCode: number, killed: boolean, result?: string): SandboxResult => ({
    stdout: stdout.text,
    stderr: stderr.text,
    result,
    exitCode,
    killed,
    truncated: stdout.truncated || stderr.truncated,
  });
  let last: string | undefined;
  for (const c of commands) {
    let timer: NodeJS.Timeout | undefined;
    try {
      if (d.remaining() <= 0) throw new DeadlinePassed();
      const out = await Promise.race([
        runOne(d, c),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new DeadlinePassed()), Math.max(0, d.remaining()));
        }),
      ]);
      last = out;
      if (out) stdout.write(`${out}\n`);
    } catch (e) {
      if (e instanceof DeadlinePassed) {
        stderr.write(`Killed: the commands ran past their ${Math.round(limits.timeoutMs / 1000)} s limit (at: ${c.source})\n`);
        return finish(137, true);
      }
      const message = String((e as Error | undefined)?.message ?? e).split('\n')[0];
      stderr.write(`${c.source}: ${e instanceof ApiError ? message : `Error: ${message}`}\n`);
      return finish(1, false);
    } finally {
      clearTimeout(timer);
    }
  }
  return finish(0, false, last || undefined);
}
