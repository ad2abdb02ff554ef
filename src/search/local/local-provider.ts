/**
 * The local index as a search provider: the team's own fetched pages, BM25-ranked, with a
 * snippet from each page's best passage. Web results only: the index holds pages, not news
 * items or images.
 */
import { filterHits } from '../filters.js';
import { windowOf } from '../tbs.js';
import type { ProviderAnswer, ProviderQuery, SearchHit, SearchProvider } from '../types.js';
import type { LocalIndex, LocalQuery } from './local-index.js';
import { bestSnippet } from './snippet.js';

export class LocalProvider implements SearchProvider {
  readonly name = 'local';
  readonly sources = ['web'] as const;

  constructor(private readonly index: LocalIndex) {}

  async search(q: ProviderQuery): Promise<ProviderAnswer> {
    const lq: LocalQuery = {
      teamId: q.teamId,
      query: q.query,
      // Categories are matched on the URL after ranking: ask for more to keep `limit` after it.
      limit: q.categories.length ? q.limit * 5 : q.limit,
      includeDomains: q.includeDomains,
      excludeDomains: q.excludeDomains,
    };
    if (q.tbs) Object.assign(lq, windowOf(q.tbs, q.now));
    const rows = await this.index.search(lq);
    const hits: SearchHit[] = rows.map((r) => {
      const hit: SearchHit = { url: r.url, publishedAt: r.date };
      if (r.title) hit.title = r.title;
      const snippet = bestSnippet(r.body, q.query) || r.description;
      if (snippet) hit.description = snippet;
      return hit;
    });
    return { hits: filterHits(hits, q).slice(0, q.limit), warnings: [] };
  }
}
