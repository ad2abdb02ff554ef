/**
 * One page against its last-seen version: the status (`new|same|changed|removed|error`), the
 * diff when it changed, and what to store as the new last-seen version. Pure: the caller
 * decides when the store write happens (a check writes all of them with its result).
 */
import { createHash } from 'node:crypto';
import type { Document } from '../core/document.js';
import type { FetchValidators } from '../scrape/pipeline.js';
import { gitDiff, type GitDiff } from './diff.js';
import { denoise } from './noise.js';
import type { PageStatus } from './schemas.js';
import type { Snapshot } from './store.js';

export type SnapshotWrite = { op: 'put'; snapshot: Snapshot } | { op: 'touch' } | { op: 'delete' } | { op: 'none' };

export interface Comparison {
  status: PageStatus;
  diff: GitDiff | null;
  previousScrapeId: string | null;
  currentScrapeId: string | null;
  statusCode: number | null;
  error: string | null;
  metadata: unknown;
  write: SnapshotWrite;
}

export const contentHash = (markdown: string) => createHash('sha256').update(denoise(markdown)).digest('hex');

/** Statuses that mean the page is gone rather than broken. */
const GONE = new Set([404, 410]);

/** The server answered 304 or the same bytes: nothing to transform, nothing changed. */
export function unchanged(prior: Snapshot): Comparison {
  return {
    status: 'same',
    diff: null,
    previousScrapeId: prior.scrapeId,
    currentScrapeId: prior.scrapeId,
    statusCode: prior.statusCode,
    error: null,
    metadata: prior.metadata,
    write: { op: 'touch' },
  };
}

export function failed(prior: Snapshot | undefined, error: string, statusCode: number | null = null, metadata: unknown = null, currentScrapeId: string | null = null): Comparison {
  return { status: 'error', diff: null, previousScrapeId: prior?.scrapeId ?? null, currentScrapeId, statusCode, error, metadata, write: { op: 'none' } };
}

export function removed(prior: Snapshot, statusCode: number | null, currentScrapeId: string | null, metadata: unknown): Comparison {
  return { status: 'removed', diff: null, previousScrapeId: prior.scrapeId, currentScrapeId, statusCode, error: null, metadata, write: { op: 'delete' } };
}

export function compareDocument(prior: Snapshot | undefined, doc: Document, validators: FetchValidators | null, now: number, diffName: string): Comparison {
  const statusCode = doc.metadata.statusCode;
  const scrapeId = doc.metadata.scrapeId ?? null;
  const metadata = doc.metadata;
  if (GONE.has(statusCode)) {
    return prior ? removed(prior, statusCode, scrapeId, metadata) : failed(undefined, `The page answered HTTP ${statusCode}`, statusCode, metadata, scrapeId);
  }
  if (statusCode >= 400) return failed(prior, `The page answered HTTP ${statusCode}`, statusCode, metadata, scrapeId);
  const markdown = doc.markdown ?? '';
  const snapshot: Snapshot = {
    url: doc.metadata.sourceURL,
    markdown,
    contentHash: contentHash(markdown),
    bodyHash: validators?.bodyHash ?? null,
    etag: validators?.etag ?? null,
    lastModified: validators?.lastModified ?? null,
    scrapeId,
    statusCode,
    metadata,
    seenAt: now,
  };
  const base = { previousScrapeId: prior?.scrapeId ?? null, currentScrapeId: scrapeId, statusCode, error: null, metadata, write: { op: 'put', snapshot } as const };
  if (!prior) return { ...base, status: 'new', diff: null };
  if (prior.contentHash === snapshot.contentHash) return { ...base, status: 'same', diff: null };
  return { ...base, status: 'changed', diff: gitDiff(prior.markdown, markdown, diffName) };
}
