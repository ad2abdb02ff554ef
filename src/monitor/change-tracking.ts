/**
 * The `changeTracking` scrape format: this scrape's markdown against the last one the team
 * scraped of the same URL under the same `tag`, with the monitors' diff engine and noise rules.
 * The json mode stores the extraction with the version and compares the next one with it,
 * field by field; a version whose markdown is the same keeps its extraction without a model call.
 */
import type { Document } from '../core/document.js';
import type { ChangeTrackingFormat } from '../scrape/options.js';
import type { ChangeTracker, TrackedExtraction } from '../scrape/formats/types.js';
import { contentHash } from './compare.js';
import { gitDiff, jsonFieldDiff, type JsonFieldDiff } from './diff.js';
import type { MonitorRepository, Snapshot, StoredExtraction } from './store.js';
import { urlKey } from '../crawl/normalize.js';

export interface ChangeTrackingResult {
  previousScrapeAt: string | null;
  changeStatus: 'new' | 'same' | 'changed' | 'removed';
  visibility: 'visible' | 'hidden';
  diff?: ReturnType<typeof gitDiff>;
  json?: JsonFieldDiff;
}

const GONE = new Set([404, 410]);

export class SnapshotChangeTracker implements ChangeTracker {
  constructor(private readonly repo: MonitorRepository) {}

  /** Compares and records; the document's own markdown is what is compared. */
  async track(teamId: string, doc: Document, format: ChangeTrackingFormat, json?: TrackedExtraction, now = Date.now()): Promise<ChangeTrackingResult> {
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
    const status = !prior ? 'new' : prior.contentHash === hash ? 'same' : 'changed';
    const priorExtraction = prior?.extraction?.key === json?.key ? prior?.extraction : undefined;
    // The same page keeps what was extracted from it; anything else is read again.
    const extraction = json && (status === 'same' && priorExtraction ? priorExtraction : await extract(json));
    const snapshot: Snapshot = {
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
      ...(json ? { extraction: extraction ?? null } : {}),
    };
    await this.repo.putSnapshot(scope, key, teamId, snapshot);
    const out: ChangeTrackingResult = { previousScrapeAt, changeStatus: status, visibility: 'visible' };
    if (status !== 'changed') return out;
    if (format.modes.includes('git-diff')) out.diff = gitDiff(prior!.markdown, markdown, url);
    if (json && extraction) {
      if (priorExtraction) out.json = jsonFieldDiff(priorExtraction.value, extraction.value, format.schema);
      else json.warn('changeTracking json: the last scrape of this page under this tag has no extraction with this schema and prompt to compare with; this one is stored for the next.');
    }
    return out;
  }
}

async function extract(json: TrackedExtraction): Promise<StoredExtraction | undefined> {
  const value = await json.extract();
  return value ? { key: json.key, value } : undefined;
}
