/**
 * The error catalog: every error the API can answer with, in one table. Routes and the
 * pipeline throw `ApiError`s built from these rows; the HTTP layer turns them into
 * `{success:false, error, code?, details?}` bodies. Nothing else decides a status code.
 */

export interface CatalogRow {
  status: number;
  error: string;
  code?: string;
  /** Whether a client may retry the same request (seed retry rules). */
  retryable: boolean;
}

const row = (status: number, error: string, code: string | undefined, retryable: boolean): CatalogRow =>
  code === undefined ? { status, error, retryable } : { status, error, code, retryable };

/**
 * Seconds a client should wait before retrying a 429 or 503 when the thrower knows no better
 * figure: the retry rules ask for `Retry-After` on every such answer, so one is always sent.
 */
const DEFAULT_RETRY_AFTER_SECONDS: Readonly<Record<number, number>> = { 429: 10, 503: 10 };

export const catalog = {
  BAD_REQUEST: row(400, 'Bad Request', 'BAD_REQUEST', false),
  BAD_REQUEST_INVALID_JSON: row(400, 'Bad request, malformed JSON', 'BAD_REQUEST_INVALID_JSON', false),
  INVALID_URL: row(400, 'Invalid URL', 'INVALID_URL', false),
  UNSUPPORTED_OPTION: row(400, 'Bad Request', 'UNSUPPORTED_OPTION', false),
  MODEL_NOT_CONFIGURED: row(400, 'This option needs a language model, and none is configured on this server', 'MODEL_NOT_CONFIGURED', false),
  ZDR_NOT_SUPPORTED: row(400, 'Zero data retention is enabled for this team', 'ZDR_NOT_SUPPORTED', false),
  UNAUTHORIZED: row(401, 'Unauthorized: Invalid token', undefined, false),
  PAYMENT_REQUIRED: row(402, 'Payment Required: Insufficient credits', undefined, false),
  FORBIDDEN: row(403, 'Forbidden', undefined, false),
  URL_BLOCKED: row(403, 'This URL is not allowed: it resolves to a private, loopback or link-local address', 'URL_BLOCKED', false),
  SCRAPE_PROMPT_INJECTION_DETECTED: row(403, 'Forbidden', 'SCRAPE_PROMPT_INJECTION_DETECTED', false),
  NOT_FOUND: row(404, 'Not Found', 'NOT_FOUND', false),
  JOB_NOT_FOUND: row(404, 'Job not found', 'JOB_NOT_FOUND', false),
  JOB_EXPIRED: row(404, 'Job expired', 'JOB_EXPIRED', false),
  BROWSER_SESSION_NOT_FOUND: row(404, 'Browser session not found.', 'BROWSER_SESSION_NOT_FOUND', false),
  FILE_NOT_FOUND: row(404, 'File not found or link expired', 'FILE_NOT_FOUND', false),
  SCRAPE_NO_CACHED_DATA: row(404, 'No cached data for this URL within minAge', 'SCRAPE_NO_CACHED_DATA', false),
  SCRAPE_LOCKDOWN_CACHE_MISS: row(404, 'Lockdown is on and this URL is not in the cache', 'SCRAPE_LOCKDOWN_CACHE_MISS', false),
  METHOD_NOT_ALLOWED: row(405, 'Method Not Allowed', undefined, false),
  SCRAPE_TIMEOUT: row(408, 'Scrape timed out', 'SCRAPE_TIMEOUT', true),
  MAP_TIMEOUT: row(408, 'Map timed out', 'MAP_TIMEOUT', true),
  CONFLICT: row(409, 'Conflict', 'CONFLICT', false),
  IDEMPOTENCY_KEY_USED: row(409, 'Idempotency key already used', 'IDEMPOTENCY_KEY_USED', false),
  PAYLOAD_TOO_LARGE: row(413, 'Payload Too Large', undefined, false),
  UNSUPPORTED_MEDIA_TYPE: row(415, 'Unsupported Media Type', undefined, false),
  UNPROCESSABLE_ENTITY: row(422, 'Unprocessable Entity', undefined, false),
  RATE_LIMIT_EXCEEDED: row(429, 'Rate limit exceeded', undefined, true),
  CONCURRENCY_LIMIT_REACHED: row(429, 'Concurrency limit reached', undefined, true),
  INTERNAL: row(500, 'Internal Server Error', 'UNKNOWN_ERROR', true),
  SCRAPE_ALL_ENGINES_FAILED: row(500, 'All scraping engines failed', 'SCRAPE_ALL_ENGINES_FAILED', true),
  SCRAPE_SSL_ERROR: row(500, 'TLS error while connecting to the site', 'SCRAPE_SSL_ERROR', true),
  SCRAPE_SITE_ERROR: row(500, 'The site could not be fetched', 'SCRAPE_SITE_ERROR', true),
  SCRAPE_DNS_RESOLUTION_ERROR: row(500, 'DNS resolution failed for the site', 'SCRAPE_DNS_RESOLUTION_ERROR', true),
  SCRAPE_UNSUPPORTED_FILE_ERROR: row(422, 'Unsupported file type', 'SCRAPE_UNSUPPORTED_FILE_ERROR', false),
  SCRAPE_ACTION_ERROR: row(500, 'A browser action failed', 'SCRAPE_ACTION_ERROR', false),
  SCRAPE_PDF_PREFETCH_FAILED: row(500, 'PDF prefetch failed', 'SCRAPE_PDF_PREFETCH_FAILED', true),
  SCRAPE_PDF_INSUFFICIENT_TIME_ERROR: row(500, 'Insufficient time to process PDF', 'SCRAPE_PDF_INSUFFICIENT_TIME_ERROR', true),
  SCRAPE_PDF_ANTIBOT_ERROR: row(500, 'PDF blocked by anti-bot protection', 'SCRAPE_PDF_ANTIBOT_ERROR', true),
  SCRAPE_ZDR_VIOLATION_ERROR: row(500, 'Zero data retention violation', 'SCRAPE_ZDR_VIOLATION_ERROR', false),
  SCRAPE_RACED_REDIRECT_ERROR: row(500, 'Redirect raced another request', 'SCRAPE_RACED_REDIRECT_ERROR', true),
  AGENT_PASSTHROUGH_FAILED: row(500, 'Failed to passthrough agent request.', undefined, true),
  BAD_GATEWAY: row(502, 'Bad Gateway', undefined, true),
  SERVICE_UNAVAILABLE: row(503, 'Service Unavailable', undefined, true),
  SEARCH_PROVIDER_FAILED: row(503, 'The search provider could not answer', 'SEARCH_PROVIDER_FAILED', true),
  GATEWAY_TIMEOUT: row(504, 'Gateway Timeout', undefined, true),
} as const satisfies Record<string, CatalogRow>;

export type ErrorKey = keyof typeof catalog;

export class ApiError extends Error {
  readonly key: ErrorKey;
  readonly status: number;
  readonly code: string | undefined;
  readonly retryable: boolean;
  readonly details: unknown;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(key: ErrorKey, opts: { message?: string; details?: unknown; headers?: Record<string, string>; cause?: unknown } = {}) {
    const entry: CatalogRow = catalog[key];
    super(opts.message ?? entry.error, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ApiError';
    this.key = key;
    this.status = entry.status;
    this.code = entry.code;
    this.retryable = entry.retryable;
    this.details = opts.details;
    const headers = opts.headers ?? {};
    const wait = DEFAULT_RETRY_AFTER_SECONDS[entry.status];
    const hasRetryAfter = Object.keys(headers).some((h) => h.toLowerCase() === 'retry-after');
    this.headers = wait !== undefined && !hasRetryAfter ? { ...headers, 'Retry-After': String(wait) } : headers;
  }

  toBody(): { success: false; error: string; code?: string; details?: unknown } {
    const body: { success: false; error: string; code?: string; details?: unknown } = { success: false, error: this.message };
    if (this.code !== undefined) body.code = this.code;
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/**
 * Marks a schema issue (as its `params`) as one that a catalog row other than `BAD_REQUEST`
 * answers: a body whose every issue carries the same key gets that row, with the issues as
 * `details`. A malformed URL is an `INVALID_URL` wherever in the body it sits.
 */
export const issueParams = (key: ErrorKey): { catalogKey: ErrorKey } => ({ catalogKey: key });

/** The catalog key every issue agrees on (see `issueParams`), or undefined. */
export function issuesCatalogKey(issues: readonly { params?: unknown }[]): ErrorKey | undefined {
  let key: ErrorKey | undefined;
  for (const i of issues) {
    const k = (i.params as { catalogKey?: ErrorKey } | undefined)?.catalogKey;
    if (k === undefined || (key !== undefined && k !== key)) return undefined;
    key = k;
  }
  return key;
}
