/**
 * The diff engine shared by monitors and the `changeTracking` format: a git-style unified diff
 * of two markdown versions (as text, and as the parse-diff AST the interface returns in
 * `diff.json`), and a field-by-field comparison of two JSON objects.
 */
import { isDeepStrictEqual } from 'node:util';
import { createTwoFilesPatch, structuredPatch } from 'diff';

export interface DiffChange {
  type: 'normal' | 'add' | 'del';
  content: string;
  normal?: true;
  add?: true;
  del?: true;
  ln?: number;
  ln1?: number;
  ln2?: number;
}

export interface DiffChunk {
  content: string;
  changes: DiffChange[];
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

export interface DiffFile {
  from: string | null;
  to: string | null;
  chunks: DiffChunk[];
  additions: number;
  deletions: number;
}

export interface GitDiff {
  text: string;
  json: { files: DiffFile[] };
}

const CONTEXT_LINES = 3;

/** Unified diff of the previous and current markdown of one page; both sides are named by URL. */
export function gitDiff(previous: string, current: string, name = 'page'): GitDiff {
  const a = ensureNewline(previous);
  const b = ensureNewline(current);
  const text = createTwoFilesPatch(`a/${name}`, `b/${name}`, a, b, undefined, undefined, { context: CONTEXT_LINES });
  const patch = structuredPatch(`a/${name}`, `b/${name}`, a, b, undefined, undefined, { context: CONTEXT_LINES });
  let additions = 0;
  let deletions = 0;
  const chunks: DiffChunk[] = patch.hunks.map((h) => {
    let oldLn = h.oldStart;
    let newLn = h.newStart;
    const changes: DiffChange[] = [];
    for (const line of h.lines) {
      if (line.startsWith('\\')) continue; // "\ No newline at end of file"
      if (line.startsWith('+')) {
        additions++;
        changes.push({ type: 'add', add: true, ln: newLn++, content: line });
      } else if (line.startsWith('-')) {
        deletions++;
        changes.push({ type: 'del', del: true, ln: oldLn++, content: line });
      } else {
        changes.push({ type: 'normal', normal: true, ln1: oldLn++, ln2: newLn++, content: line });
      }
    }
    return {
      content: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
      changes,
      oldStart: h.oldStart,
      oldLines: h.oldLines,
      newStart: h.newStart,
      newLines: h.newLines,
    };
  });
  return { text, json: { files: [{ from: `a/${name}`, to: `b/${name}`, chunks, additions, deletions }] } };
}

function ensureNewline(s: string): string {
  return s.endsWith('\n') ? s : `${s}\n`;
}

export type JsonFieldDiff = Record<string, { previous: unknown; current: unknown }>;

/**
 * Fields whose values differ between two JSON objects, as `{field: {previous, current}}`.
 * With a JSON Schema, only its top-level properties are compared (extra keys a page grew do not
 * count); without one, every key of either side.
 */
export function jsonFieldDiff(previous: unknown, current: unknown, schema?: unknown): JsonFieldDiff {
  const prev = isRecord(previous) ? previous : {};
  const cur = isRecord(current) ? current : {};
  const props = isRecord(schema) && isRecord(schema.properties) ? Object.keys(schema.properties) : undefined;
  const keys = props ?? [...new Set([...Object.keys(prev), ...Object.keys(cur)])];
  const out: JsonFieldDiff = {};
  for (const k of keys) {
    const p = prev[k] ?? null;
    const c = cur[k] ?? null;
    if (!isDeepStrictEqual(p, c)) out[k] = { previous: p, current: c };
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
