/**
 * The `POST /v2/search` body: parsed once at the edge with bounds and defaults, and each
 * requested source resolved to its own options (a source object may override the request's
 * `tbs`, `lang`, `country`, `location` and `limit`, and pick a provider).
 */
import { z } from 'zod';
import { MAX_TIMEOUT_MS, scrapeOptionsSchema } from '../scrape/options.js';
import { threatProtectionField } from '../security/threat/policy.js';
import { parseTbs, type TimeFilter } from './tbs.js';
import { CATEGORY_TYPES, SOURCE_TYPES, type CategoryType, type SourceType } from './types.js';

export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 100;
export const DEFAULT_SEARCH_TIMEOUT_MS = 60_000;

/**
 * `auto`: SearXNG when one is configured, else the local index (web only). `local`: the pages
 * this server has fetched for the team, whatever else is configured.
 */
export const PROVIDER_CHOICES = ['auto', 'local', 'searxng'] as const;
export type ProviderChoice = (typeof PROVIDER_CHOICES)[number];

const tbsText = z
  .string()
  .max(200)
  .superRefine((v, ctx) => {
    const parsed = parseTbs(v);
    if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
  });
const country = z.string().regex(/^[A-Za-z]{2}$/, 'Expected an ISO 3166-1 alpha-2 country code');
const lang = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'Expected a language code such as en or pt-BR');
const location = z.string().min(1).max(200);
const limit = z.number().int().min(1).max(MAX_SEARCH_LIMIT);

const sourceObject = z.looseObject({
  type: z.enum(SOURCE_TYPES, { error: () => `Unknown source; expected one of ${SOURCE_TYPES.join(', ')}` }),
  tbs: tbsText.optional(),
  filter: z.string().max(200).optional(),
  lang: lang.optional(),
  country: country.optional(),
  location: location.optional(),
  limit: limit.optional(),
  provider: z.enum(PROVIDER_CHOICES).optional(),
});

const asObject = (v: unknown) => (typeof v === 'string' ? { type: v } : v);

/** A domain as filters compare it: lower case, without scheme, path, port or `www.`. */
export const normaliseDomain = (d: string): string =>
  d.trim().toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/[/:].*$/, '').replace(/^www\./, '');

const domain = z
  .string()
  .min(1)
  .max(253)
  .transform(normaliseDomain)
  .refine((d) => /^[a-z0-9.-]+$/.test(d), { message: 'Expected a domain such as example.com' });

/** `scrapeOptions` without `formats` means "do not scrape" here, unlike on scrape itself. */
const searchScrapeOptions = z.preprocess(
  (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && !('formats' in v) ? { ...v, formats: [] } : v),
  scrapeOptionsSchema,
);

export const searchRequestSchema = z
  .looseObject({
    query: z.string().trim().min(1, 'The query must not be empty').max(2000),
    sources: z.array(z.preprocess(asObject, sourceObject)).min(1).max(SOURCE_TYPES.length).default([{ type: 'web' }]),
    categories: z
      .array(
        z.preprocess(
          asObject,
          z.looseObject({ type: z.enum(CATEGORY_TYPES, { error: () => `Unknown category; expected one of ${CATEGORY_TYPES.join(', ')}` }) }),
        ),
      )
      .max(CATEGORY_TYPES.length)
      .optional(),
    includeDomains: z.array(domain).max(100).optional(),
    excludeDomains: z.array(domain).max(100).optional(),
    limit: limit.default(DEFAULT_SEARCH_LIMIT),
    tbs: tbsText.optional(),
    filter: z.string().max(200).optional(),
    location: location.optional(),
    country: country.optional(),
    lang: lang.optional(),
    timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).default(DEFAULT_SEARCH_TIMEOUT_MS),
    ignoreInvalidURLs: z.boolean().default(false),
    highlights: z.boolean().optional(),
    scrapeOptions: searchScrapeOptions.optional(),
    enterprise: z.array(z.enum(['default', 'anon', 'zdr'])).max(3).optional(),
    threatProtection: threatProtectionField,
    domainTools: z.boolean().optional(),
    toolDetail: z.enum(['compact', 'summary', 'full']).optional(),
    integration: z.string().max(256).optional(),
    origin: z.string().max(256).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.includeDomains?.length && b.excludeDomains?.length) {
      ctx.addIssue({ code: 'custom', path: ['excludeDomains'], message: 'includeDomains and excludeDomains cannot both be given' });
    }
    const seen = new Set<string>();
    b.sources.forEach((s, i) => {
      if (seen.has(s.type)) ctx.addIssue({ code: 'custom', path: ['sources', i], message: `The source "${s.type}" is listed twice` });
      seen.add(s.type);
    });
    if (b.domainTools) {
      ctx.addIssue({ code: 'custom', path: ['domainTools'], message: 'Domain tools are not available on this server' });
    }
  });

export type SearchBody = z.output<typeof searchRequestSchema>;

/** One source list to fill, with every option resolved. */
export interface SourcePlan {
  type: SourceType;
  provider: ProviderChoice;
  limit: number;
  tbs?: TimeFilter;
  lang?: string;
  country?: string;
  location?: string;
}

export interface SearchPlan {
  query: string;
  sources: SourcePlan[];
  categories: CategoryType[];
  includeDomains: string[];
  excludeDomains: string[];
  timeoutMs: number;
  ignoreInvalidURLs: boolean;
  /** Present when results are to be scraped (formats asked for). */
  scrapeOptions?: z.output<typeof scrapeOptionsSchema>;
  zeroDataRetention: boolean;
}

export function planSearch(b: SearchBody): SearchPlan {
  const tbsOf = (t: string | undefined) => {
    if (t === undefined) return undefined;
    const parsed = parseTbs(t);
    return typeof parsed === 'string' ? undefined : parsed;
  };
  const zdr = Boolean(b.enterprise?.includes('zdr')) || b.scrapeOptions?.zeroDataRetention === true;
  const plan: SearchPlan = {
    query: b.query,
    sources: b.sources.map((s) => {
      const p: SourcePlan = { type: s.type, provider: s.provider ?? 'auto', limit: s.limit ?? b.limit };
      const tbs = tbsOf(s.tbs ?? b.tbs);
      if (tbs) p.tbs = tbs;
      const l = s.lang ?? b.lang;
      if (l) p.lang = l.toLowerCase();
      const c = s.country ?? b.country;
      if (c) p.country = c.toUpperCase();
      const loc = s.location ?? b.location;
      if (loc) p.location = loc;
      return p;
    }),
    categories: [...new Set((b.categories ?? []).map((c) => c.type))],
    includeDomains: b.includeDomains ?? [],
    excludeDomains: b.excludeDomains ?? [],
    timeoutMs: b.timeout,
    ignoreInvalidURLs: b.ignoreInvalidURLs,
    zeroDataRetention: zdr,
  };
  if (b.scrapeOptions && b.scrapeOptions.formats.length > 0) {
    plan.scrapeOptions = zdr ? { ...b.scrapeOptions, zeroDataRetention: true } : b.scrapeOptions;
  }
  return plan;
}
