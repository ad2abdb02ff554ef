/**
 * Starts a real searx (Debian's package) for tests: a settings file in a temporary folder with
 * json_engine engines reading the fixture site's search endpoints, served on a free port, and
 * stopped by `close()`. `searxAvailable()` says whether the package is installed, so tests can
 * skip with a reason instead of failing on machines without it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const PYTHON = '/usr/bin/python3';
const EXAMPLE_SETTINGS = '/usr/share/doc/searx/examples/settings.yml';
const PACKAGE_DIR = '/usr/share/python3-searx';

export interface SearxEngine {
  name: string;
  /** Path (with query) on the fixture site; `{query}` and `{pageno}` are filled in by searx. */
  path: string;
  category: 'general' | 'news' | 'images';
  timeoutSeconds?: number;
  paging?: boolean;
  /** Not among the instance's defaults; used only when a request names it. */
  disabled?: boolean;
  /** Claims to filter by date (searx skips engines that do not when a time range is asked). */
  timeRange?: boolean;
}

export interface Searx {
  url: string;
  close(): Promise<void>;
}

export const searxAvailable = (): boolean => fs.existsSync(EXAMPLE_SETTINGS) && fs.existsSync(PACKAGE_DIR) && fs.existsSync(PYTHON);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function settings(port: number, siteUrl: string, engines: SearxEngine[]): string {
  const example = fs.readFileSync(EXAMPLE_SETTINGS, 'utf8').split('\n');
  const enginesAt = example.findIndex((l) => /^engines\s*:/.test(l));
  const after = example.findIndex((l, i) => i > enginesAt && /^[a-z_]+\s*:/.test(l));
  const head = example
    .slice(0, enginesAt)
    .join('\n')
    .replace(/^(\s+)port\s*:.*$/m, `$1port : ${port}`)
    .replace(/^(\s+)bind_address\s*:.*$/m, '$1bind_address : "127.0.0.1"')
    .replace(/^(\s+)secret_key\s*:.*$/m, `$1secret_key : "${randomBytes(16).toString('hex')}"`)
    // A failing engine is asked again on every search, not suspended after its first failure.
    .replace(/^(\s+)ban_time_on_fail\s*:.*$/m, '$1ban_time_on_fail : 0')
    .replace(/^(\s+)max_ban_time_on_fail\s*:.*$/m, '$1max_ban_time_on_fail : 0')
    .replace(/^(\s+)static_path\s*:.*$/m, `$1static_path : "${PACKAGE_DIR}/static"`)
    .replace(/^(\s+)templates_path\s*:.*$/m, `$1templates_path : "${PACKAGE_DIR}/templates"`)
    .replace(/^search:\s*$/m, 'search:\n    formats: [html, json]');
  const list = engines
    .map((e, i) =>
      [
        `  - name: ${e.name}`,
        '    engine: json_engine',
        `    search_url: ${siteUrl}${e.path}`,
        `    paging: ${e.paging === false ? 'False' : 'True'}`,
        '    results_query: results',
        '    url_query: url',
        '    title_query: title',
        '    content_query: content',
        `    categories: ${e.category}`,
        `    shortcut: fx${i}`,
        `    timeout: ${(e.timeoutSeconds ?? 3).toFixed(1)}`,
        '    enable_http: true',
        `    disabled: ${e.disabled ? 'True' : 'False'}`,
        `    time_range_support: ${e.timeRange ? 'True' : 'False'}`,
      ].join('\n'),
    )
    .join('\n');
  return `${head}\nengines:\n${list}\n\n${example.slice(after).join('\n')}`;
}

async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`searx exited with ${child.exitCode}:\n${log()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/config`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`searx did not start listening on ${port}:\n${log()}`);
}

export async function startSearx(siteUrl: string, engines: SearxEngine[]): Promise<Searx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gleaner-searx-'));
  const port = await freePort();
  const file = path.join(dir, 'settings.yml');
  fs.writeFileSync(file, settings(port, siteUrl, engines));
  let output = '';
  const child = spawn(PYTHON, ['-m', 'searx.webapp'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SEARX_SETTINGS_PATH: file, PYTHONDONTWRITEBYTECODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  try {
    await listening(port, child, () => output);
  } catch (err) {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
