/**
 * Starts a real searx (Debian's package `searx`) for tests: a settings file in a temporary folder
 * with json_engine engines reading the fixture site's search endpoints, served on a free port, and
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
const PACKAGE_DIR = '/usr/share/python3-searx';
const WEBAPP = '/usr/lib/python3/dist-packages/searx/webapp.py';

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

export const searxAvailable = (): boolean => fs.existsSync(WEBAPP) && fs.existsSync(PACKAGE_DIR) && fs.existsSync(PYTHON);

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

/**
 * A complete settings file of our own: Debian's package ships only an example (under
 * /usr/share/doc, which slim images leave out), and its code finds no defaults. JSON output is
 * on, failing engines are never suspended (each search asks them again), and the engines read
 * the fixture site over plain http.
 */
function settings(port: number, siteUrl: string, engines: SearxEngine[]): string {
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
  return `general:
    debug: False
    instance_name: "gleaner-test"
    contact_url: False
    enable_stats: False
brand:
    git_url: https://github.com/searx/searx
    git_branch: master
    issue_url: https://github.com/searx/searx/issues
    docs_url: https://searx.github.io/searx
    public_instances: https://searx.space
    wiki_url: https://github.com/searx/searx/wiki
    twitter_url: https://twitter.com/Searx_engine
search:
    safe_search: 0
    autocomplete: ""
    default_lang: ""
    formats: [html, json]
    ban_time_on_fail: 0
    max_ban_time_on_fail: 0
    prefer_configured_language: False
server:
    port: ${port}
    bind_address: "127.0.0.1"
    secret_key: "${randomBytes(16).toString('hex')}"
    base_url: False
    image_proxy: False
    http_protocol_version: "1.0"
    method: "GET"
    default_http_headers: {}
ui:
    autofocus: True
    archive_today: False
    static_path: "${PACKAGE_DIR}/static"
    templates_path: "${PACKAGE_DIR}/templates"
    default_theme: oscar
    default_locale: ""
    theme_args:
        oscar_style: logicodev
outgoing:
    request_timeout: 2.0
    useragent_suffix: ""
    pool_connections: 100
    pool_maxsize: 10
engines:
${list}
locales:
    en: English
doi_resolvers:
    oadoi.org: 'https://oadoi.org/'
default_doi_resolver: 'oadoi.org'
`;
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
