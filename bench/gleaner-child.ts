/**
 * A Gleaner server in a child process of its own, as it is deployed: benches measure it without
 * sharing a thread with their own client and fixture servers, and read its peak RSS alone.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A `kB` field (VmHWM, VmRSS) of /proc/<pid>/status, or undefined when unreadable. */
export function procStatusKb(pid: number | 'self', field: string): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** User + system CPU milliseconds in a /proc `stat` file's text; USER_HZ is 100 on Linux. */
function statCpuMs(stat: string): number {
  // The command name (field 2) may hold spaces; the fields after it are plain numbers.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU seconds a process (every thread of it) has used so far, or undefined off Linux. */
export function procCpuSeconds(pid: number | 'self'): number | undefined {
  try {
    return statCpuMs(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')) / 1000;
  } catch {
    return undefined;
  }
}

/**
 * CPU milliseconds a thread has run, from the scheduler's nanosecond count when the kernel keeps
 * it, else from `stat`'s 10 ms ticks (too coarse for phases of a few dozen milliseconds).
 */
function taskCpuMs(dir: string): number {
  try {
    const ns = Number(fs.readFileSync(`${dir}/schedstat`, 'utf8').split(' ')[0]);
    if (ns > 0) return ns / 1e6;
  } catch {
    /* no schedstat in this kernel */
  }
  return statCpuMs(fs.readFileSync(`${dir}/stat`, 'utf8'));
}

/** CPU milliseconds used so far by each thread of a process, by thread id (Linux only). */
export function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) out.set(tid, taskCpuMs(`/proc/${pid}/task/${tid}`));
  } catch {
    /* not Linux, or the process is gone */
  }
  return out;
}

/** Keeps the last few KB a stream wrote, for error messages. */
export function tail(stream: NodeJS.ReadableStream | null, onLine?: (line: string) => void): () => string {
  let buf = '';
  let partial = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    buf = (buf + chunk).slice(-4096);
    if (!onLine) return;
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) onLine(l);
  });
  return () => buf;
}

export function waitExit(child: ChildProcess, ms: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
    }, ms);
    child.once('exit', (code) => {
      clearTimeout(t);
      resolve(code);
    });
  });
}

export interface GleanerChild {
  url: string;
  key: string;
  pid: number;
  /** Peak RSS (VmHWM) in kB, read just before SIGTERM; waits for the process to exit. */
  stop(): Promise<{ peakRssKb: number | undefined }>;
  output(): string;
}

/** The built server, rebuilt first when a source file is newer: benches measure what is deployed. */
function builtEntry(root = REPO_ROOT): string {
  const entry = path.join(root, 'dist', 'main.js');
  const newest = (dir: string): number =>
    fs.readdirSync(dir, { withFileTypes: true, recursive: true }).reduce((m, d) => (d.isFile() ? Math.max(m, fs.statSync(path.join(d.parentPath, d.name)).mtimeMs) : m), 0);
  if (!fs.existsSync(entry) || newest(path.join(root, 'src')) > fs.statSync(entry).mtimeMs) {
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  }
  return entry;
}

export interface GleanerChildOptions {
  concurrency: number;
  cpuProfDir?: string | undefined;
  env?: Record<string, string>;
  /** What node runs instead of the built `serve` (a bench's own entry); it prints the same "listening" line. */
  entry?: string[];
  /** Another checkout to run instead of this one (its own build), for before/after figures. */
  root?: string;
}

export async function startGleanerChild(opts: GleanerChildOptions): Promise<GleanerChild> {
  const root = opts.root ?? REPO_ROOT;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-bench-'));
  const key = `fc-bench-${randomBytes(16).toString('hex')}`;
  const nodeArgs = [...(opts.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfDir}`] : []), ...(opts.entry ?? [builtEntry(root), 'serve'])];
  const child = spawn(process.execPath, nodeArgs, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      GLEANER_API_KEY: key,
      ALLOW_PRIVATE_ADDRESSES: '127.0.0.0/8',
      LOG_LEVEL: 'warn',
      DISABLE_BROWSER: 'true',
      RATE_LIMIT_PER_MINUTE: '1000000',
      WORKER_CONCURRENCY: String(opts.concurrency),
      DATABASE_URL: '',
      REDIS_URL: '',
      ...opts.env,
    },
  });
  const cleanup = () => fs.rmSync(dataDir, { recursive: true, force: true });
  let onListening: ((url: string) => void) | undefined;
  const stdout = tail(child.stdout, (line) => {
    const m = /Gleaner listening on (http:\/\/\S+)/.exec(line);
    if (m) onListening?.(m[1]!);
  });
  const stderr = tail(child.stderr);
  const output = () => `${stdout()}\n${stderr()}`.trim();
  let url: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`Gleaner did not start within 60 s:\n${output()}`)), 60_000);
      onListening = (u) => {
        clearTimeout(t);
        resolve(u);
      };
      child.once('exit', (code) => {
        clearTimeout(t);
        reject(new Error(`Gleaner exited with code ${code} before listening:\n${output()}`));
      });
    });
  } catch (e) {
    child.kill('SIGKILL');
    await waitExit(child, 5_000);
    cleanup();
    throw e;
  }
  child.removeAllListeners('exit');
  return {
    url,
    key,
    pid: child.pid!,
    output,
    async stop() {
      const peakRssKb = procStatusKb(child.pid!, 'VmHWM');
      child.kill('SIGTERM');
      await waitExit(child, 40_000);
      cleanup();
      return { peakRssKb };
    },
  };
}

/** One JSON call to a child's API with its key; a non-2xx answer throws with its body. */
export async function api<T>(g: GleanerChild, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${g.url}${p}`, {
    method,
    headers: { authorization: `Bearer ${g.key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}
