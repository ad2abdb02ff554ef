/**
 * Runs a caller's JavaScript inside QuickJS compiled to WebAssembly. Nothing of the host exists
 * in there: no `require`, `process`, file system, timers or sockets, by construction. The only
 * ways out are two functions this module installs — `__host(method, argsJson)` (a promise whose
 * answer is JSON text) and `__print(stream, text)` — so the caller's reach is exactly what the
 * host's method table grants. Each run gets a fresh WebAssembly instance with a memory limit, a
 * stack limit and an interrupt deadline, and the host stops waiting at the same deadline.
 */
import { newQuickJSWASMModule, type QuickJSContext, type QuickJSDeferredPromise, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten';
import { wrapScript } from '../../scrape/engines/browser/actions.js';

export interface SandboxLimits {
  timeoutMs: number;
  memoryBytes: number;
  /** stdout and stderr are each cut at this many characters. */
  maxOutputChars: number;
}

export interface SandboxHost {
  /** Performs one granted operation; plain JSON-able data in and out. */
  call(method: string, args: unknown[]): Promise<unknown>;
}

export interface SandboxResult {
  stdout: string;
  stderr: string;
  /** The code's value (its last expression or what it returned), as text. */
  result: string | undefined;
  /** What the run answers as `output` when it is not its stdout (a prompt's answer). */
  output?: string;
  exitCode: number;
  killed: boolean;
  truncated: boolean;
}

const STACK_BYTES = 512 * 1024;

/** stdout or stderr, cut at a number of characters. */
export class Output {
  text = '';
  truncated = false;
  constructor(private readonly max: number) {}
  write(s: string): void {
    if (this.text.length >= this.max) {
      this.truncated = true;
      return;
    }
    const room = this.max - this.text.length;
    if (s.length > room) this.truncated = true;
    this.text += s.slice(0, room);
  }
}

export async function runSandboxed(code: string, prelude: string, host: SandboxHost, limits: SandboxLimits): Promise<SandboxResult> {
  const stdout = new Output(limits.maxOutputChars);
  const stderr = new Output(limits.maxOutputChars);
  const deadline = Date.now() + limits.timeoutMs;
  let killed = false;
  const qjs = await newQuickJSWASMModule();
  const rt: QuickJSRuntime = qjs.newRuntime();
  rt.setMemoryLimit(limits.memoryBytes);
  rt.setMaxStackSize(STACK_BYTES);
  rt.setInterruptHandler(() => {
    if (Date.now() > deadline) killed = true;
    return killed;
  });
  const vm: QuickJSContext = rt.newContext();
  const pending = new Set<QuickJSDeferredPromise>();
  let finished = false;

  const finish = (r: Omit<SandboxResult, 'stdout' | 'stderr' | 'truncated' | 'killed'>): SandboxResult => ({
    ...r,
    stdout: stdout.text,
    stderr: stderr.text,
    killed,
    truncated: stdout.truncated || stderr.truncated,
  });

  try {
    vm.newFunction('__print', (stream, text) => {
      (vm.getNumber(stream) === 2 ? stderr : stdout).write(vm.getString(text));
    }).consume((fn) => vm.setProp(vm.global, '__print', fn));
    vm.newFunction('__host', (method, args) => {
      const deferred = vm.newPromise();
      pending.add(deferred);
      const name = vm.getString(method);
      let parsed: unknown[];
      try {
        parsed = JSON.parse(vm.getString(args)) as unknown[];
      } catch {
        parsed = [];
      }
      host.call(name, parsed).then(
        (value) => settle(deferred, () => vm.newString(JSON.stringify(value ?? null)), true),
        (e: unknown) => settle(deferred, () => vm.newError({ name: 'Error', message: errorText(e) }), false),
      );
      return deferred.handle;
    }).consume((fn) => vm.setProp(vm.global, '__host', fn));

    const settle = (deferred: QuickJSDeferredPromise, make: () => QuickJSHandle, ok: boolean) => {
      if (finished || !deferred.alive) return;
      const h = make();
      if (ok) deferred.resolve(h);
      else deferred.reject(h);
      h.dispose();
      pending.delete(deferred);
      deferred.dispose();
      rt.executePendingJobs();
    };

    const setup = vm.evalCode(prelude, 'prelude.js');
    if (setup.error) {
      const msg = vm.dump(setup.error);
      setup.error.dispose();
      throw new Error(`sandbox prelude failed: ${JSON.stringify(msg)}`);
    }
    setup.value.dispose();

    const evaluated = vm.evalCode(`__run(${wrapScript(code)})`, 'code.js');
    if (evaluated.error) {
      const err = describe(vm, evaluated.error);
      evaluated.error.dispose();
      stderr.write(err + '\n');
      return finish({ result: undefined, exitCode: killed ? 137 : 1 });
    }
    const settled = vm.resolvePromise(evaluated.value);
    evaluated.value.dispose();
    rt.executePendingJobs();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      settled,
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
      }),
    ]);
    clearTimeout(timer);
    if (outcome === 'timeout' || killed) {
      killed = true;
      stderr.write(`Killed: the code ran past its ${Math.round(limits.timeoutMs / 1000)} s limit\n`);
      return finish({ result: undefined, exitCode: 137 });
    }
    if (outcome.error) {
      const err = describe(vm, outcome.error);
      outcome.error.dispose();
      if (/out of memory/i.test(err)) killed = true;
      stderr.write(err + '\n');
      return finish({ result: undefined, exitCode: killed ? 137 : 1 });
    }
    const value: unknown = vm.dump(outcome.value);
    outcome.value.dispose();
    return finish({ result: value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value), exitCode: 0 });
  } catch (e) {
    if (/out of memory|interrupted/i.test(errorText(e))) killed = true;
    stderr.write(errorText(e) + '\n');
    return finish({ result: undefined, exitCode: killed ? 137 : 1 });
  } finally {
    finished = true;
    // A run cut short leaves objects alive inside the instance, which QuickJS would refuse to
    // free; the instance is then simply dropped whole for the garbage collector.
    if (!killed && pending.size === 0) {
      try {
        vm.dispose();
        rt.dispose();
      } catch {
        /* as above */
      }
    }
  }
}

function describe(vm: QuickJSContext, handle: QuickJSHandle): string {
  const e = vm.dump(handle) as { name?: string; message?: string; stack?: string } | string;
  if (typeof e === 'object' && e !== null) {
    const head = `${e.name ?? 'Error'}: ${e.message ?? ''}`;
    return e.stack ? `${head}\n${e.stack}`.trimEnd() : head;
  }
  return `Uncaught ${String(e)}`;
}

function errorText(e: unknown): string {
  return String((e as Error | undefined)?.message ?? e).split('\n')[0] ?? 'error';
}
