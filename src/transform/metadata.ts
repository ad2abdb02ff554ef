/** Page metadata (Firecrawl v2 `metadata` fields) gathered from the whole document. */
import type { PageMetadata } from '../core/document.js';
import { type AttrSource, cleanText, decodeAttr } from './html-util.js';
import type { Resolver } from './url.js';

/** Raw meta keys (lower-cased) that map onto the named camelCase fields of the v2 Document. */
const NAMED_META: Readonly<Record<string, string>> = {
  'og:title': 'ogTitle',
  'og:description': 'ogDescription',
  'og:url': 'ogUrl',
  'og:image': 'ogImage',
  'og:audio': 'ogAudio',
  'og:determiner': 'ogDeterminer',
  'og:locale': 'ogLocale',
  'og:site_name': 'ogSiteName',
  'og:video': 'ogVideo',
  'dcterms.created': 'dcTermsCreated',
  'dc.date.created': 'dcDateCreated',
  'dc.date': 'dcDate',
  'dcterms.type': 'dcTermsType',
  'dc.type': 'dcType',
  'dcterms.audience': 'dcTermsAudience',
  'dcterms.subject': 'dcTermsSubject',
  'dc.subject': 'dcSubject',
  'dc.description': 'dcDescription',
  'dcterms.keywords': 'dcTermsKeywords',
  'article:published_time': 'publishedTime',
  'article:modified_time': 'modifiedTime',
  'article:section': 'articleSection',
};

/** NAMED_META's pairs, listed once rather than on every page. */
const NAMED_META_ENTRIES: ReadonlyArray<readonly [string, string]> = Object.entries(NAMED_META);

// Keys that would reach Object.prototype machinery if assigned as plain properties.
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Collects metadata from open-tag and text events; fed by the streaming pass in scan.ts. */
export class MetadataCollector {
  private title: string | undefined;
  private titleBuf: string | null = null;
  private lang: string | undefined;
  private contentLanguage: string | undefined;
  private sawHtml = false;
  private canonicalRaw: string | undefined;
  private iconRaw: string | undefined;
  private touchIconRaw: string | undefined;
  /** Raw meta entries in document order: [key as written, decoded content]. */
  private readonly metas: Array<[string, string]> = [];

  constructor(private readonly resolve: Resolver) {}

  /** Called for the tags this collector cares about: html, title, meta, link. */
  open(name: string, attrs: AttrSource, inSvg: boolean): void {
    switch (name) {
      case 'html':
        if (!this.sawHtml) {
          this.sawHtml = true;
          const lang = attrs.get('lang') ?? attrs.get('xml:lang');
          if (lang !== undefined && lang.trim()) this.lang = decodeAttr(lang).trim();
        }
        break;
      case 'title':
        if (this.title === undefined && this.titleBuf === null && !inSvg) this.titleBuf = '';
        break;
      case 'meta':
        this.meta(attrs);
        break;
      case 'link':
        this.link(attrs);
        break;
    }
  }

  text(data: string): void {
    if (this.titleBuf !== null) this.titleBuf += data;
  }

  close(name: string): void {
    if (name === 'title' && this.titleBuf !== null) {
      this.title = cleanText(this.titleBuf);
      this.titleBuf = null;
    }
  }

  private meta(attrs: AttrSource): void {
    const content = attrs.get('content');
    if (content === undefined) return;
    const key = attrs.get('name') ?? attrs.get('property') ?? attrs.get('itemprop');
    if (key === undefined) {
      const equiv = attrs.get('http-equiv');
      if (equiv !== undefined && equiv.toLowerCase() === 'content-language' && this.contentLanguage === undefined) {
        this.contentLanguage = decodeAttr(content).trim() || undefined;
      }
      return;
    }
    const k = decodeAttr(key).trim();
    if (!k || UNSAFE_KEYS.has(k)) return;
    this.metas.push([k, decodeAttr(content).trim()]);
  }

  private link(attrs: AttrSource): void {
    const rel = attrs.get('rel');
    const href = attrs.get('href');
    if (rel === undefined || href === undefined) return;
    const tokens = rel.toLowerCase().split(/\s+/);
    if (tokens.includes('canonical')) {
      this.canonicalRaw ??= href;
    } else if (tokens.includes('icon')) {
      this.iconRaw ??= href;
    } else if (tokens.includes('apple-touch-icon') || tokens.includes('apple-touch-icon-precomposed')) {
      this.touchIconRaw ??= href;
    }
  }

  result(): PageMetadata {
    const md: PageMetadata = {};
    const raw: Record<string, string | string[]> = {};
    const firstByLower = new Map<string, string>();
    const allByLower = new Map<string, string[]>();
    for (const [key, value] of this.metas) {
      const prev = raw[key];
      if (prev === undefined) raw[key] = value;
      else if (typeof prev === 'string') raw[key] = [prev, value];
      else prev.push(value);
      const lower = key.toLowerCase();
      if (!firstByLower.has(lower)) firstByLower.set(lower, value);
      const list = allByLower.get(lower);
      if (list) list.push(value);
      else allByLower.set(lower, [value]);
    }
    // Raw copies first, so the named fields below win on a key clash (e.g. <meta name="title">).
    Object.assign(md, raw);

    if (this.title !== undefined && this.title !== '') md.title = this.title;
    else delete md.title;
    const description = firstByLower.get('description');
    if (description !== undefined) md.description = description;
    const language = this.lang ?? this.contentLanguage;
    if (language) md.language = language;
    else delete md.language;
    const keywords = firstByLower.get('keywords');
    if (keywords !== undefined) md.keywords = keywords;
    const robots = firstByLower.get('robots');
    if (robots !== undefined) md.robots = robots;

    const favicon = this.resolveRaw(this.iconRaw ?? this.touchIconRaw);
    if (favicon) md.favicon = favicon;
    const canonical = this.resolveRaw(this.canonicalRaw);
    if (canonical) md.canonical = canonical;

    for (const [lower, field] of NAMED_META_ENTRIES) {
      const v = firstByLower.get(lower);
      if (v !== undefined) md[field] = v;
    }
    const alternates = allByLower.get('og:locale:alternate');
    if (alternates) md.ogLocaleAlternate = alternates;
    const tags = allByLower.get('article:tag');
    if (tags) md.articleTag = tags.join(', ');
    return md;
  }

  private resolveRaw(raw: string | undefined): string | undefined {
    return raw === undefined ? undefined : this.resolve(raw);
  }
}

