/**
 * The real-page corpus the benchmarks share: Debian's PostgreSQL 15 HTML manual. Installed with
 * apt when missing and running as root; otherwise the benchmark says how to get it and skips.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';

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
