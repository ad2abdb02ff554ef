/**
 * How deep a request body may nest. Parsing a deep body is cheap, but the code after it (schema
 * validation, copies, serialisation) walks values recursively: a body nested 5,000 levels deep
 * in a member no schema reads overflowed the stack and answered 500. No field of the interface
 * nests anywhere near this bound (a JSON schema for `json` output is the deepest), so a deeper
 * body is refused at the parser with a 400 naming where.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import type { FieldIssue } from './validation.js';

export const MAX_JSON_DEPTH = 64;

/** Path segments shown in the issue: enough to find the member, not the whole descent. */
const SHOWN_SEGMENTS = 6;

interface Frame {
  value: unknown;
  depth: number;
  key: string | number | undefined;
  parent: Frame | undefined;
}

/** Where `value` nests deeper than `max` objects/arrays, or undefined. Iterative: no recursion. */
export function depthIssue(value: unknown, max = MAX_JSON_DEPTH): FieldIssue | undefined {
  const stack: Frame[] = [{ value, depth: 0, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.value === null || typeof f.value !== 'object') continue;
    const depth = f.depth + 1;
    if (depth > max) return tooDeep(f, max);
    if (Array.isArray(f.value)) {
      for (let i = f.value.length - 1; i >= 0; i--) stack.push({ value: f.value[i], depth, key: i, parent: f });
    } else {
      for (const [k, v] of Object.entries(f.value)) stack.push({ value: v, depth, key: k, parent: f });
    }
  }
  return undefined;
}

function tooDeep(f: Frame, max: number): FieldIssue {
  const path: (string | number)[] = [];
  for (let at: Frame | undefined = f; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  const shown = path.slice(0, SHOWN_SEGMENTS);
  return { code: 'too_deep', path: shown, message: `Nested more than ${max} levels deep${path.length > shown.length ? ` (below ${shown.join('.')})` : ''}` };
}

/** Refuses a too-deep value with the catalog's 400; `prefix` places it inside the request. */
export function assertShallow(value: unknown, prefix: (string | number)[] = []): void {
  const issue = depthIssue(value);
  if (issue) throw new ApiError('BAD_REQUEST', { message: `Bad Request: the body nests more than ${MAX_JSON_DEPTH} levels deep`, details: [{ ...issue, path: [...prefix, ...issue.path] }] });
}

/** JSON bodies: Fastify's own parser (prototype-poisoning checks included), then the depth bound. */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    parse(req, body as string, (err, value) => {
      if (err) return done(err, undefined);
      try {
        assertShallow(value);
      } catch (e) {
        return done(e as Error, undefined);
      }
      done(null, value);
    });
  });
}
