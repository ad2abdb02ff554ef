/**
 * Search, assembled once per process from the configuration: the local index (SQLite FTS5 or
 * PostgreSQL, following the store), the indexer the scrape pipeline calls, the SearXNG provider
 * when one is configured, and the service routes and monitors use.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Store } from '../store/db.js';
import { PageIndexer } from './local/indexer.js';
import type { LocalIndex } from './local/local-index.js';
import { LocalProvider } from './local/local-provider.js';
import { PostgresIndex } from './local/postgres-index.js';
import { SqliteIndex } from './local/sqlite-index.js';
import { SearxngProvider } from './searxng.js';
import { SearchService, type SearchScraper } from './service.js';

export interface Search {
  index: LocalIndex;
  service: SearchService;
  /** What the scrape pipeline needs to index pages (nothing when indexing is off). */
  scraperDeps: { indexer?: PageIndexer };
  /** The service scrapes results through the pipeline, which is built after this. */
  useScraper(scraper: SearchScraper): void;
  close(): Promise<void>;
}

export function createSearch(config: Config, store: Store, log: Logger): Search {
  const index: LocalIndex = store.dialect === 'postgres' ? new PostgresIndex(store.db) : new SqliteIndex(path.join(config.dataDir, 'search.sqlite'), (err) => log.warn({ err }, 'could not index page for search'));
  const web = config.searxngUrl ? new SearxngProvider({ baseUrl: config.searxngUrl, engines: config.searxngEngines }) : undefined;
  let scraper: SearchScraper | undefined;
  const service = new SearchService({
    web,
    local: new LocalProvider(index),
    scraper: {
      scrape: (url, options, ctx) => {
        if (!scraper) throw new Error('search used before the scrape pipeline was built');
        return scraper.scrape(url, options, ctx);
      },
    },
  });
  return {
    index,
    service,
    scraperDeps: config.searchIndex ? { indexer: new PageIndexer(index, log) } : {},
    useScraper: (s) => {
      scraper = s;
    },
    close: () => index.close(),
  };
}

export type { SearchPlan } from './request.js';
