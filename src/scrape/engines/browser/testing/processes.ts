/** The Chromium processes a test started, read from /proc, to see them start and end. */
import { readdirSync, readFileSync } from 'node:fs';

/** Chromium processes started by this test process (roots), and everything they spawned. */
export function chromiumProcessTree(): { roots: number[]; all: number[] } {
  if (!readdirSync('/').includes('proc')) return { roots: [], all: [] };
  const parents = new Map<number, number>();
  const commands = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      parents.set(Number(entry), Number(fields[1]));
      commands.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8'));
    } catch {
      // The process exited while being read.
    }
  }
  const roots = [...parents].filter(([pid, ppid]) => ppid === process.pid && /chrom/i.test(commands.get(pid) ?? '')).map(([pid]) => pid);
  const tree = new Set(roots);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return { roots, all: [...tree] };
}

export const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
};

export async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}
