/**
 * Keeps the local index in step with what the pipeline fetches: a page that came back is
 * (re)indexed for its team, or only dated anew when unchanged; one that is gone (404, 410)
 * leaves the index. Indexing never fails a scrape: an error is logged and the page simply is
 * not findable until its next fetch.
 */
import type { Logger } from 'pino';
import type { Document } from '../../core/document.js';
import type { LocalIndex } from './local-index.js';
import { pageSource, pageText, pageUrl } from './page-text.js';

export class PageIndexer {
  constructor(
    private readonly pages: LocalIndex,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  async index(teamId: string, doc: Document): Promise<void> {
    try {
      const status = doc.metadata.statusCode;
      if (status === 404 || status === 410) {
        // Keyed as indexing keys it: a gone page's address with a fragment still finds it.
        const url = pageUrl(doc);
        if (url) await this.pages.remove(teamId, url.href);
        return;
      }
      if (status >= 400) return;
      // A page fetched again unchanged only has its date renewed: reading its text is the cost.
      const source = pageSource(doc);
      if (!source || (await this.pages.renew(teamId, source.url, source.hash))) return;
      const page = pageText(doc);
      if (page) await this.pages.upsert(teamId, page, undefined, source.hash);
    } catch (err) {
      this.log.warn({ err, url: doc.metadata.sourceURL }, 'could not index page for search');
    }
  }
}
