/** A job's result documents, in the order its pages finished: what status pages and watchers read. */
import type { Db } from './records.js';

export class CrawlResults {
  constructor(private readonly db: Db) {}

  async count(crawlId: string): Promise<number> {
    const r = await this.db
      .selectFrom('crawl_results')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('crawl_id', '=', crawlId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Result documents (JSON text) in the order they finished, with their sequence ids. */
  async page(crawlId: string, skip: number, limit: number): Promise<Array<{ seq: number; document: string }>> {
    const rows = await this.db
      .selectFrom('crawl_results')
      .select(['id', 'document'])
      .where('crawl_id', '=', crawlId)
      .orderBy('id')
      .offset(skip)
      .limit(limit)
      .execute();
    return rows.map((r) => ({ seq: Number(r.id), document: r.document }));
  }

  /** Results finished after a sequence id: what a watcher has not seen yet. */
  async after(crawlId: string, afterSeq: number, limit: number): Promise<Array<{ seq: number; document: string }>> {
    const rows = await this.db
      .selectFrom('crawl_results')
      .select(['id', 'document'])
      .where('crawl_id', '=', crawlId)
      .where('id', '>', afterSeq)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ seq: Number(r.id), document: r.document }));
  }
}
