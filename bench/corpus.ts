/**
 * The real-page corpus the benchmarks share: Debian's PostgreSQL 15 HTML manual. Installed with
 * apt when missing and running as root; otherwise the benchmark says how to get it and skips.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const PG_DOCS_DIR = '/usr/share/doc/postgresql-doc-15/html';

export function pgDocsDir(): string | undefined {
  if (fs.existsSync(PG_DOCS_DIR)) return PG_DOCS_DIR;
  if (process.getuid?.() === 0) {
    console.error('Installing postgresql-doc-15 (the benchmark corpus)…');
    try {
      execSync('apt-get install -y -qq postgresql-doc-15 >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq postgresql-doc-15)', {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } catch {
      // fall through to the message below
    }
    if (fs.existsSync(PG_DOCS_DIR)) return PG_DOCS_DIR;
  }
  console.error('Skipping: the corpus needs Debian package postgresql-doc-15 (sudo apt-get install -y postgresql-doc-15).');
  return undefined;
}

/**
 * Serves the given files of `dir` as HTML on an ephemeral loopback port; anything else is a 404.
 * `latencyMs` holds each answer back that long, as a site across a network would.
 */
export async function serveDir(dir: string, files: string[], opts: { latencyMs?: number } = {}): Promise<{ url: string; close(): Promise<void> }> {
  const bodies = new Map(files.map((f) => [`/${f}`, fs.readFileSync(path.join(dir, f))]));
  const server = http.createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    const answer = () => {
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
      res.end(body);
    };
    if (opts.latencyMs) setTimeout(answer, opts.latencyMs);
    else answer();
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
