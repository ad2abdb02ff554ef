/** Zod at the HTTP edge: route schemas validate bodies once and yield typed, defaulted values. */
import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { type FieldIssue, toFieldIssues } from '../core/field-issues.js';
import { ApiError, issuesCatalogKey } from '../errors.js';

export { type FieldIssue, toFieldIssues };

const MAX_NUL_ISSUES = 20;
const MAX_NUL_DEPTH = 32;

/**
 * Where a request holds a NUL character (U+0000), in a value or a key. No field of the interface
 * means anything by one, and PostgreSQL cannot store one in text, so it is refused at the edge
 * rather than failing deep inside a write.
 */
export function nulIssues(value: unknown): FieldIssue[] {
  const out: FieldIssue[] = [];
  // One path, extended and shortened as the walk goes: this runs on every request body.
  const path: (string | number)[] = [];
  const walk = (v: unknown): void => {
    // Deeper than any schema nests, the schema refuses the body anyway (and recursion must stop).
    if (out.length >= MAX_NUL_ISSUES || path.length > MAX_NUL_DEPTH) return;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) out.push({ code: 'invalid_string', path: [...path], message: 'Text may not contain NUL characters (U+0000)' });
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        walk(v[i]);
        path.pop();
      }
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        path.push(k);
        if (k.includes('\u0000')) out.push({ code: 'invalid_key', path: [...path], message: 'Keys may not contain NUL characters (U+0000)' });
        walk((v as Record<string, unknown>)[k]);
        path.pop();
      }
    }
  };
  walk(value);
  return out;
}

/** Fastify validator compiler for route schemas that are Zod types. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  return (data: unknown) => {
    // A missing JSON body arrives as undefined/null; validate it as an empty object so the
    // caller learns which fields are required.
    const input = httpPart === 'body' && (data === undefined || data === null) ? {} : data;
    const nul = nulIssues(input);
    if (nul.length > 0) return { error: new ApiError('BAD_REQUEST', { details: nul }) };
    const result = schema.safeParse(input);
    if (result.success) return { value: result.data };
    const issues = result.error.issues as readonly (z.core.$ZodIssue & { params?: unknown })[];
    return { error: new ApiError(issuesCatalogKey(issues) ?? 'BAD_REQUEST', { details: toFieldIssues(issues) }) };
  };
};
