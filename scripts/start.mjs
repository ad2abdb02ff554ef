#!/usr/bin/env node
// `npm start`: build if needed, check for Chromium, then run `gleaner serve` on the embedded default.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'dist', 'main.js');
const newest = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true, recursive: true }).reduce((m, d) => (d.isFile() ? Math.max(m, fs.statSync(path.join(d.parentPath, d.name)).mtimeMs) : m), 0);

if (!fs.existsSync(entry) || newest(path.join(root, 'src')) > fs.statSync(entry).mtimeMs) {
  process.stdout.write('Building…\n');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}

const hasChromium = process.env.CHROMIUM_PATH
  ? fs.existsSync(process.env.CHROMIUM_PATH)
  : (process.env.PATH ?? '').split(':').some((d) => ['chromium', 'chromium-browser', 'google-chrome'].some((b) => fs.existsSync(path.join(d, b))));
if (!hasChromium) {
  process.stderr.write('warning: Chromium not found; screenshots and JavaScript pages need it. On Debian: sudo apt-get install -y chromium\n');
}

const args = process.argv.slice(2);
const child = spawn(process.execPath, [entry, ...(args.length ? args : ['serve'])], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
