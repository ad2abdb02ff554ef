/**
 * The `changeTracking` scrape format: this scrape's markdown against the last one the team
 * scraped of the same URL under the same `tag`, with the monitors' diff engine and noise rules.
 */
import type { Document } from '../core/document.js';
import type { ChangeTrackingFormat } from '../scrape/options.js';
import type { ChangeTracker } from '../scrape/pipeline.js';
import { contentHash } from './compare.js';
import { gitDiff } from './diff.js';
import type { MonitorRepository } from './store.js';
import { urlKey } from '../crawl/normalize.js';

export interface ChangeTrackingResult {
  previousScrapeAt: string | null;
  changeStatus: 'new' | 'same' | 'changed' | 'removed';
  visibility: 'visible' | 'hidden';
  diff?: ReturnType<typeof gitDiff>;
  json?: Record<string, unknown>;
}

const GONE = new Set([404, 410]);

export class SnapshotChangeTracker implements ChangeTracker {
  constructor(private readonly repo: MonitorRepository) {}

  /** Compares and records; the document's own markdown is what is compared. */
  async track(teamId: string, doc: Document, format: ChangeTrackingFormat, now = Date.now()): Promise<ChangeTrackingResult> {
    const scope = `ct:${teamId}:${format.tag ?? ''}`;
    const url = doc.metadata.sourceURL;
    let key: string;
    try {
      key = urlKey(url, { ignoreQueryParameters: false });
    } catch {
      key = url;
    }
    const prior = await this.repo.snapshot(scope, key);
    const previousScrapeAt = prior ? new Date(prior.seenAt).toISOString() : null;
    if (GONE.has(doc.metadata.statusCode)) {
      return { previousScrapeAt, changeStatus: 'removed', visibility: 'visible' };
    }
    const markdown = doc.markdown ?? '';
    const hash = contentHash(markdown);
    await this.repo.putSnapshot(scope, key, teamId, {
      url,
      markdown,
      contentHash: hash,
      bodyHash: null,
      etag: null,
      lastModified: null,
      scrapeId: doc.metadata.scrapeId ?? null,
      statusCode: doc.metadata.statusCode,
      metadata: null,
      seenAt: now,
    });
    if (!prior) return { previousScrapeAt, changeStatus: 'new', visibility: 'visible' };
    if (prior.contentHash === hash) return { previousScrapeAt, changeStatus: 'same', visibility: 'visible' };
    const out: ChangeTrackingResult = { previousScrapeAt, changeStatus: 'changed', visibility: 'visible' };
    if (format.modes.includes('git-diff')) out.diff = gitDiff(prior.markdown, markdown, url);
    return out;
  }
}
