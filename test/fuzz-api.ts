/**
 * Throws random, malformed and hostile requests at every endpoint of a real Gleaner for a while
 * and lists each answer outside the contract (test/helpers/fuzz.ts). The suite runs a bounded,
 * seeded share of this (test/e2e/fuzz.test.ts); this runs as long as asked. Replay with the seed.
 *
 *   node --import tsx test/fuzz-api.ts [--seconds 60] [--seed N]
 */
import { parseArgs } from 'node:util';
import { breach, createFuzzer } from './helpers/fuzz.js';
import { startGleaner } from './helpers/gleaner.js';

const { values } = parseArgs({ options: { seconds: { type: 'string' }, seed: { type: 'string' } } });
const seconds = Number(values.seconds ?? 60);
const seed = Number(values.seed ?? Date.now() % 2 ** 31);
console.log(`seed ${seed}`);

// With DATABASE_URL / REDIS_URL set, the store and queue are PostgreSQL and Redis.
const gleaner = await startGleaner({ env: { RATE_LIMIT_PER_MINUTE: '100000000' } });
const fuzzer = createFuzzer(seed);
const problems = new Set<string>();
let sent = 0;
const until = Date.now() + seconds * 1000;
try {
  while (Date.now() < until) {
    sent++;
    const problem = await breach(gleaner.url, gleaner.key, fuzzer.next());
    if (problem) problems.add(problem);
  }
} finally {
  await gleaner.close();
}
console.log(`${sent} requests, ${problems.size} outside the contract`);
for (const p of [...problems].slice(0, 40)) console.log(p);
process.exitCode = problems.size > 0 ? 1 : 0;
