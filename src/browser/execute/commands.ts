/**
 * `language: "bash"` for a session: the `agent-browser` command vocabulary (`open <url>`,
 * `snapshot -i`, `click @e3`, `get text <sel>`...), one command a line, with shell-style quoting
 * and nothing else of a shell. There is no shell behind it: words are split and unquoted here,
 * and anything that would need a shell to mean something (pipes, redirections, `$(...)`,
 * variables, background jobs, other programs) is refused with a 400 naming what is supported.
 * `;` and `&&` separate commands as a newline does.
 */
import { ApiError } from '../../errors.js';

export type Flags = Record<string, string | true>;

export interface BrowserCommand {
  name: CommandName;
  /** Positional words after the command name (for `get`, after its field). */
  args: string[];
  flags: Flags;
  /** `get` only: which field. */
  field?: GetField;
  /** The command as written, for error messages. */
  source: string;
}

interface Spec {
  /** Positional arguments: fewest, most. */
  args: [number, number];
  /** Flags taken, each with whether it takes a value. */
  flags?: Record<string, boolean>;
  usage: string;
}

const GET_FIELDS = { text: 1, html: 1, value: 1, attr: 2, count: 1, title: 0, url: 0 } as const;
export type GetField = keyof typeof GET_FIELDS;

const SPECS = {
  open: { args: [1, 1], usage: 'open <url>' },
  back: { args: [0, 0], usage: 'back' },
  forward: { args: [0, 0], usage: 'forward' },
  reload: { args: [0, 0], usage: 'reload' },
  click: { args: [1, 1], usage: 'click <sel>' },
  dblclick: { args: [1, 1], usage: 'dblclick <sel>' },
  hover: { args: [1, 1], usage: 'hover <sel>' },
  focus: { args: [1, 1], usage: 'focus <sel>' },
  check: { args: [1, 1], usage: 'check <sel>' },
  uncheck: { args: [1, 1], usage: 'uncheck <sel>' },
  fill: { args: [2, 2], usage: 'fill <sel> <text>' },
  type: { args: [2, 2], usage: 'type <sel> <text>' },
  press: { args: [1, 1], usage: 'press <key>' },
  select: { args: [2, 2], usage: 'select <sel> <value>' },
  scroll: { args: [0, 2], flags: { selector: true }, usage: 'scroll [up|down|left|right] [px] [--selector <sel>]' },
  scrollintoview: { args: [1, 1], usage: 'scrollintoview <sel>' },
  wait: { args: [0, 1], flags: { load: true, url: true, text: true, fn: true }, usage: 'wait <ms|sel> | wait --load <state> | --url <pattern> | --text <text> | --fn <js>' },
  snapshot: { args: [0, 0], flags: { i: false, interactive: false, c: false, compact: false, d: true, depth: true, s: true, selector: true }, usage: 'snapshot [-i] [-c] [-d <depth>] [-s <sel>]' },
  screenshot: { args: [0, 1], flags: { full: false, f: false }, usage: 'screenshot [--full]' },
  get: { args: [1, 3], usage: 'get text|html|value|attr|count|title|url [<sel>] [<attr>]' },
  eval: { args: [1, 1], usage: 'eval <js>' },
} as const satisfies Record<string, Spec>;

export type CommandName = keyof typeof SPECS;

const ALIASES: Record<string, CommandName> = { goto: 'open', navigate: 'open', key: 'press' };

/** What the 400 names as supported. */
export const SUPPORTED_COMMANDS = Object.values(SPECS)
  .map((s) => s.usage)
  .join('; ');

type Token = { word: string } | { op: string };

class Unsupported extends Error {}

/** Characters that mean something to a shell outside quotes; only `;` and `&&` are taken. */
const SHELL_META = new Set(['|', '&', ';', '<', '>', '(', ')', '`']);

/**
 * Splits one line into words and `;`/`&&` separators, undoing quotes and backslashes the way a
 * POSIX shell does. Expansions are refused, never performed; glob characters stay literal.
 */
export function tokenize(line: string): Token[] {
  const out: Token[] = [];
  let word: string | undefined;
  const push = (c: string) => (word = (word ?? '') + c);
  const end = () => {
    if (word !== undefined) out.push({ word });
    word = undefined;
  };
  const expansion = (next: string | undefined) => next !== undefined && /[({A-Za-z_0-9@*#?$!-]/.test(next);
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\r') {
      end();
    } else if (c === '#' && word === undefined && (out.length === 0 || i + 1 === line.length || /\s/.test(line[i + 1]!))) {
      // A comment: at the start of a line, or `# ` after a command. Unlike a shell, `#id` after a
      // command is a word, as CSS selectors are so often written unquoted.
      break;
    } else if (c === '\\') {
      if (i + 1 < line.length) push(line[++i]!);
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) throw new Unsupported('unterminated single quote');
      push(line.slice(i + 1, close));
      i = close;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      for (; j < line.length && line[j] !== '"'; j++) {
        const d = line[j]!;
        if (d === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) text += line[++j];
        else if (d === '`' || (d === '$' && expansion(line[j + 1]))) throw new Unsupported(`shell expansion ('${d}') is not supported`);
        else text += d;
      }
      if (j >= line.length) throw new Unsupported('unterminated double quote');
      push(text);
      i = j;
    } else if (c === '$' && expansion(line[i + 1])) {
      throw new Unsupported("shell expansion ('$') is not supported");
    } else if (SHELL_META.has(c)) {
      end();
      if (c === ';') out.push({ op: ';' });
      else if (c === '&' && line[i + 1] === '&') {
        out.push({ op: '&&' });
        i++;
      } else throw new Unsupported(`'${c === '|' && line[i + 1] === '|' ? '||' : c}' (a shell operator) is not supported`);
    } else {
      push(c);
    }
  }
  end();
  return out;
}

/** Reads the words of one command into its name, positional arguments and flags. */
function toCommand(words: string[], source: string): BrowserCommand {
  if (words[0] === 'agent-browser') words = words.slice(1);
  const [first, ...rest] = words;
  if (first === undefined) throw new Unsupported('a bare agent-browser needs a command');
  const name = (Object.hasOwn(SPECS, first) ? first : ALIASES[first]) as CommandName | undefined;
  if (!name) throw new Unsupported(`'${first}' is not a supported command`);
  const spec: Spec = SPECS[name];
  const args: string[] = [];
  const flags: Flags = {};
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    const flag = /^--?([a-z][a-z-]*)$/.exec(w)?.[1];
    // Negative numbers (scroll up -200) are arguments, not flags.
    if (flag === undefined) {
      args.push(w);
      continue;
    }
    // A word that is not one of the command's options is an argument (text to fill, say).
    if (!spec.flags || !Object.hasOwn(spec.flags, flag)) {
      args.push(w);
      continue;
    }
    if (spec.flags[flag]) {
      const value = rest[++i];
      if (value === undefined) throw new Unsupported(`option '${w}' of ${name} needs a value (usage: ${spec.usage})`);
      flags[flag] = value;
    } else flags[flag] = true;
  }
  let field: GetField | undefined;
  if (name === 'get') {
    const f = args.shift() ?? '';
    if (!Object.hasOwn(GET_FIELDS, f)) throw new Unsupported(`get takes text, html, value, attr, count, title or url, not '${f}'`);
    field = f as GetField;
    if (args.length !== GET_FIELDS[field]) throw new Unsupported(`get ${field} takes ${GET_FIELDS[field]} argument(s) (usage: ${spec.usage})`);
  } else if (args.length < spec.args[0] || args.length > spec.args[1]) {
    throw new Unsupported(`wrong number of arguments to ${name} (usage: ${spec.usage})`);
  }
  if (name === 'wait' && args.length + Object.keys(flags).length !== 1) throw new Unsupported(`wait takes one of its forms (usage: ${spec.usage})`);
  return { name, args, flags, ...(field ? { field } : {}), source };
}

/**
 * Parses a script of commands; a 400 naming the line and what is supported when anything in it
 * is not one of them. Lines ending in a backslash continue on the next.
 */
export function parseCommands(code: string): BrowserCommand[] {
  const commands: BrowserCommand[] = [];
  const lines = code.replace(/\\\r?\n/g, ' ').split('\n');
  for (const [n, line] of lines.entries()) {
    try {
      let words: string[] = [];
      const flush = () => {
        if (words.length > 0) commands.push(toCommand(words, line.trim()));
        words = [];
      };
      for (const t of tokenize(line)) {
        if ('op' in t) flush();
        else words.push(t.word);
      }
      flush();
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
      throw new ApiError('UNSUPPORTED_OPTION', {
        message: `Line ${n + 1} is not a supported browser command: ${e.message}. language "bash" runs agent-browser commands against the session, one a line, with no shell: ${SUPPORTED_COMMANDS}`,
        details: [{ code: 'unsupported', path: ['code'], message: `line ${n + 1}: ${e.message}` }],
      });
    }
  }
  if (commands.length === 0) {
    throw new ApiError('UNSUPPORTED_OPTION', {
      message: `No browser command given. language "bash" runs agent-browser commands: ${SUPPORTED_COMMANDS}`,
      details: [{ code: 'unsupported', path: ['code'], message: 'no command' }],
    });
  }
  return commands;
}
