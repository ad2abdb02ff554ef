/** Zod at the HTTP edge: route schemas validate bodies once and yield typed, defaulted values. */
import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { ApiError } from '../errors.js';

export interface FieldIssue {
  code: string;
  path: (string | number)[];
  message: string;
}

export const toFieldIssues = (issues: readonly z.core.$ZodIssue[]): FieldIssue[] =>
  issues.map((i) => ({ code: i.code, path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message }));

/** Fastify validator compiler for route schemas that are Zod types. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  return (data: unknown) => {
    // A missing JSON body arrives as undefined/null; validate it as an empty object so the
    // caller learns which fields are required.
    const input = httpPart === 'body' && (data === undefined || data === null) ? {} : data;
    const result = schema.safeParse(input);
    if (result.success) return { value: result.data };
    return { error: new ApiError('BAD_REQUEST', { details: toFieldIssues(result.error.issues) }) };
  };
};
