/**
 * Malformed and hostile bodies at every endpoint that takes input get catalog answers: not one
 * 500 UNKNOWN_ERROR, an error envelope on every refusal, and an answer to each. A bounded,
 * seeded share of `test/fuzz-api.ts`, on loopback only; a failure names the request, and its
 * seed replays the run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breach, createFuzzer } from '../helpers/fuzz.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

const SEEDS = [1, 2, 3];
const REQUESTS_PER_SEED = 250;

describe('fuzzing every endpoint', () => {
  let gleaner: TestGleaner;
  beforeAll(async () => {
    gleaner = await startGleaner({ embedded: true, env: { RATE_LIMIT_PER_MINUTE: '100000000' } });
  });
  afterAll(async () => {
    await gleaner?.close();
  });

  it.each(SEEDS)('seed %i: every answer keeps the contract', async (seed) => {
    const fuzzer = createFuzzer(seed);
    const problems = new Set<string>();
    for (let i = 0; i < REQUESTS_PER_SEED; i++) {
      const problem = await breach(gleaner.url, gleaner.key, fuzzer.next());
      if (problem) problems.add(problem);
    }
    expect([...problems]).toEqual([]);
  }, 240_000);
});
