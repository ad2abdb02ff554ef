/**
 * One page against its last-seen version: the status (`new|same|changed|removed|error`), the
 * diff when it changed, and what to store as the new last-seen version. Pure: the caller
 * decides when the store write happens (a check writes all of them with its result).
 */
import { createHash } from 'node:crypto';
import type { Document } from '../core/document.js';
import type { FetchValidators } from '../scrape/pipeline.js';
import { extractionKey } from '../scrape/formats/change-tracking.js';
import { gitDiff, jsonFieldDiff, type GitDiff, type JsonFieldDiff } from './diff.js';
import { denoise } from './noise.js';
import type { PageStatus } from './schemas.js';
import type { Snapshot } from './store.js';

export type SnapshotWrite = { op: 'put'; snapshot: Snapshot } | { op: 'touch' } | { op: 'delete' } | { op: 'none' };

/**
 * What a target compares: the page's text (markdown), its JSON extraction (the target asked for
 * the `json` format), or both. A JSON-only target changes when a field changes, not the wording.
 */
export interface CompareMode {
  text: boolean;
  json?: { key: string; schema?: unknown };
}

export const TEXT_ONLY: CompareMode = { text: true };

/** The diff of a JSON or mixed target: the text's when it changed, and the changed fields. */
export interface JsonTargetDiff {
  text?: string;
  json: JsonFieldDiff;
}

export interface Comparison {
  status: PageStatus;
  diff: GitDiff | JsonTargetDiff | null;
  /** The current extraction, for JSON and mixed targets. */
  snapshot: { json: Record<string, unknown> } | null;
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

/** The extraction a JSON or mixed target shows for a version. */
const shown = (mode: CompareMode, value: Record<string, unknown> | undefined) => (mode.json && value ? { json: value } : null);

/** The server answered 304 or the same bytes: nothing to transform, nothing changed. */
export function unchanged(prior: Snapshot, mode: CompareMode = TEXT_ONLY): Comparison {
  return {
    status: 'same',
    diff: null,
    snapshot: shown(mode, prior.extraction?.key === mode.json?.key ? prior.extraction?.value : undefined),
    previousScrapeId: prior.scrapeId,
    currentScrapeId: prior.scrapeId,
    statusCode: prior.statusCode,
    error: null,
    metadata: prior.metadata,
    write: { op: 'touch' },
  };
}

export function failed(prior: Snapshot | undefined, error: string, statusCode: number | null = null, metadata: unknown = null, currentScrapeId: string | null = null): Comparison {
  return { status: 'error', diff: null, snapshot: null, previousScrapeId: prior?.scrapeId ?? null, currentScrapeId, statusCode, error, metadata, write: { op: 'none' } };
}

export function removed(prior: Snapshot, statusCode: number | null, currentScrapeId: string | null, metadata: unknown): Comparison {
  return { status: 'removed', diff: null, snapshot: null, previousScrapeId: prior.scrapeId, currentScrapeId, statusCode, error: null, metadata, write: { op: 'delete' } };
}

export function compareDocument(prior: Snapshot | undefined, doc: Document, validators: FetchValidators | null, now: number, diffName: string, mode: CompareMode = TEXT_ONLY): Comparison {
  const statusCode = doc.metadata.statusCode;
  const scrapeId = doc.metadata.scrapeId ?? null;
  const metadata = doc.metadata;
  if (GONE.has(statusCode)) {
    return prior ? removed(prior, statusCode, scrapeId, metadata) : failed(undefined, `The page answered HTTP ${statusCode}`, statusCode, metadata, scrapeId);
  }
  if (statusCode >= 400) return failed(prior, `The page answered HTTP ${statusCode}`, statusCode, metadata, scrapeId);
  const markdown = doc.markdown ?? '';
  const extracted = mode.json && isRecord(doc.json) ? doc.json : undefined;
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
    ...(mode.json ? { extraction: extracted ? { key: mode.json.key, value: extracted } : null } : {}),
  };
  const base = {
    previousScrapeId: prior?.scrapeId ?? null,
    currentScrapeId: scrapeId,
    statusCode,
    error: null,
    metadata,
    snapshot: shown(mode, extracted),
    write: { op: 'put', snapshot } as const,
  };
  if (!prior) return { ...base, status: 'new', diff: null };
  const textChanged = prior.contentHash !== snapshot.contentHash;
  if (!mode.json) return textChanged ? { ...base, status: 'changed', diff: gitDiff(prior.markdown, markdown, diffName) } : { ...base, status: 'same', diff: null };
  // A version extracted with another schema or prompt is not compared: this one is kept for the next.
  const before = prior.extraction?.key === mode.json.key ? prior.extraction.value : undefined;
  const fields = before && extracted ? jsonFieldDiff(before, extracted, mode.json.schema) : {};
  const textCounts = mode.text && textChanged;
  if (!textCounts && Object.keys(fields).length === 0) return { ...base, status: 'same', diff: null };
  return { ...base, status: 'changed', diff: { ...(textCounts ? { text: gitDiff(prior.markdown, markdown, diffName).text } : {}), json: fields } };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The comparison a target's scrape options ask for: its `json` format, and whether it also asked for markdown. */
export function compareMode(formats: readonly { type: string; schema?: unknown; prompt?: unknown }[]): CompareMode {
  const json = formats.find((f) => f.type === 'json');
  if (!json) return TEXT_ONLY;
  return { text: formats.some((f) => f.type === 'markdown'), json: { key: extractionKey(json), ...(json.schema !== undefined ? { schema: json.schema } : {}) } };
}
