/**
 * The transform's layout as a specification: its modules import each other without circles, and
 * none of its source files grows past a size one can read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const MAX_LINES = 600;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const IMPORT = /^(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'|^import\s+'(\.[^']+)'/gm;

/** Each module's imports of other modules in the folder (type-only imports included). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const deps: string[] = [];
    for (const m of fs.readFileSync(f, 'utf8').matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(f), (m[1] ?? m[2])!).replace(/\.js$/, '.ts');
      if (files.includes(target)) deps.push(target);
    }
    graph.set(f, deps);
  }
  return graph;
}

/** The circles of a graph: a path back to where it started, for each module on one. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 1 | 2>();
  const trail: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 1);
    trail.push(n);
    for (const d of graph.get(n) ?? []) {
      if (state.get(d) === 1) found.push([...trail.slice(trail.indexOf(d)), d]);
      else if (state.get(d) === undefined) visit(d);
    }
    trail.pop();
    state.set(n, 2);
  };
  for (const n of graph.keys()) if (state.get(n) === undefined) visit(n);
  return found;
}

describe('the transform folder', () => {
  const files = sourceFiles(ROOT);
  const rel = (f: string) => path.relative(ROOT, f);

  it('has no import circle', () => {
    expect(circles(importGraph(files)).map((c) => c.map(rel).join(' -> '))).toEqual([]);
  });

  it(`has no source file over ${MAX_LINES} lines`, () => {
    const long = files
      .map((f) => ({ file: rel(f), lines: fs.readFileSync(f, 'utf8').split('\n').length }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circles(g)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
