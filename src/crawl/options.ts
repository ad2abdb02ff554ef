/**
 * Request schemas for the two page-collecting jobs: crawl (a start URL and link discovery) and
 * batch scrape (a list of URLs). Both validate their scrape options with the scrape schema, so
 * a page of a crawl is shaped exactly like a single scrape.
 */
import { z } from 'zod';
import { crossFieldChecks, scrapeOptionsSchema, scrapeOptionsShape } from '../scrape/options.js';
import { webhookSchema } from '../webhooks/schema.js';
import { patternError } from './patterns.js';

/** Largest crawl a request may ask for; the default when `limit` is absent. */
export const MAX_CRAWL_LIMIT = 100_000;
export const DEFAULT_CRAWL_LIMIT = 10_000;
export const MAX_BATCH_URLS = 10_000;

const pathPattern = z
  .string()
  .max(1000)
  .superRefine((p, ctx) => {
    const err = patternError(p);
    if (err) ctx.addIssue({ code: 'custom', message: err });
  });

const url = z.string().min(1).max(8192);

export const crawlRequestSchema = z.looseObject({
  url,
  prompt: z.unknown().optional(),
  includePaths: z.array(pathPattern).max(100).default([]),
  excludePaths: z.array(pathPattern).max(100).default([]),
  regexOnFullURL: z.boolean().default(false),
  maxDiscoveryDepth: z.number().int().min(0).max(1000).optional(),
  /** Older name for the same bound; accepted so old callers keep working. */
  maxDepth: z.number().int().min(0).max(1000).optional(),
  sitemap: z.enum(['include', 'skip', 'only']).default('include'),
  ignoreSitemap: z.boolean().optional(),
  ignoreQueryParameters: z.boolean().default(false),
  deduplicateSimilarURLs: z.boolean().default(true),
  limit: z.number().int().min(1).max(MAX_CRAWL_LIMIT).default(DEFAULT_CRAWL_LIMIT),
  crawlEntireDomain: z.boolean().default(false),
  allowBackwardLinks: z.boolean().optional(),
  allowExternalLinks: z.boolean().default(false),
  allowSubdomains: z.boolean().default(false),
  ignoreRobotsTxt: z.boolean().default(false),
  robotsUserAgent: z.string().max(256).optional(),
  /** Seconds between requests to the site; robots.txt's crawl-delay applies when absent. */
  delay: z.number().min(0).max(600).optional(),
  maxConcurrency: z.number().int().min(1).max(1000).optional(),
  webhook: webhookSchema.optional(),
  scrapeOptions: scrapeOptionsSchema.prefault({}),
  zeroDataRetention: z.boolean().default(false),
  integration: z.string().max(256).optional(),
  origin: z.string().max(256).optional(),
});

export type CrawlRequest = z.output<typeof crawlRequestSchema>;

export const batchRequestSchema = z
  .looseObject({
    urls: z.array(z.string().max(8192)).min(1).max(MAX_BATCH_URLS),
    ...scrapeOptionsShape,
    webhook: webhookSchema.optional(),
    appendToId: z.string().uuid().optional(),
    ignoreInvalidURLs: z.boolean().default(true),
    maxConcurrency: z.number().int().min(1).max(1000).optional(),
  })
  .superRefine(crossFieldChecks);

export type BatchRequest = z.output<typeof batchRequestSchema>;

/** What a crawl keeps of its request: everything that steers discovery, and the page options. */
export interface CrawlPlan {
  includePaths: string[];
  excludePaths: string[];
  regexOnFullURL: boolean;
  maxDiscoveryDepth?: number;
  sitemap: 'include' | 'skip' | 'only';
  ignoreQueryParameters: boolean;
  crawlEntireDomain: boolean;
  allowExternalLinks: boolean;
  allowSubdomains: boolean;
  ignoreRobotsTxt: boolean;
  delaySeconds?: number;
  maxConcurrency?: number;
  /** Scrape options for every page, as validated. */
  scrapeOptions: z.output<typeof scrapeOptionsSchema>;
  /** Where the job was requested, so file links in its documents (screenshots) are absolute. */
  filesBaseUrl?: string;
}

export function crawlPlanOf(r: CrawlRequest): CrawlPlan {
  const plan: CrawlPlan = {
    includePaths: r.includePaths,
    excludePaths: r.excludePaths,
    regexOnFullURL: r.regexOnFullURL,
    sitemap: r.ignoreSitemap ? 'skip' : r.sitemap,
    ignoreQueryParameters: r.ignoreQueryParameters,
    crawlEntireDomain: r.crawlEntireDomain || r.allowBackwardLinks === true,
    allowExternalLinks: r.allowExternalLinks,
    allowSubdomains: r.allowSubdomains,
    ignoreRobotsTxt: r.ignoreRobotsTxt,
    scrapeOptions: { ...r.scrapeOptions, zeroDataRetention: r.zeroDataRetention || r.scrapeOptions.zeroDataRetention },
  };
  const depth = r.maxDiscoveryDepth ?? r.maxDepth;
  if (depth !== undefined) plan.maxDiscoveryDepth = depth;
  if (r.delay !== undefined) plan.delaySeconds = r.delay;
  if (r.maxConcurrency !== undefined) plan.maxConcurrency = r.maxConcurrency;
  return plan;
}
