/**
 * An `executeJavascript` script is either a plain expression (its value is the result) or a
 * function body with a top-level `return`. Both forms, and their mixtures, must compile and
 * give the value the caller meant.
 */
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { wrapScript } from './actions.js';

async function run(script: string): Promise<unknown> {
  const appended: string[] = [];
  const document = { title: 'T', body: { append: (x: string) => void appended.push(x) } };
  const value: unknown = await vm.runInNewContext(wrapScript(script), { document });
  return { value, appended };
}

describe('wrapScript', () => {
  it('returns the value of a parenthesised sequence expression', async () => {
    expect(await run("(document.body.append('x'), 6 * 7)")).toEqual({ value: 42, appended: ['x'] });
  });

  it('returns the value of a plain expression, with or without a semicolon', async () => {
    expect(await run('document.title')).toEqual({ value: 'T', appended: [] });
    expect(await run('6 * 7;')).toEqual({ value: 42, appended: [] });
    expect(await run('(6) * (7)')).toEqual({ value: 42, appended: [] });
    expect(await run('const n = 6;\n(n * 7)')).toEqual({ value: 42, appended: [] });
  });

  it('keeps a body with a top-level return as it is', async () => {
    expect(await run('const n = 6; return n * 7;')).toEqual({ value: 42, appended: [] });
    expect(await run("if (document.title === 'T') return 'yes'; return 'no';")).toEqual({ value: 'yes', appended: [] });
  });

  it('awaits a promise the script ends with', async () => {
    expect(await run('await Promise.resolve(7)')).toEqual({ value: 7, appended: [] });
  });

  it('returns undefined for a script that ends with a declaration', async () => {
    expect(await run('const n = 1;')).toEqual({ value: undefined, appended: [] });
  });
});
