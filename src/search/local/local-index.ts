/**
 * The local index: every page the installation fetches, kept per team for full-text search.
 * SQLite FTS5 in the embedded mode, PostgreSQL full-text search in the distributed one; both
 * answer the same queries with the same filters and leave snippets to snippet.ts.
 */
import type { PageText } from './page-text.js';

export interface LocalQuery {
  teamId: string;
  query: string;
  limit: number;
  includeDomains?: readonly string[];
  excludeDomains?: readonly string[];
  /** Epoch ms bounds on the page's date (published, else when it was indexed). */
  from?: number;
  to?: number;
  /** Only pages whose URL starts with one of these (map: one site). */
  urlPrefixes?: readonly string[];
}

export interface LocalHit {
  url: string;
  title: string;
  description: string;
  body: string;
  /** Published date, else when it was indexed (epoch ms). */
  date: number;
  /** Higher is better; comparable only within one answer. */
  score: number;
}

/**
 * A page fetched again unchanged within this long of its date keeps that date: the date tells
 * when the index last saw the page, and a minute is finer than any date filter reads (the finest
 * is the past hour), while writing it again on each fetch is most of what a re-crawl costs the
 * index.
 */
export const RENEW_AFTER_MS = 60_000;

export interface LocalIndex {
  /** `sourceHash` (page-text.ts `pageSource`) lets a later fetch of the same source `renew` it. */
  upsert(teamId: string, page: PageText, indexedAt?: number, sourceHash?: string): Promise<void>;
  /**
   * Renews the date of a page upserted from a source with this hash (unless it is less than
   * RENEW_AFTER_MS old), and answers true; false
   * when the index holds no such page (new, changed, or indexed without a hash): the caller then
   * upserts it.
   */
  renew(teamId: string, url: string, sourceHash: string, indexedAt?: number): Promise<boolean>;
  remove(teamId: string, url: string): Promise<void>;
  /** Drops pages indexed before `before`, at most `max`; returns how many went. */
  purge(before: number, max?: number): Promise<number>;
  search(q: LocalQuery): Promise<LocalHit[]>;
  /** URLs of a team's pages under the prefixes (map), newest first. */
  urls(teamId: string, urlPrefixes: readonly string[], limit: number): Promise<string[]>;
  /** Pages and bytes held (benchmarks). */
  stats(): Promise<{ pages: number; bytes: number }>;
  close(): Promise<void>;
}

/** Search words, each safe to hand to either engine's query syntax. */
export const queryTerms = (query: string): string[] => [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32);

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

/**
 * How many pages a query ranks in full, out of however many match: `text` that match anywhere,
 * and the best `head` by title, URL and headings alone among the first `scan` that match there.
 * Ranking reads each candidate's text; on 100,000 pages a broad word matched tens of thousands,
 * and ranking them all took hundreds of milliseconds. On two-word queries of the benchmark
 * (bench/search.ts) the top ten so chosen kept 97–100% of the full ranking's top-ten pages that
 * match in their title, URL or headings; pages that match only in their text are ranked among
 * a sample, so for a broad query the best of those may be missed.
 */
export const candidateCaps = (limit: number) => ({ scan: 3000, head: Math.max(100, 2 * limit), text: Math.max(300, 2 * limit) });
