/**
 * ScrapeOptions: the one schema for every scrape-shaped request (scrape, and later the nested
 * `scrapeOptions` of crawl, search, monitors). Parsing applies bounds and defaults; features not
 * built yet are refused by name instead of being quietly ignored. Unknown keys pass through,
 * since the official SDK adds `origin`, `integration` and whatever a caller spreads in.
 */
import { z } from 'zod';
import { memoByObject } from '../memo.js';
import { parsersSchema } from '../parse/parsers.js';
import { actionsSchema, MAX_TOTAL_WAIT_MS, totalWaitMs, type Action } from './engines/browser/action-schema.js';
import { selectorIsValid } from './selectors.js';
import type { PageTransform } from './types.js';
import { PII_ENTITIES, type PiiEntity } from '../llm/offline/pii.js';
import { changeTrackingSchema } from './formats/change-tracking.js';
import { FORMAT_TYPES, FORMATS } from './formats/registry.js';
import { neededBy, refusals } from './formats/run.js';
import { screenshotSchema } from './formats/screenshot.js';
import type { RegisteredFormat } from './formats/types.js';
import { threatProtectionField } from '../security/threat/policy.js';

/** Options of the interface whose behaviour a later feature brings. */
export const PENDING_OPTIONS = ['domainTools', 'useMock'] as const;

/**
 * A format entry: a bare name (`"markdown"`) or an object with `type`; each type's schema comes
 * from its module in the formats table.
 */
const formatEntry = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    if (v === 'screenshot@fullPage') return { type: 'screenshot', fullPage: true };
    return { type: v };
  },
  z.discriminatedUnion('type', FORMATS.map((f) => f.schema.meta({ description: describeFormat(f) })) as unknown as [z.ZodObject, ...z.ZodObject[]], {
    error: (issue) => (issue.code === 'invalid_union' ? `Unknown format; expected one of ${FORMAT_TYPES.join(', ')}` : undefined),
  }),
) as unknown as z.ZodType<FormatEntry>;

function describeFormat(f: RegisteredFormat): string {
  const needs = Object.entries(f.needs)
    .filter(([k, v]) => v !== false && !(k === 'model' && v === 'none'))
    .map(([k, v]) => (k === 'model' ? `model (${v})` : k));
  return `${f.description}${needs.length ? ` Needs: ${needs.join(', ')}.` : ''}`;
}

export type ChangeTrackingFormat = z.output<typeof changeTrackingSchema>;
export type ScreenshotFormat = z.output<typeof screenshotSchema>;
/** A parsed format entry: its `type` and the fields its module's schema gives it. */
export type FormatEntry =
  | ChangeTrackingFormat
  | ScreenshotFormat
  | (Record<string, unknown> & { type: OtherFormatType });

type OtherFormatType =
  | 'markdown' | 'html' | 'rawHtml' | 'rawBase64' | 'links' | 'images'
  | 'json' | 'summary' | 'question' | 'highlights' | 'branding' | 'product' | 'menu'
  | 'audio' | 'video' | 'attributes' | 'query';

const selectorList = z
  .array(
    z
      .string()
      .min(1)
      .max(1000)
      .refine(selectorIsValid, { message: 'Not a valid CSS selector' }),
  )
  .max(100);

/** The first problem of an object option that failed, as `field: message`. */
function objectProblem(issues: readonly z.core.$ZodIssue[]): string | undefined {
  const first = issues[0];
  return first ? `${first.path.join('.') || 'value'}: ${first.message}` : undefined;
}

const httpHeaderName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const MAX_TIMEOUT_MS = 300_000;
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_AGE_MS = 2 * 24 * 3600 * 1000;
/** The cache age `lockdown` accepts when the caller gives no `maxAge` of its own. */
export const LOCKDOWN_MAX_AGE_MS = 2 * 365 * 24 * 3600 * 1000;

/**
 * The age of cached copy a scrape accepts: the caller's `maxAge` when given (with `lockdown`
 * too), else the default of its mode. Left unset by the schema so the two defaults can differ.
 */
export const effectiveMaxAge = (o: { maxAge?: number | undefined; lockdown: boolean }): number =>
  o.maxAge ?? (o.lockdown ? LOCKDOWN_MAX_AGE_MS : DEFAULT_MAX_AGE_MS);

export const scrapeOptionsShape = {
  formats: z
    .array(formatEntry)
    .max(20)
    .prefault(['markdown'])
    .refine((f) => f.filter((x) => x.type === 'screenshot').length <= 1, { message: 'Only one screenshot format is allowed' })
    .refine((f) => !f.some((x) => x.type === 'changeTracking') || f.some((x) => x.type === 'markdown'), {
      message: 'The changeTracking format requires the markdown format',
    }),
  headers: z
    .record(
      z.string().regex(httpHeaderName, 'Not a valid HTTP header name'),
      z.string().max(8192).refine((v) => !/[\r\n\0]/.test(v), { message: 'Header values cannot contain CR, LF or NUL' }),
    )
    .refine((h) => Object.keys(h).length <= 100, { message: 'At most 100 headers' })
    .optional(),
  includeTags: selectorList.optional(),
  excludeTags: selectorList.optional(),
  onlyMainContent: z.boolean().default(true),
  timeout: z.number().int().min(1000).max(MAX_TIMEOUT_MS).default(DEFAULT_TIMEOUT_MS),
  waitFor: z.number().int().min(0).max(60_000).default(0),
  mobile: z.boolean().default(false),
  location: z
    .object({
      country: z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'Expected an ISO 3166-1 alpha-2 country code')
        .transform((c) => c.toUpperCase())
        .optional(),
      languages: z.array(z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'Expected a language tag such as en-US')).max(20).optional(),
    })
    .optional(),
  skipTlsVerification: z.boolean().default(true),
  removeBase64Images: z.boolean().default(true),
  fastMode: z.boolean().default(false),
  blockAds: z.boolean().default(true),
  proxy: z
    .enum(['basic', 'enhanced', 'stealth', 'auto'])
    .transform((p) => (p === 'stealth' ? 'enhanced' : p))
    .default('auto'),
  // No default here: see effectiveMaxAge.
  maxAge: z.number().int().min(0).optional(),
  minAge: z.number().int().min(1).optional(),
  storeInCache: z.boolean().default(true),
  lockdown: z.boolean().default(false),
  zeroDataRetention: z.boolean().default(false),
  parsers: parsersSchema.optional(),
  auditMetadata: z.strictObject({ username: z.string().max(1024) }).optional(),
  toolDetail: z.enum(['compact', 'summary', 'full']).optional(),
  integration: z.string().max(256).optional(),
  origin: z.string().max(256).optional(),
  actions: actionsSchema.optional(),
  /** Browser storage kept per team and name (src/browser/profiles.ts). */
  profile: z.object({ name: z.string().min(1).max(128), saveChanges: z.boolean().default(true) }).optional(),
  /** Gleaner's own: leave the page open as an `interact` session (src/browser/sessions.ts). */
  keepAlive: z.boolean().optional(),
  /** Boilerplate left in the markdown removed (src/scrape/formats/page-steps.ts). */
  onlyCleanContent: z.boolean().default(false),
  /** PII replaced in every text output (src/scrape/formats/page-steps.ts). */
  redactPII: z
    .union(
      [
        z.boolean(),
        z.object({
          mode: z.enum(['accurate', 'aggressive', 'fast']).optional(),
          entities: z.array(z.enum(PII_ENTITIES as [PiiEntity, ...PiiEntity[]])).max(6).optional(),
          replaceStyle: z.enum(['tag', 'mask', 'remove']).optional(),
        }),
      ],
      // An object that fails says which of its fields is wrong, not only that it is no boolean.
      {
        error: (issue) => {
          if (issue.code !== 'invalid_union') return undefined;
          const isObject = typeof issue.input === 'object' && issue.input !== null && !Array.isArray(issue.input);
          return (isObject && objectProblem(issue.errors[1] ?? [])) || 'Expected true, false or an object of mode, entities and replaceStyle';
        },
      },
    )
    .optional(),
  /** Per-request override of the team's threat protection policy (src/security/threat/policy.ts). */
  threatProtection: threatProtectionField,
  // Accepted on the wire, refused with a clear message until their feature lands.
  domainTools: z.unknown().optional(),
  useMock: z.unknown().optional(),
};

type CrossFields = { timeout: number; waitFor: number; actions?: Action[] | undefined; keepAlive?: boolean | undefined };

/**
 * Checks that span fields; added to every schema built from the shape. A kept page is only
 * for a caller waiting on one scrape, so keepAlive is refused everywhere but `POST /v2/scrape`.
 */
export function crossFieldChecks(o: CrossFields, ctx: z.RefinementCtx): void {
  if (o.keepAlive) {
    ctx.addIssue({ code: 'custom', path: ['keepAlive'], message: 'keepAlive is only available on a single scrape (POST /v2/scrape)' });
  }
  singleScrapeChecks(o, ctx);
}

function singleScrapeChecks(o: CrossFields, ctx: z.RefinementCtx): void {
  if (o.waitFor > o.timeout / 2) {
    ctx.addIssue({ code: 'custom', path: ['waitFor'], message: 'waitFor must not exceed half of timeout' });
  }
  if (o.waitFor + totalWaitMs(o.actions) > MAX_TOTAL_WAIT_MS) {
    ctx.addIssue({ code: 'custom', path: ['actions'], message: `waitFor and wait actions together must not exceed ${MAX_TOTAL_WAIT_MS} ms` });
  }
}

export const scrapeOptionsSchema = z.looseObject(scrapeOptionsShape).superRefine(crossFieldChecks);

export const scrapeRequestSchema = z
  .looseObject({
    url: z.string().min(1).max(8192),
    ...scrapeOptionsShape,
  })
  .superRefine(singleScrapeChecks);

export type ScrapeOptions = z.output<typeof scrapeOptionsSchema>;
export type ScrapeRequest = z.output<typeof scrapeRequestSchema>;

export interface PendingUse {
  path: string;
  message: string;
}

const isSet = (v: unknown) => v !== undefined && v !== null && v !== false;

/**
 * Lists the not-yet-built options and formats a request uses. Like pageTransform, worked out once
 * per parsed options object: a crawl hands one to every page, and parsed options never change.
 */
export const pendingFeatures = memoByObject((o: ScrapeOptions): readonly PendingUse[] => {
  const out: PendingUse[] = [];
  for (const key of PENDING_OPTIONS) {
    if (isSet(o[key])) out.push({ path: key, message: `The '${key}' option is not supported yet by this server` });
  }
  // Formats this server lacks whatever its configuration; those needing a model are checked
  // where the configuration is known (the pipeline).
  for (const r of refusals(o.formats, { model: true })) if (r.error === 'UNSUPPORTED_OPTION') out.push({ path: r.path, message: r.message });
  return out;
});

/** The transform a scrape with these options runs on an HTML page, short of the page's URL. */
export const pageTransform = memoByObject((o: ScrapeOptions): PageTransform => {
  const want = (t: string) => o.formats.some((f) => f.type === t);
  const needs = neededBy(o.formats);
  return {
    opts: {
      onlyMainContent: o.onlyMainContent,
      includeTags: o.includeTags ?? [],
      excludeTags: o.excludeTags ?? [],
      removeBase64Images: o.removeBase64Images,
      blockAds: o.blockAds,
    },
    // Formats that read the markdown get it even when the caller did not ask for markdown itself.
    wants: { markdown: want('markdown') || needs.markdown, html: want('html'), links: want('links'), images: want('images') },
  };
});
