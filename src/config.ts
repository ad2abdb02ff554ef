/**
 * Configuration: read from the environment once, validated, typed, frozen. Every setting has its
 * environment name and default here and nowhere else; the README's table mirrors this file.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  /** PostgreSQL schema for Gleaner's tables (default: the connection's search path). */
  DATABASE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'Expected a lower-case SQL identifier').optional(),
  /** Prefix of every Redis key, so several installations can share one Redis. */
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/).default('gleaner'),
  GLEANER_API_KEY: z.string().min(8).optional(),
  /** Comma-separated CIDR ranges the SSRF guard lets through, e.g. `127.0.0.0/8,::1/128`. */
  ALLOW_PRIVATE_ADDRESSES: list.default([]),
  CHROMIUM_PATH: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Public base URL used in links the API hands out (blob URLs, `next`); default: from the request. */
  PUBLIC_URL: z.string().url().optional(),
  /** Largest JSON request body accepted, in bytes. */
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
  /** Largest response body a scrape downloads, in bytes. */
  MAX_RESPONSE_BYTES: z.coerce.number().int().positive().default(25 * 1024 * 1024),
  /** Outbound proxies (http://, https://, socks5://). `auto` tries basic first, then enhanced. */
  PROXY_BASIC: z.string().url().optional(),
  PROXY_ENHANCED: z.string().url().optional(),
  /** Per-country proxies: `DE=socks5://de-proxy:1080,FR=http://fr-proxy:3128`. */
  PROXY_COUNTRIES: list.default([]),
  /** Per-minute request limit per team for the default plan (scrape-type endpoints). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(300),
  /** Open browser contexts kept in the pool. */
  BROWSER_CONTEXTS: z.coerce.number().int().min(1).max(64).default(4),
  /** Interactive browser sessions (and interact sessions) a team may have open at once. */
  BROWSER_SESSIONS_PER_TEAM: z.coerce.number().int().min(1).max(1000).default(5),
  /** Memory limit of the sandbox running a session's `execute` code, in MB. */
  BROWSER_EXECUTE_MEMORY_MB: z.coerce.number().int().min(8).max(4096).default(64),
  /**
   * Hand out a `cdpUrl` per browser session, as the SDK's types promise. Safe by construction:
   * each such session gets a Chromium of its own (so a client sees no other session's targets),
   * behind the guard proxy and the relay's command filter. `false` keeps sessions in the shared
   * Chromium, which is lighter (no process per session) but has no `cdpUrl`.
   */
  BROWSER_CDP: bool.default(true),
  /** Lifetime of signed blob URLs, in seconds. */
  FILE_URL_TTL_SECONDS: z.coerce.number().int().positive().default(24 * 3600),
  /** Disable the in-process browser entirely (scrapes needing it fail with a clear error). */
  DISABLE_BROWSER: bool.default(false),
  /** Page threads for plain HTTP fetches, extraction and markdown; 0 runs them on the main thread. Default: cores - 1, at most 4. */
  TRANSFORM_THREADS: z.coerce.number().int().min(0).max(64).default(Math.max(0, Math.min(4, os.availableParallelism() - 1))),
  /** Page threads that read long PDFs' text layers in parallel; 0 (default) reads every page on the request's thread. */
  PDF_THREADS: z.coerce.number().int().min(0).max(16).default(0),
  /** Pages a worker process scrapes at once, across all jobs. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
  /** Links a crawl takes from one page, in document order; the rest of a huge page's links are not followed. */
  CRAWL_MAX_LINKS_PER_PAGE: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** Requests one crawl keeps in flight to one host, unless the crawl sets `maxConcurrency`. */
  HOST_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  /**
   * How long a worker holds a task before another may take it over (a dead worker's tasks).
   * Unset, each task kind's lease from the job catalog applies.
   */
  JOB_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).optional(),
  /** How long crawl and batch results stay readable, in hours. */
  JOB_TTL_HOURS: z.coerce.number().positive().max(24 * 365).default(24),
  /** How long a cached page may serve `maxAge` requests, in hours; older entries are deleted. */
  CACHE_TTL_HOURS: z.coerce.number().positive().max(24 * 365).default(7 * 24),
  /** Pages whose Document is larger are not cached: storing tens of MB costs more than a fresh fetch. */
  CACHE_MAX_DOCUMENT_MB: z.coerce.number().positive().max(1024).default(8),
  /** SMTP server for monitor email, e.g. `smtp://user:pass@mail.example.com:587` (smtps:// for TLS). */
  SMTP_URL: z.string().url().optional(),
  /** Sender address of monitor email. */
  SMTP_FROM: z.string().min(3).max(320).default('Gleaner <gleaner@localhost>'),
  /** Monitor checks a worker process runs at once. */
  MONITOR_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  /** How often each worker looks for monitors that are due, in milliseconds. */
  MONITOR_TICK_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** Base URL of a SearXNG (or searx) instance for web, news and image search; SEARXNG_ENDPOINT is read too. */
  SEARXNG_URL: z.string().url().optional(),
  SEARXNG_ENDPOINT: z.string().url().optional(),
  /** Engines of that instance to search with (comma-separated); default: the instance's own defaults. */
  SEARXNG_ENGINES: list.default([]),
  /** Index every fetched page for search (the local index); off makes `provider: "local"` find nothing new. */
  SEARCH_INDEX: bool.default(true),
  /** Threat protection's URL classifier: POST {url} -> {riskScore 0..100, categories?} (README, "Threat protection"). */
  THREAT_CLASSIFIER_URL: z.string().url().optional(),
  /** How long the classifier may take per URL before the team's failurePolicy decides. */
  THREAT_CLASSIFIER_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3000),
  /** Domain-list files (comma-separated) for the offline classifier, used when THREAT_CLASSIFIER_URL is not set. */
  THREAT_DOMAIN_LISTS: list.default([]),
  /** Any server speaking the OpenAI chat-completions protocol (Ollama, vLLM, llama.cpp, LM Studio, a gateway, OpenAI), e.g. `http://127.0.0.1:11434/v1`. */
  MODEL_BASE_URL: z.string().url().optional(),
  MODEL_API_KEY: z.string().min(1).optional(),
  /** The model every model-backed feature uses. */
  MODEL_NAME: z.string().min(1).max(256).optional(),
  /** A cheaper model for small steps (prompt-injection checks, clean-up); default MODEL_NAME. */
  MODEL_SMALL_NAME: z.string().min(1).max(256).optional(),
  /** Longest one model call may take (each attempt); a request's own timeout may cut it shorter. */
  MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /** Model calls in flight per team. */
  MODEL_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(4),
  /** Tokens of page text per prompt; longer pages are split and the answers merged. */
  MODEL_CONTEXT_TOKENS: z.coerce.number().int().min(256).max(2_000_000).default(8000),
  /** The names Firecrawl's self-hosted edition reads, so an existing `.env` keeps working. */
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  OLLAMA_BASE_URL: z.string().url().optional(),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  databaseSchema: string | undefined;
  redisPrefix: string;
  bootstrapApiKey: string | undefined;
  allowPrivateRanges: string[];
  chromiumPath: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  publicUrl: string | undefined;
  bodyLimitBytes: number;
  maxResponseBytes: number;
  proxies: { basic?: string; enhanced?: string; countries: Record<string, string> };
  rateLimitPerMinute: number;
  browserContexts: number;
  browserSessionsPerTeam: number;
  browserExecuteMemoryBytes: number;
  browserCdp: boolean;
  fileUrlTtlSeconds: number;
  disableBrowser: boolean;
  workerConcurrency: number;
  hostConcurrency: number;
  crawlMaxLinksPerPage: number;
  jobTtlMs: number;
  cacheTtlMs: number;
  cacheMaxDocumentChars: number;
  jobLeaseMs: number | undefined;
  transformThreads: number;
  pdfThreads: number;
  smtpUrl: string | undefined;
  smtpFrom: string;
  monitorConcurrency: number;
  monitorTickMs: number;
  searxngUrl: string | undefined;
  searxngEngines: string[];
  searchIndex: boolean;
  threatClassifierUrl: string | undefined;
  threatClassifierTimeoutMs: number;
  threatDomainLists: string[];
  /** The language model; undefined runs the offline algorithms (src/llm). */
  model: ModelSettings | undefined;
}

export interface ModelSettings {
  baseUrl: string | undefined;
  apiKey: string;
  name: string;
  smallName: string | undefined;
  /** Longest a single call may take (each attempt; the request's own deadline may be shorter). */
  timeoutMs: number;
  /** Calls in flight per team. */
  concurrency: number;
  /** Tokens of page content one prompt carries; longer pages are split. */
  contextTokens: number;
  /** Retries after a 429, 5xx or a connection failure (the provider's default when absent). */
  maxRetries?: number;
}

/**
 * The model settings, from Gleaner's names first and then Firecrawl's: MODEL_BASE_URL, else
 * OPENAI_BASE_URL, else OLLAMA_BASE_URL (its OpenAI-compatible `/v1`); with only an OpenAI key,
 * OpenAI itself. No base URL and no key: no model.
 */
function modelSettings(e: z.output<typeof envSchema>): ModelSettings | undefined {
  const ollama = e.OLLAMA_BASE_URL ? e.OLLAMA_BASE_URL.replace(/\/+$/, '').replace(/(\/v1)?$/, '/v1') : undefined;
  const baseUrl = e.MODEL_BASE_URL ?? e.OPENAI_BASE_URL ?? ollama;
  const apiKey = e.MODEL_API_KEY ?? e.OPENAI_API_KEY;
  if (!baseUrl && !apiKey) return undefined;
  // Only OpenAI itself has a model everyone can name; any other server needs MODEL_NAME.
  const name = e.MODEL_NAME ?? (baseUrl ? undefined : 'gpt-4o-mini');
  if (!name) throw new ConfigError(['MODEL_NAME: required when a model server is configured (MODEL_BASE_URL, OPENAI_BASE_URL or OLLAMA_BASE_URL)']);
  return {
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    // Local servers take any key; the client insists on one.
    apiKey: apiKey ?? 'none',
    name,
    smallName: e.MODEL_SMALL_NAME,
    timeoutMs: e.MODEL_TIMEOUT_MS,
    concurrency: e.MODEL_CONCURRENCY,
    contextTokens: e.MODEL_CONTEXT_TOKENS,
  };
}

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

function parseCountryProxies(entries: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    const country = entry.slice(0, eq).trim().toUpperCase();
    const url = entry.slice(eq + 1).trim();
    if (eq < 1 || !/^[A-Z]{2}$/.test(country) || !URL.canParse(url)) {
      throw new ConfigError([`PROXY_COUNTRIES: "${entry}" is not COUNTRY=URL`]);
    }
    out[country] = url;
  }
  return out;
}

/** Reads configuration from an environment (default `process.env`), with overrides for tests. */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const known = Object.fromEntries(
    Object.keys(envSchema.shape)
      .map((k) => [k, env[k]] as const)
      .filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(known);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const config: Config = {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    redisPrefix: e.REDIS_PREFIX,
    bootstrapApiKey: e.GLEANER_API_KEY,
    allowPrivateRanges: e.ALLOW_PRIVATE_ADDRESSES,
    chromiumPath: e.CHROMIUM_PATH,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    maxResponseBytes: e.MAX_RESPONSE_BYTES,
    proxies: {
      ...(e.PROXY_BASIC ? { basic: e.PROXY_BASIC } : {}),
      ...(e.PROXY_ENHANCED ? { enhanced: e.PROXY_ENHANCED } : {}),
      countries: parseCountryProxies(e.PROXY_COUNTRIES),
    },
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    browserContexts: e.BROWSER_CONTEXTS,
    browserSessionsPerTeam: e.BROWSER_SESSIONS_PER_TEAM,
    browserExecuteMemoryBytes: e.BROWSER_EXECUTE_MEMORY_MB * 1024 * 1024,
    browserCdp: e.BROWSER_CDP,
    fileUrlTtlSeconds: e.FILE_URL_TTL_SECONDS,
    disableBrowser: e.DISABLE_BROWSER,
    transformThreads: e.TRANSFORM_THREADS,
    pdfThreads: e.PDF_THREADS,
    workerConcurrency: e.WORKER_CONCURRENCY,
    hostConcurrency: e.HOST_CONCURRENCY,
    crawlMaxLinksPerPage: e.CRAWL_MAX_LINKS_PER_PAGE,
    jobTtlMs: Math.round(e.JOB_TTL_HOURS * 3600 * 1000),
    cacheTtlMs: Math.round(e.CACHE_TTL_HOURS * 3600 * 1000),
    cacheMaxDocumentChars: Math.round(e.CACHE_MAX_DOCUMENT_MB * 1024 * 1024),
    jobLeaseMs: e.JOB_LEASE_MS,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    monitorConcurrency: e.MONITOR_CONCURRENCY,
    monitorTickMs: e.MONITOR_TICK_MS,
    searxngUrl: e.SEARXNG_URL ?? e.SEARXNG_ENDPOINT,
    searxngEngines: e.SEARXNG_ENGINES,
    searchIndex: e.SEARCH_INDEX,
    threatClassifierUrl: e.THREAT_CLASSIFIER_URL,
    threatClassifierTimeoutMs: e.THREAT_CLASSIFIER_TIMEOUT_MS,
    threatDomainLists: e.THREAT_DOMAIN_LISTS,
    model: modelSettings(e),
    ...overrides,
  };
  return Object.freeze(config);
}
