import { describe, expect, it } from 'vitest';
import { prelude } from './prelude.js';
import { runSandboxed, type SandboxHost } from './sandbox.js';

const limits = { timeoutMs: 2000, memoryBytes: 32 * 1024 * 1024, maxOutputChars: 10_000 };
const calls: [string, unknown[]][] = [];
const host: SandboxHost = {
  call: async (method, args) => {
    calls.push([method, args]);
    if (method === 'title') return { v: 'Fixture title', u: 'http://site.test/after' };
    throw new Error(`page.${method} is not available in this sandbox`);
  },
};
const run = (code: string, l = limits) => runSandboxed(code, prelude('http://site.test/'), host, l);

describe('sandbox', () => {
  it('prints console output, returns the last expression, and reaches the page only through the host', async () => {
    const r = await run('console.log("hi", {a: 1}); console.error("oops"); const t = await page.title(); [t, page.url()]');
    expect(r).toMatchObject({ stdout: 'hi {"a":1}\n', stderr: 'oops\n', exitCode: 0, killed: false, truncated: false });
    expect(JSON.parse(r.result!)).toEqual(['Fixture title', 'http://site.test/after']);
    expect(calls.at(-1)).toEqual(['title', []]);
  });

  it('takes a function body with return, and reports a throw with exit code 1', async () => {
    expect((await run('const x = 2;\nreturn x * 21;')).result).toBe('42');
    const r = await run('throw new TypeError("bad")');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('TypeError: bad');
  });

  it.each([
    ['require', 'require("fs").readFileSync("/etc/passwd", "utf8")'],
    ['process.env', 'JSON.stringify(process.env)'],
    ['child process', 'require("child_process").execSync("id")'],
    ['dynamic import', 'await import("node:fs")'],
    ['fetch to redis', 'await fetch("http://127.0.0.1:6379")'],
    ['Function constructor', '(function(){}).constructor("return process")().env'],
    ['host bridge', '__host("goto", "[]")'],
  ])('has no way out: %s', async (_name, code) => {
    const r = await run(code);
    expect(r.exitCode).toBe(1);
    expect(r.result).toBeUndefined();
    expect(r.stderr).toMatch(/ReferenceError|TypeError|Error/);
    expect(r.stdout).not.toContain('root:');
  });

  it('refuses page methods outside the granted table', async () => {
    const r = await run('await page.exposeFunction ? 1 : await page.setInputFiles("input", "/etc/passwd")');
    expect(r.exitCode).toBe(1);
    expect(calls.some(([m]) => m === 'setInputFiles')).toBe(false);
  });

  it('kills a busy loop at the deadline', async () => {
    const r = await run('while (true) {}', { ...limits, timeoutMs: 300 });
    expect(r.killed).toBe(true);
    expect(r.exitCode).toBe(137);
  });

  it('kills code that eats memory', async () => {
    const r = await run("const a = []; for (;;) a.push(new Uint8Array(1 << 20));", { ...limits, timeoutMs: 20_000 });
    expect(r.killed).toBe(true);
    expect(r.stderr).toMatch(/out of memory/i);
  });

  it('cuts long output and says so', async () => {
    const r = await run('for (let i = 0; i < 10000; i++) console.log("line " + i)', { ...limits, maxOutputChars: 100 });
    expect(r.stdout.length).toBe(100);
    expect(r.truncated).toBe(true);
  });
});
