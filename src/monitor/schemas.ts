/**
 * Request schemas of the monitor API. Bounds follow the interface (search queries, windows,
 * result caps, domain and recipient lists); cross-field rules that need the stored monitor too
 * (a search target needs a goal) are checked by the service after a PATCH is merged.
 */
import { z } from 'zod';
import { crawlRequestSchema } from '../crawl/options.js';
import { scrapeOptionsSchema } from '../scrape/options.js';
import { monitorWebhookSchema } from '../webhooks/schema.js';
import { cronError, isTimeZone, textToCron } from './schedule.js';

export const SEARCH_WINDOWS = ['5m', '15m', '1h', '6h', '24h', '7d'] as const;
export const MAX_TARGETS = 50;
export const MAX_TARGET_URLS = 1000;
export const DEFAULT_RETENTION_DAYS = 30;
export const MAX_RETENTION_DAYS = 365;

const url = z.string().min(1).max(8192);
const domain = z.string().min(1).max(253);
// Scrape options are validated here and stored as written, so reads give back what was sent.
const scrapeOptions = z.record(z.string(), z.unknown()).superRefine((v, ctx) => {
  const r = scrapeOptionsSchema.safeParse(v);
  if (!r.success) for (const i of r.error.issues) ctx.addIssue({ ...i, path: i.path } as z.core.$ZodRawIssue);
});
const crawlOptionsSchema = crawlRequestSchema.omit({ url: true, webhook: true, scrapeOptions: true });
const crawlOptions = z.record(z.string(), z.unknown()).superRefine((v, ctx) => {
  const r = crawlOptionsSchema.safeParse(v);
  if (!r.success) for (const i of r.error.issues) ctx.addIssue({ ...i, path: i.path } as z.core.$ZodRawIssue);
});
const targetId = z.string().uuid().optional();

const scrapeTarget = z.looseObject({
  id: targetId,
  type: z.literal('scrape'),
  urls: z.array(url).min(1).max(MAX_TARGET_URLS),
  scrapeOptions: scrapeOptions.optional(),
});
const crawlTarget = z.looseObject({
  id: targetId,
  type: z.literal('crawl'),
  url,
  crawlOptions: crawlOptions.optional(),
  scrapeOptions: scrapeOptions.optional(),
});
const searchTarget = z.looseObject({
  id: targetId,
  type: z.literal('search'),
  queries: z.array(z.string().min(1).max(256)).min(1).max(12),
  searchWindow: z.enum(SEARCH_WINDOWS).default('24h'),
  includeDomains: z.array(domain).max(50).optional(),
  excludeDomains: z.array(domain).max(50).optional(),
  maxResults: z.number().int().min(1).max(50).default(10),
});

export const targetSchema = z.discriminatedUnion('type', [scrapeTarget, crawlTarget, searchTarget]);
export type TargetInput = z.output<typeof targetSchema>;
export type ScrapeTarget = z.output<typeof scrapeTarget> & { id: string };
export type CrawlTarget = z.output<typeof crawlTarget> & { id: string };
export type SearchTarget = z.output<typeof searchTarget> & { id: string };
export type Target = ScrapeTarget | CrawlTarget | SearchTarget;

const targets = z
  .array(targetSchema)
  .min(1)
  .max(MAX_TARGETS)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((t, i) => {
      if (!t.id) return;
      if (seen.has(t.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: 'Target ids must be unique within a monitor' });
      seen.add(t.id);
    });
  });

/** `{cron}` or `{text}` (exactly one) and an optional IANA `timezone`; text becomes cron. */
export const scheduleSchema = z
  .looseObject({
    cron: z.string().min(1).max(256).optional(),
    text: z.string().min(1).max(256).optional(),
    timezone: z.string().min(1).max(64).optional(),
  })
  .superRefine((s, ctx) => {
    if ((s.cron === undefined) === (s.text === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'Give exactly one of schedule.cron or schedule.text' });
    }
    if (s.cron !== undefined) {
      const err = cronError(s.cron);
      if (err) ctx.addIssue({ code: 'custom', path: ['cron'], message: err });
    }
    if (s.text !== undefined && textToCron(s.text) === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['text'],
        message: "Schedule text not understood; try 'every 30 minutes', 'hourly', 'daily at 9:00', 'every monday at 8am', or give schedule.cron",
      });
    }
    if (s.timezone !== undefined && !isTimeZone(s.timezone)) {
      ctx.addIssue({ code: 'custom', path: ['timezone'], message: 'Unknown time zone; expected an IANA name such as Europe/Berlin or UTC' });
    }
  })
  .transform((s) => ({ cron: s.cron?.trim().replace(/\s+/g, ' ') ?? textToCron(s.text!)!, text: s.text ?? null, timezone: s.timezone ?? null }));

export type ScheduleInput = z.output<typeof scheduleSchema>;

export const notificationSchema = z.looseObject({
  email: z
    .looseObject({
      enabled: z.boolean().default(false),
      recipients: z.array(z.email()).max(25).default([]),
      includeDiffs: z.boolean().default(false),
    })
    .optional(),
});
export type NotificationConfig = z.output<typeof notificationSchema>;

const name = z.string().trim().min(1).max(256);
const retentionDays = z.number().int().min(1).max(MAX_RETENTION_DAYS);
const goal = z.string().max(4000);

export const createMonitorSchema = z.looseObject({
  name,
  schedule: scheduleSchema,
  targets,
  webhook: monitorWebhookSchema.optional(),
  notification: notificationSchema.optional(),
  retentionDays: retentionDays.default(DEFAULT_RETENTION_DAYS),
  goal: goal.optional(),
  judgeEnabled: z.boolean().default(true),
  origin: z.string().max(256).optional(),
});
export type CreateMonitor = z.output<typeof createMonitorSchema>;

export const updateMonitorSchema = z.looseObject({
  name: name.optional(),
  status: z.enum(['active', 'paused']).optional(),
  schedule: scheduleSchema.optional(),
  targets: targets.optional(),
  webhook: monitorWebhookSchema.nullable().optional(),
  notification: notificationSchema.nullable().optional(),
  retentionDays: retentionDays.optional(),
  goal: goal.nullable().optional(),
  judgeEnabled: z.boolean().optional(),
  origin: z.string().max(256).optional(),
});
export type UpdateMonitor = z.output<typeof updateMonitorSchema>;

export const PAGE_STATUSES = ['same', 'new', 'changed', 'removed', 'error'] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

export const listQuery = z.looseObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const checkQuery = z.looseObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
  status: z.enum(PAGE_STATUSES).optional(),
});
// Monitor and check ids are UUIDs: anything else is a malformed request (400), not an unknown id.
const id = z.guid({ message: 'Expected a UUID' });
export const monitorParams = z.object({ monitorId: id });
export const checkParams = z.object({ monitorId: id, checkId: id });
