/**
 * Callers' JSON Schemas: checked once when a request comes in (a schema ajv cannot compile is a
 * 400 naming the field), compiled once per distinct schema, and used to check model output.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { JsonSchema } from './offline/fill.js';

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 500;

function compile(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let fn = compiled.get(key);
  if (!fn) {
    // A schema's own $id would collide with the same $id compiled before under another shape.
    const { $id: _id, $schema: _dialect, ...rest } = schema as Record<string, unknown>;
    fn = ajv.compile(rest);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, fn);
  }
  return fn;
}

/** Why `schema` is not a usable JSON Schema, or undefined when it is. */
export function schemaProblem(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'must be a JSON Schema object';
  const { $id: _id, $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  if (!ajv.validateSchema(rest)) return `is not a valid JSON Schema: ${ajv.errorsText(ajv.errors, { dataVar: 'schema' })}`;
  try {
    compile(schema);
  } catch (e) {
    return `is not a valid JSON Schema: ${(e as Error).message}`;
  }
  return undefined;
}

/** Schema errors of `value`, as readable lines; empty when it conforms. */
export function schemaErrors(schema: JsonSchema, value: unknown): string[] {
  const fn = compile(schema);
  if (fn(value)) return [];
  return (fn.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
}
