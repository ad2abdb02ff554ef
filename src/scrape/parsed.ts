/**
 * The scrape pipeline's door into the parsers: a fetched response that is a document (PDF,
 * Office file, CSV, an image when the image parser is on) becomes the Document's content here.
 * Anything else returns undefined and the page transform handles it as before.
 */
import type { Document } from '../core/document.js';
import { pageTransform, type ScrapeOptions } from './options.js';
import type { FetchResult } from './types.js';
import { parserSettings } from '../parse/parsers.js';
import type { DocumentParser, ParsedFile } from '../parse/service.js';
import { isUnsupported, sniff } from '../parse/sniff.js';

/** Least time a document gets to parse, even when the fetch used most of the timeout. */
const MIN_PARSE_MS = 5_000;

export async function parseFetched(parser: DocumentParser, result: FetchResult, o: ScrapeOptions): Promise<ParsedFile | undefined> {
  // Text is the page transform's, except CSV, which reads better as a table.
  if (result.text !== undefined && !/^\s*text\/csv/i.test(result.contentType)) return undefined;
  const filename = safePath(result.url);
  const sniffed = await sniff(result.body, result.contentType, filename);
  if (isUnsupported(sniffed) || sniffed.kind === 'html' || sniffed.kind === 'text' || sniffed.kind === 'markdown') return undefined;
  const settings = parserSettings(o.parsers);
  if (sniffed.kind === 'image' && !settings.image) return undefined;
  const { opts, wants } = pageTransform(o);
  return parser.parse(
    { body: result.body, contentType: result.contentType, filename, sniffed },
    {
      settings,
      wants,
      transform: { ...opts, baseUrl: result.url },
      deadline: Date.now() + Math.max(MIN_PARSE_MS, o.timeout - result.timings.totalMs),
    },
  );
}

/** Copies a parse result onto a Document, keeping only the formats asked for. */
export function applyParsed(doc: Document, parsed: ParsedFile, o: { formats: readonly { type: string }[] }): Document {
  const want = new Set(o.formats.map((f) => f.type));
  doc.metadata = { ...parsed.metadata, ...doc.metadata, creditsUsed: parsed.creditsUsed };
  if (parsed.numPages !== undefined) doc.metadata.numPages = parsed.numPages;
  if (want.has('markdown')) doc.markdown = parsed.markdown;
  if (want.has('html')) doc.html = parsed.html ?? '';
  if (want.has('links')) doc.links = parsed.links ?? [];
  if (want.has('images')) doc.images = parsed.images ?? [];
  if (parsed.pages) doc.pages = parsed.pages;
  if (parsed.blocks) doc.blocks = parsed.blocks;
  return doc;
}

function safePath(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).pathname);
  } catch {
    return undefined;
  }
}
