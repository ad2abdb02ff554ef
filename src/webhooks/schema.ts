/**
 * The `webhook` request field shared by crawl, batch scrape, monitors and agents: a bare URL or
 * `{url, headers?, metadata?, events?}`. What passes here is stored and later delivered as is,
 * so everything that could make a delivery impossible is refused now, with a 400, rather than
 * discovered on every retry.
 */
import { z } from 'zod';
import { issueParams } from '../errors.js';

/** Events of the page-collecting jobs (crawl, batch scrape, extract). */
export const JOB_EVENTS = ['started', 'page', 'completed', 'failed'] as const;
export const AGENT_EVENTS = ['started', 'action', 'completed', 'failed', 'cancelled'] as const;
export const MONITOR_EVENTS = ['monitor.page', 'monitor.check.completed'] as const;

export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOK_HEADERS = 50;
export const MAX_WEBHOOK_HEADER_VALUE = 4096;
export const MAX_WEBHOOK_METADATA_BYTES = 16 * 1024;

/**
 * Headers a caller may not set. The framing ones would corrupt the request undici builds from
 * the body, `host` would send the request to one server under another's name, and the
 * signature is ours to compute. Refused rather than dropped, so nobody wonders why a header
 * never arrived. `content-type` is not listed: it is always `application/json`, and a caller's
 * value is overridden quietly since it can only ever have meant the same thing.
 */
export const RESERVED_WEBHOOK_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
  'x-firecrawl-signature',
]);

// RFC 9110 token characters; undici throws on anything else, which would fail every attempt.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII, tab and obs-text; CR/LF/NUL would allow header injection.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export interface WebhookTarget {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, unknown>;
  /** Absent means every event of the job. */
  events?: string[];
}

const urlField = z
  .string()
  .trim()
  .min(1)
  .max(MAX_WEBHOOK_URL_LENGTH)
  .superRefine((value, ctx) => {
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Invalid webhook URL', params: issueParams('INVALID_URL') });
      return;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: 'Webhook URL must use http or https', params: issueParams('INVALID_URL') });
    }
    // undici does not turn URL credentials into a header, and the URL is logged and shown in the
    // delivery log; an Authorization header is where they work and stay out of sight.
    if (u.username || u.password) {
      ctx.addIssue({ code: 'custom', message: 'Webhook URL must not contain credentials; send them in webhook.headers' });
    }
  });

const headersField = z
  .record(z.string(), z.string().max(MAX_WEBHOOK_HEADER_VALUE))
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > MAX_WEBHOOK_HEADERS) {
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_WEBHOOK_HEADERS} webhook headers are allowed` });
    }
    const seen = new Set<string>();
    for (const name of names) {
      const lower = name.toLowerCase();
      if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'Invalid header name' });
      else if (RESERVED_WEBHOOK_HEADERS.has(lower)) ctx.addIssue({ code: 'custom', path: [name], message: `Header ${name} is set by the server and may not be given` });
      else if (seen.has(lower)) ctx.addIssue({ code: 'custom', path: [name], message: `Header ${name} is given twice` });
      if (!HEADER_VALUE.test(headers[name]!)) ctx.addIssue({ code: 'custom', path: [name], message: 'Header value contains control characters' });
      seen.add(lower);
    }
  });

const metadataField = z.record(z.string(), z.unknown()).superRefine((metadata, ctx) => {
  let size: number;
  try {
    size = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
  } catch {
    ctx.addIssue({ code: 'custom', message: 'Webhook metadata must be JSON' });
    return;
  }
  if (size > MAX_WEBHOOK_METADATA_BYTES) {
    ctx.addIssue({ code: 'custom', message: `Webhook metadata must be at most ${MAX_WEBHOOK_METADATA_BYTES} bytes of JSON` });
  }
});

/** A webhook field whose `events` may only name the given events. */
export function webhookSchemaFor<const E extends readonly [string, ...string[]]>(events: E) {
  const object = z.object({
    url: urlField,
    headers: headersField.default({}),
    metadata: metadataField.default({}),
    events: z.array(z.enum(events)).max(events.length * 4).optional(),
  });
  // The shorthand becomes the object first, so errors carry the same paths in both forms.
  return z
    .preprocess((v) => (typeof v === 'string' ? { url: v } : v), object)
    .transform((t): WebhookTarget => ({
      url: t.url,
      headers: t.headers,
      metadata: t.metadata,
      ...(t.events !== undefined ? { events: [...new Set<string>(t.events)] } : {}),
    }));
}

/** The crawl and batch scrape field: events `started`, `page`, `completed`, `failed`. */
export const webhookSchema = webhookSchemaFor(JOB_EVENTS);
export const agentWebhookSchema = webhookSchemaFor(AGENT_EVENTS);
export const monitorWebhookSchema = webhookSchemaFor(MONITOR_EVENTS);
