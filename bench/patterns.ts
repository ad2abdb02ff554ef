/**
 * Cost of testing one URL path against a crawl's include/exclude pattern: the linear-time engine
 * the crawler uses (patterns.ts, RE2 in JavaScript) beside V8's backtracking RegExp, on the
 * patterns people typically write and on paths of typical shape and length.
 *
 *   node --import tsx bench/patterns.ts [--rounds N]
 *
 * Figures are nanoseconds per test (median of rounds), one row per pattern. The machine's CPUs
 * may be shared, so compare the two columns of one run rather than runs with each other.
 */
import { compilePatterns } from '../src/crawl/patterns.js';

const PATTERNS = [
  '^/blog/',
  'docs',
  '^/docs/v\\d+/',
  '\\.pdf$',
  '/(?:tag|category)/',
  '^/products/[a-z0-9-]+$',
  '^/(en|de|fr)/',
  '(?<=/api/)v2',
  '^/[^/]+/[^/]+/?$',
];

/** A few thousand paths of the shapes a site links to: short sections, slugs, dated posts, files. */
function paths(n: number): string[] {
  const out: string[] = [];
  const words = ['docs', 'blog', 'products', 'en', 'api', 'tag', 'guide', 'pricing', 'about', 'v2', 'v10'];
  for (let i = 0; i < n; i++) {
    const depth = 1 + (i % 4);
    const segs: string[] = [];
    for (let d = 0; d < depth; d++) segs.push(`${words[(i * 7 + d * 3) % words.length]}${d === depth - 1 ? `-${i.toString(36)}` : ''}`);
    out.push(`/${segs.join('/')}${i % 9 === 0 ? '.pdf' : ''}`);
  }
  return out;
}

export interface PatternRow {
  pattern: string;
  re2NsPerTest: number;
  v8NsPerTest: number;
}

function nsPerTest(test: (s: string) => boolean, input: string[], rounds: number): number {
  const times: number[] = [];
  let sink = 0;
  for (let r = 0; r < rounds; r++) {
    const t = process.hrtime.bigint();
    for (const s of input) if (test(s)) sink++;
    times.push(Number(process.hrtime.bigint() - t) / input.length);
  }
  if (sink < 0) console.log(sink);
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export function runPatternBench(opts: { rounds?: number; paths?: number } = {}): PatternRow[] {
  const rounds = opts.rounds ?? 15;
  const input = paths(opts.paths ?? 5000);
  return PATTERNS.map((pattern) => {
    const [re2] = compilePatterns([pattern], 'includePaths');
    const v8 = new RegExp(pattern);
    // Warm both up before timing, so neither pays its compilation in the figures.
    nsPerTest((s) => re2!.test(s), input, 3);
    nsPerTest((s) => v8.test(s), input, 3);
    return { pattern, re2NsPerTest: nsPerTest((s) => re2!.test(s), input, rounds), v8NsPerTest: nsPerTest((s) => v8.test(s), input, rounds) };
  });
}

export function printPatternBench(rows: PatternRow[]): void {
  console.log('\npath patterns: ns per URL test (median), linear-time engine vs V8 RegExp');
  console.log(`${'pattern'.padEnd(28)} ${'re2js'.padStart(8)} ${'V8'.padStart(8)} ${'ratio'.padStart(6)}`);
  for (const r of rows) {
    console.log(`${r.pattern.padEnd(28)} ${r.re2NsPerTest.toFixed(0).padStart(8)} ${r.v8NsPerTest.toFixed(0).padStart(8)} ${(r.re2NsPerTest / r.v8NsPerTest).toFixed(1).padStart(6)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--rounds');
  printPatternBench(runPatternBench(i > 0 ? { rounds: Number(process.argv[i + 1]) } : {}));
}
