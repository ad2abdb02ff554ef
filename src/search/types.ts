/** What search providers (SearXNG, the local index) take and give, behind one interface. */
import type { TimeFilter } from './tbs.js';

export const SOURCE_TYPES = ['web', 'news', 'images'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const CATEGORY_TYPES = ['github', 'research', 'pdf'] as const;
export type CategoryType = (typeof CATEGORY_TYPES)[number];

/** One source list to fill: the request's fields with the source's own options applied. */
export interface ProviderQuery {
  teamId: string;
  query: string;
  source: SourceType;
  /** Results wanted after filtering. */
  limit: number;
  categories: CategoryType[];
  includeDomains: string[];
  excludeDomains: string[];
  tbs?: TimeFilter;
  lang?: string;
  country?: string;
  location?: string;
  /** Aborted when the request's `timeout` passes. */
  signal: AbortSignal;
  /** The clock the time filter is read against (epoch ms). */
  now: number;
}

/** One hit, in the providers' common terms; the service shapes it per source list. */
export interface SearchHit {
  url: string;
  title?: string;
  description?: string;
  /** Epoch ms, when the provider knows it. */
  publishedAt?: number;
  imageUrl?: string;
  imageWidth?: number;
  imageHeight?: number;
  category?: CategoryType;
}

export interface ProviderAnswer {
  hits: SearchHit[];
  /** Partial failures worth telling the caller (an engine that did not answer). */
  warnings: string[];
}

export interface SearchProvider {
  readonly name: string;
  /** The source lists this provider can fill. */
  readonly sources: readonly SourceType[];
  /** Throws ProviderError when it cannot answer at all. */
  search(q: ProviderQuery): Promise<ProviderAnswer>;
}

/** A provider that could not answer; `message` is written for the operator who can fix it. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
