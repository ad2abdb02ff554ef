/**
 * How a model-backed format degrades: a model that is down, slow or rate-limited does not fail
 * the scrape (its page is fetched and billed); the format falls back to its offline algorithm,
 * or is left out, and the warning says why.
 */
import { ModelUnavailableError } from '../../llm/types.js';
import type { FormatRun } from './types.js';

export async function withModel<T>(r: FormatRun, what: string, work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (e) {
    if (!(e instanceof ModelUnavailableError)) throw e;
    r.warn(`${what}: the model could not be used (${e.message}).`);
    return undefined;
  }
}
