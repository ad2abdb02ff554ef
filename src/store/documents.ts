/**
 * Stored Documents: the per-team scrape cache (keyed by URL and the options that shape the
 * output) and the record of each scrape by id, for `GET /v2/scrape/{id}` (a crawl's pages are
 * found in its results instead).
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface CachedDocument<D> {
  document: D;
  storedAt: number;
}

export class DocumentRepository<D = unknown> {
  constructor(private readonly db: Kysely<Database>) {}

  async getCached(teamId: string, cacheKey: string): Promise<CachedDocument<D> | undefined> {
    const row = await this.db
      .selectFrom('scrape_cache')
      .select(['document', 'stored_at'])
      .where('team_id', '=', teamId)
      .where('cache_key', '=', cacheKey)
      .executeTakeFirst();
    return row ? { document: JSON.parse(row.document) as D, storedAt: row.stored_at } : undefined;
  }

  async putCached(teamId: string, cacheKey: string, url: string, document: D, storedAt = Date.now()): Promise<void> {
    const json = JSON.stringify(document);
    await this.db
      .insertInto('scrape_cache')
      .values({ team_id: teamId, cache_key: cacheKey, url, document: json, stored_at: storedAt })
      // `excluded` rather than the values again: a large document is bound to the statement once.
      .onConflict((oc) =>
        oc.columns(['team_id', 'cache_key']).doUpdateSet((eb) => ({ url: eb.ref('excluded.url'), document: eb.ref('excluded.document'), stored_at: eb.ref('excluded.stored_at') })),
      )
      .execute();
  }

  async recordScrape(id: string, teamId: string, url: string, document: D, createdAt = Date.now()): Promise<void> {
    await this.db.insertInto('scrapes').values({ id, team_id: teamId, url, document: JSON.stringify(document), created_at: createdAt }).execute();
  }

  /** Deletes scrape records made before `before`, oldest first, at most `max` per call. */
  async purgeScrapes(before: number, max = 1000): Promise<number> {
    const res = await this.db
      .deleteFrom('scrapes')
      .where('id', 'in', (eb) => eb.selectFrom('scrapes').select('id').where('created_at', '<', before).orderBy('created_at').limit(max))
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /** Deletes cache entries stored before `before`, oldest first, at most `max` per call. */
  async purgeCache(before: number, max = 1000): Promise<number> {
    const res = await this.db
      .deleteFrom('scrape_cache')
      .where((eb) =>
        eb(
          eb.refTuple('team_id', 'cache_key'),
          'in',
          eb.selectFrom('scrape_cache').select(['team_id', 'cache_key']).where('stored_at', '<', before).orderBy('stored_at').limit(max).$asTuple('team_id', 'cache_key'),
        ),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  async getScrape(id: string, teamId: string): Promise<D | undefined> {
    const row =
      (await this.db.selectFrom('scrapes').select('document').where('id', '=', id).where('team_id', '=', teamId).executeTakeFirst()) ??
      // A crawl's pages are stored once, in its results.
      (await this.db
        .selectFrom('crawl_results as r')
        .innerJoin('crawls as c', 'c.id', 'r.crawl_id')
        .select('r.document')
        .where('r.scrape_id', '=', id)
        .where('c.team_id', '=', teamId)
        .executeTakeFirst());
    return row ? (JSON.parse(row.document) as D) : undefined;
  }
}
