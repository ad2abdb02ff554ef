/** A request field that failed validation, as the error envelope's `details` lists it. */
import type { z } from 'zod';

export interface FieldIssue {
  code: string;
  path: (string | number)[];
  message: string;
}

export const toFieldIssues = (issues: readonly z.core.$ZodIssue[]): FieldIssue[] =>
  issues.map((i) => ({ code: i.code, path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message }));
