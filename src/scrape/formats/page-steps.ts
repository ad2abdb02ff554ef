/**
 * Options that reshape a page's text rather than add a format: `onlyCleanContent` (before the
 * formats read the markdown) and `redactPII` (after every text output exists, so none escapes it).
 */
import { isSupportedCountry, type CountryCode } from 'libphonenumber-js';
import type { Document, DocumentMetadata } from '../../core/document.js';
import { cleanMarkdown } from '../../llm/offline/clean.js';
import { detectPii, PII_ENTITIES, redactText, type KnownPii, type PiiEntity, type ReplaceStyle } from '../../llm/offline/pii.js';
import { cleanWithModel, findPii } from '../../llm/tasks.js';
import type { ModelSession } from '../../llm/types.js';
import { withModel } from './model-fallback.js';
import type { FormatRun } from './types.js';

export async function cleanContent(markdown: string, model: ModelSession | undefined, r: Pick<FormatRun, 'warn'>): Promise<string> {
  if (model) {
    const tooLong = model.contextTokens * 4 < markdown.length;
    if (tooLong) {
      r.warn('onlyCleanContent: the page is longer than the model can rewrite in one answer, so its markdown is returned as it was.');
      return markdown;
    }
    const cleaned = await withModel({ warn: r.warn } as FormatRun, 'onlyCleanContent', () => cleanWithModel(model, markdown));
    if (cleaned) return cleaned;
  }
  const out = cleanMarkdown(markdown);
  r.warn(`onlyCleanContent: rule-based clean-up without a model (${out.removedLines} boilerplate line${out.removedLines === 1 ? '' : 's'} removed).`);
  return out.markdown;
}

export interface RedactOptions {
  mode: 'fast' | 'accurate' | 'aggressive';
  entities: PiiEntity[];
  replaceStyle: ReplaceStyle;
  /** Where phone numbers written without a country code are read as dialled from. */
  region: CountryCode;
}

/**
 * The request's redactPII with its defaults; phone numbers in national form are read as in the
 * country the request's `location` names (the country whose pages it asks for), else the US.
 */
export const normaliseRedact = (v: true | Partial<Omit<RedactOptions, 'region'>>, country?: string): RedactOptions => {
  const o = v === true ? {} : v;
  const region = country && isSupportedCountry(country) ? country : 'US';
  return { mode: o.mode ?? 'accurate', entities: o.entities?.length ? o.entities : [...PII_ENTITIES], replaceStyle: o.replaceStyle ?? 'tag', region };
};

/**
 * Every text the Document carries, the JSON answer's strings included, with PII replaced. In
 * `accurate` and `aggressive` modes the model, when there is one, reads the page's markdown for
 * PII, and each piece it quotes is replaced wherever it appears; without one (or when it cannot
 * answer), an NLP pass looks for people and places instead.
 */
export async function redactDocument(doc: Document, o: RedactOptions, model: ModelSession | undefined, warn: (m: string) => void): Promise<void> {
  let known: KnownPii[] | undefined;
  if (o.mode !== 'fast' && model) {
    const found = await withModel({ warn } as FormatRun, 'redactPII', () => findPii(model, textToRead(doc), o.entities, o.mode === 'aggressive'));
    if (found === null) warn("redactPII: the model's answer did not fit the list asked for.");
    known = found ?? undefined;
  }
  const names = o.mode !== 'fast' && known === undefined;
  const detect = (t: string) => detectPii(t, { entities: o.entities, names, known, region: o.region });
  const text = (t: string | undefined, html = false) => (t === undefined ? t : redactText(t, detect(t), o.replaceStyle, html));
  const markdown = doc.markdown;
  doc.markdown = text(doc.markdown);
  doc.html = text(doc.html, true);
  doc.rawHtml = text(doc.rawHtml, true);
  doc.summary = text(doc.summary);
  doc.answer = text(doc.answer);
  doc.highlights = text(doc.highlights);
  if (doc.links) doc.links = doc.links.filter((l) => detect(l).length === 0);
  if (doc.json !== undefined) doc.json = deep(doc.json, (s) => text(s)!);
  if (doc.product !== undefined) doc.product = deep(doc.product, (s) => text(s)!) as object;
  if (doc.menu !== undefined) doc.menu = deep(doc.menu, (s) => text(s)!) as object;
  for (const p of doc.pages ?? []) p.markdown = text(p.markdown)!;
  for (const page of doc.blocks ?? []) {
    for (const b of page.items) {
      const content = b.content;
      b.content = text(b.content)!;
      // Replacements change lengths: a span into changed markdown no longer points where it did.
      if (b.content !== content || doc.markdown !== markdown) b.markdownSpan = null;
    }
  }
  redactMetadata(doc.metadata, (s) => text(s)!);
  for (const k of ['markdown', 'html', 'rawHtml', 'summary', 'answer', 'highlights'] as const) if (doc[k] === undefined) delete doc[k];
  if (names) warn(`redactPII: '${o.mode}' mode ran offline (patterns plus an NLP pass for names and places); expect some misses and false hits.`);
}

/** What the model reads for PII: the markdown, or without it every other text the answer holds. */
function textToRead(doc: Document): string {
  if (doc.markdown) return doc.markdown;
  const texts: string[] = [];
  deep([doc.summary, doc.answer, doc.highlights, doc.json, doc.product, doc.menu, doc.html], (t) => (texts.push(t), t));
  return texts.filter(Boolean).join('\n\n');
}

/** What the service itself says of a fetch, not what the page says: left as it is. */
const SERVICE_METADATA = new Set(['sourceURL', 'url', 'statusCode', 'contentType', 'scrapeId', 'proxyUsed', 'creditsUsed', 'cacheState', 'cachedAt', 'error']);

/** The page's own metadata (title, description, its meta tags) with PII replaced. */
function redactMetadata(metadata: DocumentMetadata, f: (s: string) => string): void {
  for (const [key, value] of Object.entries(metadata)) {
    if (SERVICE_METADATA.has(key)) continue;
    if (typeof value === 'string') metadata[key] = f(value);
    else if (Array.isArray(value)) metadata[key] = value.map(f);
  }
}

function deep(v: unknown, f: (s: string) => string): unknown {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => deep(x, f));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x, f)]));
  return v;
}
