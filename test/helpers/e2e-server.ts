/**
 * The usual setting of an end-to-end test file: the local fixture site, one Gleaner, and the
 * official SDK pointed at it, started before the file's tests and closed after them. The fields
 * are filled in `beforeAll`, so tests read them through the returned object.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner, type TestGleanerOptions } from './gleaner.js';

export interface E2eServer {
  site: FixtureSite;
  gleaner: TestGleaner;
  fc: Firecrawl;
}

/** Embedded store, and a rate limit no test file reaches. */
const DEFAULTS: TestGleanerOptions = { embedded: true, env: { RATE_LIMIT_PER_MINUTE: '1000' } };

export function useE2eServer(opts: TestGleanerOptions = DEFAULTS): E2eServer {
  const ctx = {} as E2eServer;
  beforeAll(async () => {
    ctx.site = await startFixtureSite();
    ctx.gleaner = await startGleaner(opts);
    ctx.fc = new Firecrawl({ apiKey: ctx.gleaner.key, apiUrl: ctx.gleaner.url });
  });
  afterAll(async () => {
    await ctx.gleaner?.close();
    await ctx.site?.close();
  });
  return ctx;
}
