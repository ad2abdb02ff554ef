/**
 * The layout as a specification: modules import each other without circles, between files and
 * between folders; a feature folder never reaches up into the HTTP layer or the process
 * assembly (runtime, workers, the CLI); and no file grows past a size one can read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const MAX_LINES = 600;

/** The assembly of a process, above every feature folder (and `http/`, the API layer). */
const ASSEMBLY = new Set(['http', 'runtime', 'accounts-runtime', 'workers', 'main', 'accounts-cli', 'startup']);

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** A file's top-level folder under src/, or its own name for a file at the top. */
const folderOf = (f: string) => path.relative(ROOT, f).split(path.sep)[0]!.replace(/\.ts$/, '');

const IMPORT = /^(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'|^import\s+'(\.[^']+)'/gm;

/** Each module's imports of other modules under src/ (type-only imports included). */
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

describe('the source tree', () => {
  const all = tsFiles(ROOT);
  const files = all.filter((f) => !f.endsWith('.test.ts'));
  const graph = importGraph(files);
  const rel = (f: string) => path.relative(ROOT, f);

  it('has no import circle between files', () => {
    expect(circles(graph).map((c) => c.map(rel).join(' -> '))).toEqual([]);
  });

  it('has no import circle between folders', () => {
    const folders = new Map<string, string[]>();
    for (const [f, deps] of graph) {
      const from = folderOf(f);
      const to = folders.get(from) ?? [];
      for (const d of deps) if (folderOf(d) !== from && !to.includes(folderOf(d))) to.push(folderOf(d));
      folders.set(from, to);
    }
    expect(circles(folders).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('keeps feature folders from importing the HTTP layer or the process assembly', () => {
    const upward = [...graph].flatMap(([f, deps]) =>
      ASSEMBLY.has(folderOf(f)) ? [] : deps.filter((d) => ASSEMBLY.has(folderOf(d))).map((d) => `${rel(f)} -> ${rel(d)}`),
    );
    expect(upward).toEqual([]);
  });

  it(`has no file over ${MAX_LINES} lines, tests included`, () => {
    const long = all
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
