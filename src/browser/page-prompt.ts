/**
 * `prompt` on interact and on session execute: the model drives the live page through the
 * generic tool loop (llm/tool-loop.ts) with a small set of page tools, each one command of the
 * `agent-browser` vocabulary run by the command runner, so navigation passes the same SSRF
 * checks as code and every read is measured in the page. Bounded by the step limit and the
 * request's timeout; the outcome comes back in the execute result's shape: the model's answer
 * as `output` and `result`, the steps taken on stdout, why it stopped short on stderr.
 */
import { runToolLoop, type LoopResult, type LoopTool } from '../llm/tool-loop.js';
import type { ModelAccess, ModelCallScope } from '../llm/types.js';
import { runCommands } from './execute/command-runner.js';
import type { BrowserCommand, CommandName, GetField } from './execute/commands.js';
import type { BridgeDeps } from './execute/page-bridge.js';
import type { SandboxResult } from './execute/sandbox.js';

export const PROMPT_MAX_STEPS = 10;
/** Most characters of one step's result (or of the page's first view) the model is shown. */
const OBSERVATION_CHARS = 6_000;
const MAX_OUTPUT_CHARS = 64 * 1024;
const MAX_WAIT_MS = 5_000;

export type PageAgent = (d: BridgeDeps) => Promise<SandboxResult>;

const command = (name: CommandName, args: string[], field?: GetField, flags: BrowserCommand['flags'] = {}): BrowserCommand => ({
  name,
  args,
  flags,
  ...(field ? { field } : {}),
  source: [name, field, ...args].filter(Boolean).join(' '),
});

/** One command against the page: its printed output, or its error thrown. */
async function run(d: BridgeDeps, c: BrowserCommand): Promise<string> {
  const r = await runCommands([c], d, { timeoutMs: Math.max(1, d.remaining()), maxOutputChars: MAX_OUTPUT_CHARS });
  if (r.exitCode !== 0) throw new Error(r.stderr.trim() || `${c.source} failed`);
  return r.stdout.trim();
}

const target = { type: 'string', description: 'a CSS selector, or a reference like @e3 from the element list' };
const str = (v: unknown) => String(v);

function pageTools(d: BridgeDeps): LoopTool[] {
  const tool = (name: string, description: string, properties: Record<string, unknown>, required: string[], go: (a: Record<string, unknown>) => Promise<string>): LoopTool => ({
    name,
    description,
    parameters: { type: 'object', properties: properties as never, required },
    run: go,
  });
  const acted = (what: string) => async (p: Promise<string>) => (await p) || `${what}: done`;
  return [
    tool('click', 'Click an element.', { target }, ['target'], (a) => acted(`clicked ${str(a.target)}`)(run(d, command('click', [str(a.target)])))),
    tool('fill', 'Replace the value of an input or text area.', { target, text: { type: 'string' } }, ['target', 'text'], (a) => acted('filled')(run(d, command('fill', [str(a.target), str(a.text)])))),
    tool('type', 'Type text into an element key by key.', { target, text: { type: 'string' } }, ['target', 'text'], (a) => acted('typed')(run(d, command('type', [str(a.target), str(a.text)])))),
    tool('press', 'Press a key (Enter, Tab, ArrowDown...).', { key: { type: 'string' } }, ['key'], (a) => acted(`pressed ${str(a.key)}`)(run(d, command('press', [str(a.key)])))),
    tool('open', 'Go to a URL (http or https).', { url: { type: 'string' } }, ['url'], (a) => run(d, command('open', [str(a.url)]))),
    tool('scroll', 'Scroll the page.', { direction: { type: 'string', enum: ['up', 'down'] } }, ['direction'], (a) => acted('scrolled')(run(d, command('scroll', [str(a.direction)])))),
    tool('read', "Read the visible text of an element (the whole page when no target is given).", { target }, [], async (a) => (await run(d, command('get', [a.target === undefined ? 'body' : str(a.target)], 'text'))) || '(no text)'),
    tool('elements', 'List the interactive elements of the page, with references.', {}, [], async () => (await run(d, command('snapshot', [], undefined, { i: true }))) || '(none)'),
    tool('wait', `Wait a number of milliseconds (at most ${MAX_WAIT_MS}).`, { ms: { type: 'number' } }, ['ms'], (a) => acted('waited')(run(d, command('wait', [String(Math.max(0, Math.min(MAX_WAIT_MS, Math.round(Number(a.ms) || 0))))])))),
  ];
}

/** The page as the model first sees it: where it is, its text, and what can be acted on. */
async function observe(d: BridgeDeps): Promise<string> {
  const part = async (c: BrowserCommand) => run(d, c).catch((e: Error) => `(unavailable: ${e.message.split('\n')[0]})`);
  const title = await part(command('get', [], 'title'));
  const text = await part(command('get', ['body'], 'text'));
  const elements = await part(command('snapshot', [], undefined, { i: true }));
  return `URL: ${d.page.url()}\nTitle: ${title}\n\nText:\n${text.slice(0, OBSERVATION_CHARS / 2)}\n\nInteractive elements:\n${elements}`;
}

const STOPPED: Record<Exclude<LoopResult['status'], 'finished'>, string> = {
  'step-limit': `Stopped after ${PROMPT_MAX_STEPS} steps without reaching the goal`,
  deadline: 'Stopped at the request timeout before reaching the goal',
  'model-failed': 'Stopped: the model could not go on',
};

export function toExecuteResult(r: LoopResult): SandboxResult {
  const log = r.steps.map((s, i) => `${i + 1}. ${s.tool} ${JSON.stringify(s.args)}: ${s.ok ? 'ok' : 'failed'}${s.observation ? ` (${s.observation.split('\n')[0]!.slice(0, 200)})` : ''}`);
  const stopped = r.status === 'finished' ? '' : `${STOPPED[r.status]}${r.error ? `: ${r.error}` : ''}\n`;
  const answer = r.answer ?? undefined;
  return {
    stdout: log.length ? `${log.join('\n')}\n` : '',
    stderr: stopped,
    result: answer,
    output: answer ?? '',
    exitCode: r.status === 'finished' ? 0 : 1,
    killed: r.status === 'deadline',
    truncated: false,
  };
}

/** The agent that carries out `prompt` on a session's page, within `timeoutMs`. */
export function pagePrompt(model: ModelAccess, scope: Omit<ModelCallScope, 'deadline'>, prompt: string, timeoutMs: number): PageAgent {
  return async (d) => {
    const deadline = Date.now() + timeoutMs;
    const session = model.session({ ...scope, deadline });
    const result = await runToolLoop(session, { goal: prompt, tools: pageTools(d), observe: () => observe(d), maxSteps: PROMPT_MAX_STEPS, deadline, maxObservationChars: OBSERVATION_CHARS });
    return toExecuteResult(result);
  };
}
