/**
 * The include/exclude path patterns of a crawl: written as JavaScript regular expressions, run on
 * a linear-time engine (RE2, in its JavaScript port).
 *
 * A user's pattern is tested against every discovered link on the event loop. On a backtracking
 * engine `(a+)+$` or `(a+)+(?=b)` against `/aaaa…a!` costs double per character: a page of such
 * links stalls the whole process, and a stored job with one stalls it again after a restart.
 * RE2 matches in time linear in the pattern and the input whatever the pattern, so the whole URL
 * is judged, however long.
 *
 * RE2 cannot run what needs backtracking: lookaheads and backreferences. Such patterns are
 * refused with a reason rather than run differently. Lookbehinds without captures have a
 * linear-time implementation and are allowed. Repeat counts are bounded at 1000, as in RE2.
 */
import { RE2JS } from 're2js';
import { ApiError } from '../errors.js';
import type { FieldIssue } from '../core/field-issues.js';

export interface PathPattern {
  readonly source: string;
  test(input: string): boolean;
}

// A backslash-digit or `\k<name>` not itself escaped. RE2's translation would read `\k<p>` as a
// literal `k<p>`, so backreferences are caught before it.
const BACKREFERENCE = /(?<!\\)(?:\\\\)*\\(?:[1-9]|k<)/;
// `(?=` or `(?!` at a group opening not itself escaped, outside a character class.
const LOOKAHEAD = /(?<!\\)(?:\\\\)*\(\?[=!]/;

type Compiled = { ok: true; pattern: PathPattern } | { ok: false; reason: string };

function compile(source: string): Compiled {
  try {
    // The pattern's meaning is JavaScript's: what JavaScript refuses is refused, whatever RE2 says.
    new RegExp(source);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  if (BACKREFERENCE.test(source)) return { ok: false, reason: 'Backreferences are not supported in path patterns: they cannot be matched in linear time' };
  if (LOOKAHEAD.test(withoutClasses(source))) {
    return { ok: false, reason: 'Lookahead assertions ((?=…), (?!…)) are not supported in path patterns: they cannot be matched in linear time' };
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(source), RE2JS.LOOKBEHINDS);
  } catch (e) {
    return { ok: false, reason: `Not supported in path patterns (${(e as Error).message.replace(/^error parsing regexp: /, '')})` };
  }
  return { ok: true, pattern: { source, test: (input) => re.test(input) } };
}

/** `[(?=]` is a class of three characters, not a lookahead: blank out class contents first. */
function withoutClasses(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += inClass ? '__' : source.slice(i, i + 2);
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c === ']' ? c : '_';
    } else {
      if (c === '[') inClass = true;
      out += c;
    }
  }
  return out;
}

/** Why a user's path pattern is refused (naming it), or undefined when it can be used. */
export function patternError(source: string): string | undefined {
  const c = compile(source);
  return c.ok ? undefined : `${JSON.stringify(source)}: ${c.reason}`;
}

/**
 * Compiles include/exclude patterns, or throws the catalog's 400 with one issue per bad pattern
 * (path `[field, index]`, the pattern and why), so a route can refuse them up front.
 */
export function compilePatterns(patterns: readonly string[] | undefined, field: string): PathPattern[] {
  const out: PathPattern[] = [];
  const issues: FieldIssue[] = [];
  (patterns ?? []).forEach((p, i) => {
    const c = compile(p);
    if (c.ok) out.push(c.pattern);
    else issues.push({ code: 'invalid_regex', path: [field, i], message: `${JSON.stringify(p)}: ${c.reason}` });
  });
  if (issues.length > 0) throw new ApiError('BAD_REQUEST', { details: issues });
  return out;
}
