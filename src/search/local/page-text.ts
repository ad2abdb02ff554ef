/**
 * What the local index keeps of a fetched page: title, description, headings and plain text,
 * read from the Document the pipeline built (its markdown), plus URL words so a page is found
 * by its address (`sql-select` finds `/sql-select.html`).
 */
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

const first = (v: unknown): string | undefined => {
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && s.trim() ? s.trim() : undefined;
};

/** Markdown to the words a reader sees: link targets, image syntax and markup go. */
export function markdownToText(md: string): string {
  return md
    .replace(/```[^\n]*\n/g, '\n')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    // Markup and the blanks around it become one space; of the other blanks only runs that
    // change: replacing every single space cost as much as the rest of this together.
    .replace(/[ \t]*[*_`~|][*_`~| \t]*|[ \t]{2,}|\t/g, ' ')
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

/** The page's text, or undefined when the Document holds none worth indexing. */
export function pageText(doc: Document): PageText | undefined {
  if (doc.markdown === undefined) return undefined;
  // Markup makes the text shorter, never longer, so this much markdown fills the body; reading
  // a huge page whole held the event loop for a third of a second.
  const md = doc.markdown.slice(0, MAX_MARKDOWN_CHARS);
  const m = doc.metadata as unknown as Record<string, unknown>;
  const url = first(m['url']) ?? first(m['sourceURL']);
  if (!url || !URL.canParse(url)) return undefined;
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  u.hash = '';
  const headings = !md.includes('#') ? '' : [...md.matchAll(/^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((h) => markdownToText(h[1]!)).join('\n');
  const published = first(m['publishedTime']) ?? first(m['article:published_time']) ?? first(m['modifiedTime']);
  const t = published ? Date.parse(published) : NaN;
  return {
    url: u.href,
    host: u.hostname.toLowerCase().replace(/^www\./, ''),
    title: first(m['title']) ?? first(m['ogTitle']) ?? '',
    description: first(m['description']) ?? first(m['ogDescription']) ?? '',
    headings,
    body: markdownToText(md).slice(0, MAX_BODY_CHARS),
    urlWords: urlWords(u.href),
    publishedAt: Number.isNaN(t) ? undefined : t,
  };
}
