/**
 * What the local index keeps of a fetched page: title, description, headings and plain text,
 * read from the Document the pipeline built (its markdown), plus URL words so a page is found
 * by its address (`sql-select` finds `/sql-select.html`).
 */
import { hash } from 'node:crypto';
import type { Document } from '../../core/document.js';

/**
 * Enough text for ranking and snippets; the rest of a very long page adds little, and indexing
 * a long tail costs as much as the rest of the page's processing.
 */
export const MAX_BODY_CHARS = 20_000;
/** Markdown read for the body and headings: the body's worth with room for link targets and markup. */
const MAX_MARKDOWN_CHARS = MAX_BODY_CHARS * 8;

export interface PageText {
  url: string;
  host: string;
  title: string;
  description: string;
  headings: string;
  body: string;
  urlWords: string;
  publishedAt: number | undefined;
}

/**
 * Raise it when pageText comes to read a page differently: pages indexed before are then read
 * again on their next fetch instead of keeping what the old rules made of them.
 */
const PAGE_TEXT_VERSION = 2;

/** The metadata pageText reads, each value the first of its fields that is set. */
const TITLE_FIELDS = ['title', 'ogTitle'];
const DESCRIPTION_FIELDS = ['description', 'ogDescription'];
const DATE_FIELDS = ['publishedTime', 'article:published_time', 'modifiedTime'];
const SOURCE_FIELDS = [...TITLE_FIELDS, ...DESCRIPTION_FIELDS, ...DATE_FIELDS];

const first = (v: unknown): string | undefined => {
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && s.trim() ? s.trim() : undefined;
};
const firstOf = (m: Record<string, unknown>, fields: readonly string[]): string | undefined => {
  for (const f of fields) {
    const v = first(m[f]);
    if (v !== undefined) return v;
  }
  return undefined;
};
const metadataOf = (doc: Document) => doc.metadata as unknown as Record<string, unknown>;

/**
 * The page's text as the index keeps it: its markdown with links and images as their text and
 * tags out, whose targets and names would add words the reader does not see. The rest of the
 * markup stays: both indexes read `*`, `#`, `|` and the like as spaces between words, and a
 * snippet, the only place the text is shown, is made readable when it is picked (snippet.ts).
 * Reading every page's markup away cost five times as much, for the few passages ever shown.
 */
export function indexedBody(md: string): string {
  const bare = md.includes('](') ? md.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') : md;
  return bare.includes('<') ? bare.replace(/<[^>\n]+>/g, ' ') : bare;
}

/** Markdown to the words a reader sees: link targets, image syntax and markup go. */
export function markdownToText(md: string): string {
  return indexedBody(md)
    .replace(/```[^\n]*\n/g, '\n')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    // Markup becomes a space and runs of blanks stay: a snippet closes up its own blanks.
    .replace(/[*_`~|]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function urlWords(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host} ${decodeURIComponent(u.pathname)}`.split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ');
  } catch {
    return '';
  }
}

/** The page's address as the index keys it (web pages only, without fragment), or undefined. */
export function pageUrl(doc: Document): URL | undefined {
  const m = metadataOf(doc);
  const url = first(m['url']) ?? first(m['sourceURL']);
  if (!url) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  u.hash = '';
  return u;
}

export interface PageSource {
  url: string;
  /** Hash of everything pageText reads of the Document: equal hashes, equal page text. */
  hash: string;
}

/**
 * Which page a Document is and a hash of what pageText would read of it, at a fraction of
 * pageText's cost: a page fetched again unchanged is recognised by it, and only its date renewed
 * (on a re-crawl of the PostgreSQL manual, reading the text again was most of indexing's cost).
 */
export function pageSource(doc: Document): PageSource | undefined {
  if (doc.markdown === undefined) return undefined;
  const u = pageUrl(doc);
  if (!u) return undefined;
  const m = metadataOf(doc);
  const fields = JSON.stringify([PAGE_TEXT_VERSION, ...SOURCE_FIELDS.map((f) => first(m[f]) ?? null)]);
  // One-shot: a Hash object's set-up cost as much as hashing a page of the manual.
  return { url: u.href, hash: hash('sha1', fields + doc.markdown.slice(0, MAX_MARKDOWN_CHARS), 'base64') };
}

/** The page's text, or undefined when the Document holds none worth indexing. */
export function pageText(doc: Document): PageText | undefined {
  if (doc.markdown === undefined) return undefined;
  // Markup makes the text shorter, never longer, so this much markdown fills the body; reading
  // a huge page whole held the event loop for a third of a second.
  const md = doc.markdown.slice(0, MAX_MARKDOWN_CHARS);
  const u = pageUrl(doc);
  if (!u) return undefined;
  const m = metadataOf(doc);
  const headings = !md.includes('#') ? '' : [...md.matchAll(/^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((h) => markdownToText(h[1]!)).join('\n');
  const published = firstOf(m, DATE_FIELDS);
  const t = published ? Date.parse(published) : NaN;
  return {
    url: u.href,
    host: u.hostname.toLowerCase().replace(/^www\./, ''),
    title: firstOf(m, TITLE_FIELDS) ?? '',
    description: firstOf(m, DESCRIPTION_FIELDS) ?? '',
    headings,
    body: indexedBody(md).slice(0, MAX_BODY_CHARS),
    urlWords: urlWords(u.href),
    publishedAt: Number.isNaN(t) ? undefined : t,
  };
}
