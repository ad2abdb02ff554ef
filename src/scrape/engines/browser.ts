/**
 * The browser engine: one long-lived Chromium, a bounded pool of reusable contexts keyed by
 * their emulation settings, and an SSRF boundary in two layers.
 *
 * Layer one is request routing: every request a page makes is held until the guard accepts its
 * URL. Routing alone is not enough, because Playwright follows redirect hops without asking the
 * route handler again, and because Chromium resolves names itself after the guard did. So every
 * context also sends all its traffic through a small proxy in this process (layer two), which
 * resolves the name, checks the address it is about to connect to, and only then connects —
 * directly, or through the operator's upstream proxy.
 */
import { Buffer } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import dns from 'node:dns';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import {
  devices,
  errors as pwErrors,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Download,
  type Frame,
  type Page,
  type Request as PwRequest,
  type Response as PwResponse,
  type Route,
} from 'playwright-core';
import { ApiError, isApiError } from '../../errors.js';
import { decodeBody, isTextual } from './charset.js';
import { launchChromium } from './chromium.js';
import type { Engine, FetchRequest, FetchResult, LocationRequest, UrlGuard } from '../types.js';

export interface BrowserEngineLogger {
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

export interface BrowserEngineOptions {
  executablePath: string;
  /** Browser contexts kept open at most (busy + idle). */
  maxContexts?: number;
  /** A context is closed and replaced after this many fetches, so leaks in it cannot grow. */
  maxUsesPerContext?: number;
  /** Largest main resource kept when the browser downloads it instead of rendering it. */
  maxResponseBytes?: number;
  logger?: BrowserEngineLogger;
}

export interface BrowserEngineStats {
  contextsOpen: number;
  contextsIdle: number;
  pagesOpen: number;
  launched: boolean;
}

const DEFAULT_MAX_CONTEXTS = 4;
const DEFAULT_MAX_USES = 50;
const DEFAULT_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;
const DESKTOP_VIEWPORT = { width: 1920, height: 1080 };
const MOBILE_DEVICE = 'Pixel 7';
/** Network idle is a nicety after `load`; long-polling pages never reach it. */
const NETWORK_IDLE_CAP_MS = 3_000;
/** Left before the deadline for reading the DOM and taking the screenshot. */
const FINISH_RESERVE_MS = 750;
/** How long a timed-out fetch waits for its page to wind down before its context is killed. */
const STOP_GRACE_MS = 1_500;
const RESET_TIMEOUT_MS = 5_000;
const CLOSE_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 15_000;
const HEADERS_TIMEOUT_MS = 2_000;

/** Timezone, default locale and capital of common countries (ISO 3166-1 alpha-2). */
const COUNTRIES: Record<string, { timezone: string; locale: string; lat: number; lon: number }> = {
  US: { timezone: 'America/New_York', locale: 'en-US', lat: 38.9072, lon: -77.0369 },
  CA: { timezone: 'America/Toronto', locale: 'en-CA', lat: 45.4215, lon: -75.6972 },
  MX: { timezone: 'America/Mexico_City', locale: 'es-MX', lat: 19.4326, lon: -99.1332 },
  BR: { timezone: 'America/Sao_Paulo', locale: 'pt-BR', lat: -15.7939, lon: -47.8828 },
  AR: { timezone: 'America/Argentina/Buenos_Aires', locale: 'es-AR', lat: -34.6037, lon: -58.3816 },
  CL: { timezone: 'America/Santiago', locale: 'es-CL', lat: -33.4489, lon: -70.6693 },
  CO: { timezone: 'America/Bogota', locale: 'es-CO', lat: 4.711, lon: -74.0721 },
  PE: { timezone: 'America/Lima', locale: 'es-PE', lat: -12.0464, lon: -77.0428 },
  GB: { timezone: 'Europe/London', locale: 'en-GB', lat: 51.5074, lon: -0.1278 },
  IE: { timezone: 'Europe/Dublin', locale: 'en-IE', lat: 53.3498, lon: -6.2603 },
  DE: { timezone: 'Europe/Berlin', locale: 'de-DE', lat: 52.52, lon: 13.405 },
  FR: { timezone: 'Europe/Paris', locale: 'fr-FR', lat: 48.8566, lon: 2.3522 },
  ES: { timezone: 'Europe/Madrid', locale: 'es-ES', lat: 40.4168, lon: -3.7038 },
  PT: { timezone: 'Europe/Lisbon', locale: 'pt-PT', lat: 38.7223, lon: -9.1393 },
  IT: { timezone: 'Europe/Rome', locale: 'it-IT', lat: 41.9028, lon: 12.4964 },
  NL: { timezone: 'Europe/Amsterdam', locale: 'nl-NL', lat: 52.3676, lon: 4.9041 },
  BE: { timezone: 'Europe/Brussels', locale: 'nl-BE', lat: 50.8503, lon: 4.3517 },
  CH: { timezone: 'Europe/Zurich', locale: 'de-CH', lat: 46.948, lon: 7.4474 },
  AT: { timezone: 'Europe/Vienna', locale: 'de-AT', lat: 48.2082, lon: 16.3738 },
  SE: { timezone: 'Europe/Stockholm', locale: 'sv-SE', lat: 59.3293, lon: 18.0686 },
  NO: { timezone: 'Europe/Oslo', locale: 'nb-NO', lat: 59.9139, lon: 10.7522 },
  DK: { timezone: 'Europe/Copenhagen', locale: 'da-DK', lat: 55.6761, lon: 12.5683 },
  FI: { timezone: 'Europe/Helsinki', locale: 'fi-FI', lat: 60.1699, lon: 24.9384 },
  PL: { timezone: 'Europe/Warsaw', locale: 'pl-PL', lat: 52.2297, lon: 21.0122 },
  CZ: { timezone: 'Europe/Prague', locale: 'cs-CZ', lat: 50.0755, lon: 14.4378 },
  GR: { timezone: 'Europe/Athens', locale: 'el-GR', lat: 37.9838, lon: 23.7275 },
  RU: { timezone: 'Europe/Moscow', locale: 'ru-RU', lat: 55.7558, lon: 37.6173 },
  UA: { timezone: 'Europe/Kyiv', locale: 'uk-UA', lat: 50.4501, lon: 30.5234 },
  TR: { timezone: 'Europe/Istanbul', locale: 'tr-TR', lat: 39.9334, lon: 32.8597 },
  IL: { timezone: 'Asia/Jerusalem', locale: 'he-IL', lat: 31.7683, lon: 35.2137 },
  AE: { timezone: 'Asia/Dubai', locale: 'ar-AE', lat: 24.4539, lon: 54.3773 },
  SA: { timezone: 'Asia/Riyadh', locale: 'ar-SA', lat: 24.7136, lon: 46.6753 },
  EG: { timezone: 'Africa/Cairo', locale: 'ar-EG', lat: 30.0444, lon: 31.2357 },
  NG: { timezone: 'Africa/Lagos', locale: 'en-NG', lat: 9.0765, lon: 7.3986 },
  KE: { timezone: 'Africa/Nairobi', locale: 'en-KE', lat: -1.2921, lon: 36.8219 },
  ZA: { timezone: 'Africa/Johannesburg', locale: 'en-ZA', lat: -25.7479, lon: 28.2293 },
  IN: { timezone: 'Asia/Kolkata', locale: 'en-IN', lat: 28.6139, lon: 77.209 },
  CN: { timezone: 'Asia/Shanghai', locale: 'zh-CN', lat: 39.9042, lon: 116.4074 },
  HK: { timezone: 'Asia/Hong_Kong', locale: 'zh-HK', lat: 22.3193, lon: 114.1694 },
  TW: { timezone: 'Asia/Taipei', locale: 'zh-TW', lat: 25.033, lon: 121.5654 },
  JP: { timezone: 'Asia/Tokyo', locale: 'ja-JP', lat: 35.6762, lon: 139.6503 },
  KR: { timezone: 'Asia/Seoul', locale: 'ko-KR', lat: 37.5665, lon: 126.978 },
  SG: { timezone: 'Asia/Singapore', locale: 'en-SG', lat: 1.3521, lon: 103.8198 },
  MY: { timezone: 'Asia/Kuala_Lumpur', locale: 'ms-MY', lat: 3.139, lon: 101.6869 },
  ID: { timezone: 'Asia/Jakarta', locale: 'id-ID', lat: -6.2088, lon: 106.8456 },
  TH: { timezone: 'Asia/Bangkok', locale: 'th-TH', lat: 13.7563, lon: 100.5018 },
  VN: { timezone: 'Asia/Ho_Chi_Minh', locale: 'vi-VN', lat: 21.0278, lon: 105.8342 },
  PH: { timezone: 'Asia/Manila', locale: 'en-PH', lat: 14.5995, lon: 120.9842 },
  AU: { timezone: 'Australia/Sydney', locale: 'en-AU', lat: -35.2809, lon: 149.13 },
  NZ: { timezone: 'Pacific/Auckland', locale: 'en-NZ', lat: -41.2865, lon: 174.7762 },
};

/** Headers the browser (or the connection) owns; a caller's value would be wrong or dangerous. */
const BROWSER_OWNED_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-connection',
  'user-agent',
  'cookie',
]);

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

const noop = (): void => {};

// ---------------------------------------------------------------------------------------------
// Emulation: what a context is keyed by

interface Emulation {
  key: string;
  mobile: boolean;
  userAgent: string | undefined;
  locale: string | undefined;
  timezoneId: string | undefined;
  geolocation: { latitude: number; longitude: number; accuracy: number } | undefined;
  ignoreHTTPSErrors: boolean;
  upstream: URL | undefined;
}

function planEmulation(req: FetchRequest): Emulation {
  const userAgent = headerValue(req.headers, 'user-agent');
  const country = req.location?.country?.trim().toUpperCase();
  const profile = country ? COUNTRIES[country] : undefined;
  const languages = languagesOf(req.location);
  const locale = languages[0] ?? profile?.locale;
  const geolocation = profile ? { latitude: profile.lat, longitude: profile.lon, accuracy: 100 } : undefined;
  const upstream = parseUpstream(req.proxyUrl);
  const emulation: Omit<Emulation, 'key'> = {
    mobile: req.mobile,
    userAgent: userAgent || undefined,
    locale,
    timezoneId: profile?.timezone,
    geolocation,
    ignoreHTTPSErrors: req.skipTlsVerification,
    upstream,
  };
  const key = JSON.stringify([
    emulation.mobile,
    emulation.userAgent ?? '',
    emulation.locale ?? '',
    emulation.timezoneId ?? '',
    geolocation ? [geolocation.latitude, geolocation.longitude] : '',
    emulation.ignoreHTTPSErrors,
    upstream?.href ?? '',
  ]);
  return { ...emulation, key };
}

function languagesOf(location: LocationRequest | undefined): string[] {
  return (location?.languages ?? []).map((l) => l.trim()).filter((l) => LANGUAGE_TAG.test(l));
}

/** `de-DE, en` -> `de-DE,en;q=0.9`: the order the caller gave, as preferences. */
function acceptLanguage(languages: string[]): string | undefined {
  if (languages.length === 0) return undefined;
  return languages.map((l, i) => (i === 0 ? l : `${l};q=${Math.max(0.1, 1 - i / 10).toFixed(1)}`)).join(',');
}

function parseUpstream(proxyUrl: string | undefined): URL | undefined {
  if (!proxyUrl) return undefined;
  let url: URL;
  try {
    url = new URL(proxyUrl);
  } catch {
    throw new ApiError('SCRAPE_SITE_ERROR', { message: 'The configured proxy URL is not a valid URL' });
  }
  if (!['http:', 'https:', 'socks5:', 'socks5h:'].includes(url.protocol)) {
    throw new ApiError('SCRAPE_SITE_ERROR', { message: `Proxy scheme ${url.protocol} is not supported by the browser engine` });
  }
  return url;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** The caller's headers meant for the target site, minus what the browser must own. */
function siteHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    if (BROWSER_OWNED_HEADERS.has(name) || !HEADER_NAME.test(k) || !HEADER_VALUE.test(String(v))) continue;
    out[name] = String(v);
  }
  return out;
}

function cookiesFromHeader(header: string | undefined, url: string): { name: string; value: string; url: string }[] {
  if (!header) return [];
  const out: { name: string; value: string; url: string }[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (name) out.push({ name, value: part.slice(eq + 1).trim(), url });
  }
  return out;
}

function chromeMajor(version: string): string {
  return /^(\d+)/.exec(version)?.[1] ?? '0';
}

function contextOptions(em: Emulation, proxyServer: string, browserVersion: string): BrowserContextOptions {
  const major = chromeMajor(browserVersion);
  const opts: BrowserContextOptions = {
    proxy: { server: proxyServer },
    ignoreHTTPSErrors: em.ignoreHTTPSErrors,
    // A service worker's fetches are not routed through page/context routes.
    serviceWorkers: 'block',
    acceptDownloads: true,
  };
  if (em.mobile) {
    const device = devices[MOBILE_DEVICE];
    if (!device) throw new Error(`Playwright has no "${MOBILE_DEVICE}" device descriptor`);
    // `screen` is in the descriptor data but not in its published type.
    const screen = (device as { screen?: { width: number; height: number } }).screen;
    Object.assign(opts, {
      viewport: device.viewport,
      ...(screen ? { screen } : {}),
      deviceScaleFactor: device.deviceScaleFactor,
      isMobile: device.isMobile,
      hasTouch: device.hasTouch,
    });
    // The descriptor names a newer Chrome than the one running; a mismatch is a bot signal.
    opts.userAgent = em.userAgent ?? device.userAgent.replace(/Chrome\/[\d.]+/, `Chrome/${major}.0.0.0`);
  } else {
    opts.viewport = DESKTOP_VIEWPORT;
    // Headless Chromium announces itself as "HeadlessChrome" unless told otherwise.
    opts.userAgent = em.userAgent ?? `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
  }
  if (em.locale) opts.locale = em.locale;
  if (em.timezoneId) opts.timezoneId = em.timezoneId;
  if (em.geolocation) {
    opts.geolocation = em.geolocation;
    opts.permissions = ['geolocation'];
  }
  return opts;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const stripBrackets = (host: string): string => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

function hostKey(host: string, port: number): string {
  return `${stripBrackets(host).toLowerCase()}:${port}`;
}

function urlHostKey(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    const port = u.port ? Number(u.port) : u.protocol === 'https:' || u.protocol === 'wss:' ? 443 : 80;
    return hostKey(u.hostname, port);
  } catch {
    return undefined;
  }
}

function originOf(url: string): string | undefined {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? undefined : o;
  } catch {
    return undefined;
  }
}

function schemeOf(url: string): string {
  const i = url.indexOf(':');
  return i < 0 ? '' : url.slice(0, i + 1).toLowerCase();
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Settles with `p`, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  p.catch(noop);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

const closedError = () => new ApiError('SERVICE_UNAVAILABLE', { message: 'The browser engine is shut down' });

/** The main frame's last document response that was not a redirect. */
function lastDocumentResponse(responses: PwResponse[]): PwResponse | undefined {
  for (let i = responses.length - 1; i >= 0; i--) {
    const r = responses[i];
    if (r && !r.request().redirectedTo()) return r;
  }
  return undefined;
}

function netErrorCode(e: unknown): string | undefined {
  return /net::(ERR_[A-Z0-9_]+)/.exec(String((e as Error | undefined)?.message ?? ''))?.[1];
}

/** Maps Playwright and Chromium failures onto the error catalog. */
export function toBrowserError(e: unknown): ApiError {
  if (isApiError(e)) return e;
  if (e instanceof pwErrors.TimeoutError) return new ApiError('SCRAPE_TIMEOUT');
  const code = netErrorCode(e);
  if (code) {
    if (code === 'ERR_NAME_NOT_RESOLVED' || code === 'ERR_NAME_RESOLUTION_FAILED') {
      return new ApiError('SCRAPE_DNS_RESOLUTION_ERROR', { message: `DNS resolution failed (net::${code})` });
    }
    if (/^ERR_(CERT_|SSL_|BAD_SSL_)/.test(code)) return new ApiError('SCRAPE_SSL_ERROR', { message: `TLS error: net::${code}` });
    if (code === 'ERR_TIMED_OUT' || code === 'ERR_CONNECTION_TIMED_OUT') return new ApiError('SCRAPE_TIMEOUT');
    return new ApiError('SCRAPE_SITE_ERROR', { message: `Navigation failed: net::${code}` });
  }
  const message = String((e as Error | undefined)?.message ?? e).split('\n')[0] ?? '';
  if (/has been closed|crash/i.test(message)) {
    return new ApiError('SCRAPE_SITE_ERROR', { message: 'The browser page crashed or was closed', cause: e });
  }
  return new ApiError('SCRAPE_SITE_ERROR', { message: `Browser fetch failed: ${message}`, cause: e });
}

// ---------------------------------------------------------------------------------------------
// Lease: what one fetch knows while it holds a context

class Lease {
  mainFrame: Frame | undefined;
  /** The guard's refusal of a main-frame navigation, caught before it was sent. */
  mainBlocked: unknown;
  /** The guard's refusal of a main-frame redirect hop (seen only after Chromium followed it). */
  redirectBlocked: unknown;
  lastMainUrl: string | undefined;
  private readonly failures = new Map<string, unknown>();
  private readonly checks: Promise<void>[] = [];
  /** Origins that had a document in this page: their storage is wiped when the lease ends. */
  readonly documentOrigins = new Set<string>();
  /** Origins the caller's headers are sent to: the target and the main frame's navigations. */
  private readonly headerOrigins = new Set<string>();

  constructor(
    readonly guard: UrlGuard,
    readonly headers: Record<string, string>,
    /** Sent on every request: the context locale alone would only name the first language. */
    readonly acceptLanguage: string | undefined,
    targetUrl: string,
  ) {
    const origin = originOf(targetUrl);
    if (origin) this.headerOrigins.add(origin);
  }

  isMainNavigation(request: PwRequest): boolean {
    try {
      return request.isNavigationRequest() && request.frame() === this.mainFrame;
    } catch {
      // Service-worker requests have no frame.
      return false;
    }
  }

  /** Called by the guard proxy when it refuses or fails to connect somewhere. */
  recordFailure(key: string, e: unknown): void {
    this.failures.set(key, e);
  }

  failureFor(url: string | undefined): unknown {
    const key = urlHostKey(url);
    return key ? this.failures.get(key) : undefined;
  }

  async route(route: Route): Promise<void> {
    const request = route.request();
    const url = request.url();
    const scheme = schemeOf(url);
    // In-memory and in-page resources never touch the network.
    if (scheme === 'data:' || scheme === 'blob:' || url === 'about:blank' || url === 'about:srcdoc') return route.continue();
    const isMain = this.isMainNavigation(request);
    if (scheme !== 'http:' && scheme !== 'https:') {
      if (isMain) this.mainBlocked ??= new ApiError('URL_BLOCKED', { message: `Scheme ${scheme} is not allowed`, details: { url } });
      return route.abort('blockedbyclient');
    }
    try {
      await this.guard.checkUrl(url);
    } catch (e) {
      if (isMain) this.mainBlocked ??= e;
      return route.abort('blockedbyclient');
    }
    const origin = originOf(url);
    if (isMain && origin) this.headerOrigins.add(origin);
    const extra: Record<string, string> = this.acceptLanguage ? { 'accept-language': this.acceptLanguage } : {};
    // Caller headers (often credentials) go to the site asked for, not to its third parties.
    if (origin && this.headerOrigins.has(origin)) Object.assign(extra, this.headers);
    if (Object.keys(extra).length === 0) return route.continue();
    return route.continue({ headers: { ...request.headers(), ...extra } });
  }

  /** Every request event, including redirect hops, which never reach the route handler. */
  onRequest(request: PwRequest): void {
    const isMain = this.isMainNavigation(request);
    const url = request.url();
    if (isMain) this.lastMainUrl = url;
    if (request.resourceType() === 'document') {
      const origin = originOf(url);
      if (origin && origin.startsWith('http')) this.documentOrigins.add(origin);
    }
    if (!request.redirectedFrom()) return;
    const scheme = schemeOf(url);
    if (scheme !== 'http:' && scheme !== 'https:') {
      if (isMain) this.redirectBlocked ??= new ApiError('URL_BLOCKED', { message: `Scheme ${scheme} is not allowed`, details: { url } });
      return;
    }
    // Too late to stop this hop (the guard proxy already vetted its address); what this adds is
    // the guard's full URL policy, and never handing back a document from a refused URL.
    this.checks.push(
      this.guard.checkUrl(url).then(noop, (e: unknown) => {
        if (isMain) this.redirectBlocked ??= e;
      }),
    );
  }

  async settle(): Promise<void> {
    while (this.checks.length > 0) await Promise.allSettled(this.checks.splice(0));
  }
}

// ---------------------------------------------------------------------------------------------
// The guard proxy: every connection a context opens goes through here

/** Reads handshake replies off a socket without losing the bytes that follow them. */
class SocketReader {
  private buf = Buffer.alloc(0);

  constructor(private readonly sock: net.Socket) {}

  async read(complete: (buf: Buffer) => number | undefined, limit = 16 * 1024): Promise<Buffer> {
    for (;;) {
      const n = complete(this.buf);
      if (n !== undefined && n <= this.buf.length) {
        const msg = this.buf.subarray(0, n);
        this.buf = this.buf.subarray(n);
        return msg;
      }
      if (this.buf.length > limit) throw new Error('proxy handshake reply too long');
      this.buf = Buffer.concat([this.buf, await this.next()]);
    }
  }

  /** Puts unread bytes back so the tunnel's consumer sees them. */
  release(): void {
    this.sock.pause();
    if (this.buf.length > 0) this.sock.unshift(this.buf);
    this.buf = Buffer.alloc(0);
  }

  private next(): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const done = () => {
        this.sock.off('data', onData);
        this.sock.off('error', onError);
        this.sock.off('close', onClose);
        this.sock.pause();
      };
      const onData = (chunk: Buffer) => {
        done();
        resolve(chunk);
      };
      const onError = (e: Error) => {
        done();
        reject(e);
      };
      const onClose = () => {
        done();
        reject(new Error('proxy closed the connection during the handshake'));
      };
      this.sock.on('data', onData);
      this.sock.once('error', onError);
      this.sock.once('close', onClose);
      this.sock.resume();
    });
  }
}

function connectTcp(host: string, port: number, secure: boolean, servername?: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const sock = secure
      ? tls.connect({ host, port, ...(servername && !net.isIP(servername) ? { servername } : {}) })
      : net.connect({ host, port });
    const event = secure ? 'secureConnect' : 'connect';
    const timer = setTimeout(() => sock.destroy(new Error(`connect to ${host}:${port} timed out`)), CONNECT_TIMEOUT_MS);
    sock.once(event, () => {
      clearTimeout(timer);
      sock.off('error', onError);
      resolve(sock);
    });
    const onError = (e: Error) => {
      clearTimeout(timer);
      reject(e);
    };
    sock.once('error', onError);
  });
}

function authority(host: string, port: number): string {
  const bare = stripBrackets(host);
  return net.isIPv6(bare) ? `[${bare}]:${port}` : `${bare}:${port}`;
}

function basicAuth(url: URL): string | undefined {
  if (!url.username && !url.password) return undefined;
  const creds = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return `Basic ${Buffer.from(creds).toString('base64')}`;
}

const upstreamPort = (u: URL): number => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : u.protocol === 'http:' ? 80 : 1080);

async function openUpstream(upstream: URL): Promise<net.Socket> {
  return connectTcp(stripBrackets(upstream.hostname), upstreamPort(upstream), upstream.protocol === 'https:', upstream.hostname);
}

async function viaHttpConnect(upstream: URL, host: string, port: number): Promise<net.Socket> {
  const sock = await openUpstream(upstream);
  try {
    const target = authority(host, port);
    const auth = basicAuth(upstream);
    sock.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ''}\r\n`);
    const reader = new SocketReader(sock);
    const head = await reader.read((b) => {
      const end = b.indexOf('\r\n\r\n');
      return end < 0 ? undefined : end + 4;
    });
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.toString('latin1'))?.[1];
    if (status !== '200') throw new Error(`upstream proxy answered CONNECT ${target} with ${status ?? 'garbage'}`);
    reader.release();
    return sock;
  } catch (e) {
    sock.destroy();
    throw e;
  }
}

const SOCKS_REPLIES: Record<number, string> = {
  1: 'general failure',
  2: 'not allowed by ruleset',
  3: 'network unreachable',
  4: 'host unreachable',
  5: 'connection refused',
  6: 'TTL expired',
  7: 'command not supported',
  8: 'address type not supported',
};

/** A SOCKS5 CONNECT (RFC 1928) with username/password auth (RFC 1929), which Chromium lacks. */
async function viaSocks5(upstream: URL, host: string, port: number): Promise<net.Socket> {
  const sock = await openUpstream(upstream);
  try {
    const reader = new SocketReader(sock);
    const user = Buffer.from(decodeURIComponent(upstream.username));
    const pass = Buffer.from(decodeURIComponent(upstream.password));
    const withAuth = user.length > 0 || pass.length > 0;
    sock.write(Buffer.from([5, 1, withAuth ? 2 : 0]));
    const [version, method] = await reader.read(() => 2);
    if (version !== 5) throw new Error('upstream is not a SOCKS5 proxy');
    if (method === 2 && withAuth) {
      if (user.length > 255 || pass.length > 255) throw new Error('SOCKS5 credentials are too long');
      sock.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]));
      const [, status] = await reader.read(() => 2);
      if (status !== 0) throw new Error('SOCKS5 proxy refused the credentials');
    } else if (method !== 0) {
      throw new Error('SOCKS5 proxy accepts none of the offered authentication methods');
    }
    const bare = stripBrackets(host);
    let address: Buffer;
    if (net.isIPv4(bare)) address = Buffer.from([1, ...bare.split('.').map(Number)]);
    else if (net.isIPv6(bare)) address = Buffer.concat([Buffer.from([4]), ipv6Bytes(bare)]);
    else {
      const name = Buffer.from(bare);
      if (name.length > 255) throw new Error('host name too long for SOCKS5');
      address = Buffer.concat([Buffer.from([3, name.length]), name]);
    }
    sock.write(Buffer.concat([Buffer.from([5, 1, 0]), address, Buffer.from([port >> 8, port & 0xff])]));
    const reply = await reader.read((b) => {
      if (b.length < 5) return undefined;
      const atyp = b[3];
      const addrLen = atyp === 1 ? 4 : atyp === 4 ? 16 : atyp === 3 ? 1 + (b[4] ?? 0) : 0;
      return 4 + addrLen + 2;
    });
    const code = reply[1] ?? 1;
    if (code !== 0) throw new Error(`SOCKS5 proxy could not connect to ${authority(host, port)}: ${SOCKS_REPLIES[code] ?? `code ${code}`}`);
    reader.release();
    return sock;
  } catch (e) {
    sock.destroy();
    throw e;
  }
}

function ipv6Bytes(ip: string): Buffer {
  const [head = '', tail = ''] = ip.split('::');
  const parse = (s: string): number[] => {
    if (!s) return [];
    const out: number[] = [];
    for (const part of s.split(':')) {
      if (part.includes('.')) {
        const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(parseInt(part, 16));
    }
    return out;
  };
  const h = parse(head);
  const t = ip.includes('::') ? parse(tail) : [];
  const groups = [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  const buf = Buffer.alloc(16);
  groups.forEach((g, i) => buf.writeUInt16BE(g & 0xffff, i * 2));
  return buf;
}

function connectError(host: string, port: number, e: unknown): ApiError {
  if (isApiError(e)) return e;
  const code = (e as { code?: string } | undefined)?.code;
  const detail = code ?? (e as Error | undefined)?.message ?? String(e);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new ApiError('SCRAPE_DNS_RESOLUTION_ERROR', { message: `DNS resolution failed for ${stripBrackets(host)}`, cause: e });
  }
  return new ApiError('SCRAPE_SITE_ERROR', { message: `Could not connect to ${authority(host, port)}: ${detail}`, cause: e });
}

class GuardProxy {
  /** The fetch currently holding this proxy's context; connections without one are refused. */
  lease: Lease | undefined;
  /** Unguessable value of the marker header on answers the proxy itself made up. */
  readonly marker = randomUUID();
  /** Last address connected to, per host:port (the page's own view only shows this proxy). */
  private readonly peers = new Map<string, string>();
  private readonly sockets = new Set<Duplex>();
  private readonly server: http.Server;
  private closed = false;

  constructor(private readonly upstream: URL | undefined) {
    this.server = http.createServer((req, res) => {
      this.onRequest(req, res).catch(() => res.destroy());
    });
    this.server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      this.onConnect(req, socket, head).catch(() => socket.destroy());
    });
    this.server.on('upgrade', (_req: http.IncomingMessage, socket: Duplex) => socket.destroy());
    this.server.on('connection', (socket: Duplex) => this.track(socket));
    this.server.on('clientError', (_e: Error, socket: Duplex) => socket.destroy());
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.server.address() as net.AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  peerFor(url: string): string | undefined {
    const key = urlHostKey(url);
    return key ? this.peers.get(key) : undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.lease = undefined;
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await done;
  }

  private track(socket: Duplex): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /** Vets the target, then opens a socket to it (directly or through the upstream proxy). */
  private async dial(lease: Lease, host: string, port: number, url: string): Promise<net.Socket> {
    await lease.guard.checkUrl(url);
    if (this.upstream) {
      // The operator's proxy resolves and connects; like the HTTP engine, it is trusted.
      return this.upstream.protocol.startsWith('socks') ? viaSocks5(this.upstream, host, port) : viaHttpConnect(this.upstream, host, port);
    }
    const bare = stripBrackets(host);
    const addresses = net.isIP(bare) ? [bare] : (await dns.promises.lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
    let lastError: unknown = new Error('no addresses');
    for (const address of addresses.slice(0, 4)) {
      // Checked against the address about to be used, so a rebinding DNS answer gains nothing.
      lease.guard.checkAddress(address, url);
      try {
        const sock = await connectTcp(address, port, false);
        const peer = sock.remoteAddress ?? address;
        try {
          lease.guard.checkAddress(peer, url);
        } catch (e) {
          sock.destroy();
          throw e;
        }
        this.peers.set(hostKey(host, port), peer);
        return sock;
      } catch (e) {
        if (isApiError(e)) throw e;
        lastError = e;
      }
    }
    throw lastError;
  }

  private async onConnect(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', noop);
    const lease = this.lease;
    const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(req.url ?? '');
    if (!lease || !m) {
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const host = m[1] ?? '';
    const port = Number(m[2]);
    // Only the origin is known inside a tunnel; port 80 tunnels carry ws:// and plain HTTP.
    const url = `${port === 80 ? 'http' : 'https'}://${authority(host, port)}/`;
    let upstream: net.Socket;
    try {
      upstream = await this.dial(lease, host, port, url);
    } catch (e) {
      lease.recordFailure(hostKey(host, port), connectError(host, port, e));
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (client.destroyed || this.closed) {
      upstream.destroy();
      return;
    }
    this.track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
    upstream.resume();
  }

  /** Plain http:// requests arrive in absolute form; they are forwarded one per connection. */
  private async onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const lease = this.lease;
    let target: URL | undefined;
    try {
      target = new URL(req.url ?? '');
    } catch {
      target = undefined;
    }
    if (!lease || !target || target.protocol !== 'http:') {
      this.refuse(res, 403);
      return;
    }
    const port = target.port ? Number(target.port) : 80;
    const viaHttpProxy = this.upstream !== undefined && !this.upstream.protocol.startsWith('socks');
    let socket: net.Socket;
    try {
      if (viaHttpProxy && this.upstream) {
        await lease.guard.checkUrl(target.href);
        socket = await openUpstream(this.upstream);
      } else {
        socket = await this.dial(lease, target.hostname, port, target.href);
      }
    } catch (e) {
      lease.recordFailure(hostKey(target.hostname, port), connectError(target.hostname, port, e));
      this.refuse(res, 502);
      return;
    }
    if (res.destroyed || this.closed) {
      socket.destroy();
      return;
    }
    this.track(socket);
    const headers: string[] = [];
    let sawHost = false;
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i] ?? '';
      const lower = name.toLowerCase();
      if (HOP_BY_HOP.has(lower)) continue;
      if (lower === 'host') sawHost = true;
      headers.push(name, req.rawHeaders[i + 1] ?? '');
    }
    if (!sawHost) headers.push('Host', target.host);
    const auth = viaHttpProxy && this.upstream ? basicAuth(this.upstream) : undefined;
    if (auth) headers.push('Proxy-Authorization', auth);
    headers.push('Connection', 'close');
    const out = http.request({
      method: req.method ?? 'GET',
      path: viaHttpProxy ? target.href : `${target.pathname}${target.search}`,
      headers,
      setHost: false,
      createConnection: () => socket,
    });
    // A socket that went through a proxy handshake was left paused; the parser is attached now.
    out.once('socket', (s) => s.resume());
    // The origin's Date (or its absence) is what the page should see, not this hop's clock.
    res.sendDate = false;
    out.on('response', (up) => {
      const resHeaders: string[] = [];
      for (let i = 0; i + 1 < up.rawHeaders.length; i += 2) {
        const name = up.rawHeaders[i] ?? '';
        if (!HOP_BY_HOP.has(name.toLowerCase())) resHeaders.push(name, up.rawHeaders[i + 1] ?? '');
      }
      res.writeHead(up.statusCode ?? 502, up.statusMessage, resHeaders);
      up.pipe(res);
      up.on('error', () => res.destroy());
    });
    out.on('error', (e) => {
      lease.recordFailure(hostKey(target.hostname, port), connectError(target.hostname, port, e));
      if (res.headersSent) res.destroy();
      else this.refuse(res, 502);
    });
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  }

  private refuse(res: http.ServerResponse, status: number): void {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'content-type': 'text/plain', 'content-length': '0', 'x-gleaner-proxy': this.marker, connection: 'close' });
    res.end();
  }
}

// ---------------------------------------------------------------------------------------------
// The engine

interface PooledContext {
  id: number;
  key: string;
  emulation: Emulation;
  browser: Browser;
  context: BrowserContext;
  proxy: GuardProxy;
  uses: number;
  state: 'busy' | 'idle' | 'closed';
  lease: Lease | undefined;
  /** Set while this engine opens its own page, so the popup killer leaves that one alone. */
  openingPage: boolean;
}

interface Waiter {
  emulation: Emulation;
  resolve(pc: PooledContext): void;
  reject(e: unknown): void;
  detach(): void;
}

/** What a running fetch holds, so a timeout can tear it down from outside. */
interface AttemptState {
  pc?: PooledContext;
  page?: Page;
  download?: Download;
}

interface MainDocument {
  status: number;
  headers: Record<string, string>;
  body: Buffer | undefined;
  url: string;
}

export class BrowserEngine implements Engine {
  readonly name = 'browser' as const;
  private readonly executablePath: string;
  private readonly maxContexts: number;
  private readonly maxUses: number;
  private readonly maxResponseBytes: number;
  private readonly log: BrowserEngineLogger | undefined;

  private browser: Browser | undefined;
  private launching: Promise<Browser> | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;

  private readonly contexts = new Set<PooledContext>();
  private idle: PooledContext[] = [];
  private creating = 0;
  private waiters: Waiter[] = [];
  private readonly pendingCloses = new Set<Promise<void>>();
  private nextId = 1;

  constructor(opts: BrowserEngineOptions) {
    this.executablePath = opts.executablePath;
    this.maxContexts = Math.max(1, Math.floor(opts.maxContexts ?? DEFAULT_MAX_CONTEXTS));
    this.maxUses = Math.max(1, Math.floor(opts.maxUsesPerContext ?? DEFAULT_MAX_USES));
    this.maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.log = opts.logger;
  }

  stats(): BrowserEngineStats {
    let pagesOpen = 0;
    for (const pc of this.contexts) pagesOpen += pc.context.pages().length;
    return { contextsOpen: this.contexts.size, contextsIdle: this.idle.length, pagesOpen, launched: this.browser?.isConnected() ?? false };
  }

  async fetch(req: FetchRequest): Promise<FetchResult> {
    const started = performance.now();
    if (this.closed) throw closedError();
    let target: URL;
    try {
      target = new URL(req.url);
    } catch {
      throw new ApiError('INVALID_URL', { details: { url: req.url } });
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      await req.guard.checkUrl(req.url);
      throw new ApiError('URL_BLOCKED', { message: `Scheme ${target.protocol} is not allowed`, details: { url: req.url } });
    }
    const emulation = planEmulation(req);

    const controller = new AbortController();
    const signal = controller.signal;
    // setTimeout fires at once for delays past 2^31-1 ms.
    const timer = setTimeout(() => controller.abort(new ApiError('SCRAPE_TIMEOUT')), Math.min(Math.max(0, req.timeoutMs), 2_147_483_647));
    const onCancel = () => controller.abort(new ApiError('SCRAPE_TIMEOUT', { message: 'Scrape was cancelled' }));
    if (req.signal?.aborted) onCancel();
    else req.signal?.addEventListener('abort', onCancel, { once: true });

    const state: AttemptState = {};
    const work = this.attempt(req, emulation, signal, started, state);
    try {
      return await untilAborted(work, signal);
    } catch (e) {
      if (signal.aborted && e === signal.reason) {
        await this.stopAttempt(state, work);
        throw e;
      }
      // Pages die with the engine on shutdown; say so rather than blame the site.
      if (this.closed && !isApiError(e)) throw closedError();
      throw toBrowserError(e);
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onCancel);
    }
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  // --- one fetch -------------------------------------------------------------------------------

  private async attempt(req: FetchRequest, em: Emulation, signal: AbortSignal, started: number, state: AttemptState): Promise<FetchResult> {
    const pc = await this.acquire(em, signal);
    state.pc = pc;
    const lease = new Lease(req.guard, siteHeaders(req.headers), acceptLanguage(languagesOf(req.location)), req.url);
    pc.lease = lease;
    pc.proxy.lease = lease;
    let healthy = true;
    let touched = false;
    try {
      throwIfAborted(signal);
      touched = true;
      pc.openingPage = true;
      let page: Page;
      try {
        page = await pc.context.newPage();
      } finally {
        pc.openingPage = false;
      }
      state.page = page;
      lease.mainFrame = page.mainFrame();
      return await this.render(req, pc, lease, page, signal, started, state);
    } catch (e) {
      // Refusals and site errors leave the context sound; anything else may not have.
      healthy = !touched || (!signal.aborted && isApiError(e) && e.key !== 'SCRAPE_TIMEOUT');
      throw e;
    } finally {
      await this.endLease(pc, lease, state.page, healthy);
    }
  }

  private async render(
    req: FetchRequest,
    pc: PooledContext,
    lease: Lease,
    page: Page,
    signal: AbortSignal,
    started: number,
    state: AttemptState,
  ): Promise<FetchResult> {
    const deadline = started + req.timeoutMs;
    const remaining = () => deadline - performance.now();
    const navResponses: PwResponse[] = [];
    page.on('request', (r) => lease.onRequest(r));
    page.on('response', (r) => {
      if (lease.isMainNavigation(r.request())) navResponses.push(r);
    });
    page.on('download', (d) => {
      if (state.download) void d.cancel().catch(noop);
      else state.download = d;
    });

    if (req.screenshot?.viewport) await page.setViewportSize(req.screenshot.viewport);
    const cookies = cookiesFromHeader(headerValue(req.headers, 'cookie'), req.url);
    if (cookies.length > 0) await pc.context.addCookies(cookies);
    throwIfAborted(signal);

    let navError: unknown;
    let gotoResponse: PwResponse | null = null;
    let loadTimedOut = false;
    try {
      // The document may take the whole budget to arrive; `load` then gets what is left minus
      // the time to read it, so a hanging subresource costs the images, not the page.
      gotoResponse = await page.goto(req.url, { waitUntil: 'commit', timeout: Math.max(1, remaining()) });
      const loadBudget = remaining() - FINISH_RESERVE_MS;
      if (loadBudget > 0) {
        await page.waitForLoadState('load', { timeout: loadBudget }).catch((e: unknown) => {
          if (!(e instanceof pwErrors.TimeoutError)) throw e;
          loadTimedOut = true;
        });
      } else loadTimedOut = true;
    } catch (e) {
      navError = e;
    }
    throwIfAborted(signal);
    await lease.settle();
    if (lease.redirectBlocked) throw lease.redirectBlocked;

    if (navError) {
      if (state.download || /Download is starting/i.test(String((navError as Error).message))) {
        return this.downloadResult(page, state, navResponses, signal, remaining, started);
      }
      const response = lastDocumentResponse(navResponses);
      if (!lease.mainBlocked && response && netErrorCode(navError) === 'ERR_HTTP_RESPONSE_CODE_FAILURE') {
        // An error status with an empty body: Chromium shows its own error page instead, but
        // the answer itself (a bare 404, say) is still the site's answer.
        return this.bareErrorResult(pc, lease, response, started);
      }
      throw this.navigationError(navError, lease);
    }

    // Pages that keep fetching after `load` usually render what they fetched; wait a little.
    const idleBudget = loadTimedOut ? 0 : Math.min(NETWORK_IDLE_CAP_MS, remaining() - FINISH_RESERVE_MS);
    if (idleBudget > 50) await page.waitForLoadState('networkidle', { timeout: idleBudget }).catch(noop);
    if (req.waitForMs > 0) await sleep(req.waitForMs, signal);
    throwIfAborted(signal);
    await lease.settle();
    if (lease.redirectBlocked) throw lease.redirectBlocked;
    if (page.url().startsWith('chrome-error:')) {
      if (lease.mainBlocked) throw lease.mainBlocked;
      const last = lastDocumentResponse(navResponses);
      if (last && last.url() === lease.lastMainUrl) return this.bareErrorResult(pc, lease, last, started);
      throw lease.failureFor(lease.lastMainUrl) ?? new ApiError('SCRAPE_SITE_ERROR', { message: 'The page navigated to a browser error page' });
    }

    const response = lastDocumentResponse(navResponses) ?? gotoResponse;
    if (!response) throw new ApiError('SCRAPE_SITE_ERROR', { message: 'The browser got no document response' });
    const headers = await this.headersOf(response);
    if (headers['x-gleaner-proxy'] === pc.proxy.marker) {
      throw lease.failureFor(response.url()) ?? new ApiError('SCRAPE_SITE_ERROR', { message: 'The site could not be reached' });
    }
    let main: MainDocument = { status: response.status(), headers, body: await response.body().catch(() => undefined), url: page.url() };
    const mime = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (mime === 'application/pdf' && !main.body?.subarray(0, 1024).includes('%PDF')) {
      // Chromium's PDF viewer hands out its own wrapper page instead of the document's bytes.
      main = await this.refetch(pc, lease, response.url(), signal, remaining);
    }
    const contentType = main.headers['content-type'] ?? '';
    const htmlLike = mime === '' || mime === 'text/html' || mime === 'application/xhtml+xml';
    let text: string | undefined;
    if (htmlLike || !main.body) text = await this.renderedHtml(page, remaining);
    else if (isTextual(contentType, main.body)) text = decodeBody(main.body, contentType);

    const result: FetchResult = {
      engine: 'browser',
      url: main.url,
      status: main.status,
      headers: main.headers,
      contentType,
      body: main.body ?? Buffer.from(text ?? '', 'utf8'),
      timings: { totalMs: 0 },
    };
    if (text !== undefined) result.text = text;

    if (!pc.emulation.upstream) {
      // The browser only ever sees this proxy's address; the proxy knows the real peer.
      const peer = pc.proxy.peerFor(response.url());
      if (peer) {
        req.guard.checkAddress(peer, response.url());
        result.remoteAddress = peer;
      }
    }

    if (req.screenshot) {
      const jpeg = req.screenshot.quality !== undefined;
      const data = await page.screenshot({
        type: jpeg ? 'jpeg' : 'png',
        ...(jpeg ? { quality: Math.min(100, Math.max(1, Math.round(req.screenshot.quality ?? 80))) } : {}),
        fullPage: req.screenshot.fullPage,
        timeout: Math.max(1, remaining()),
      });
      result.screenshot = { data, mime: jpeg ? 'image/jpeg' : 'image/png' };
    }
    result.timings.totalMs = performance.now() - started;
    return result;
  }

  private async bareErrorResult(pc: PooledContext, lease: Lease, response: PwResponse, started: number): Promise<FetchResult> {
    const headers = await this.headersOf(response);
    if (headers['x-gleaner-proxy'] === pc.proxy.marker) {
      throw lease.failureFor(response.url()) ?? new ApiError('SCRAPE_SITE_ERROR', { message: 'The site could not be reached' });
    }
    // Chromium only substitutes its error page for an error status with an empty body, and then
    // reports that page as the body.
    const result: FetchResult = {
      engine: 'browser',
      url: response.url(),
      status: response.status(),
      headers,
      contentType: headers['content-type'] ?? '',
      body: Buffer.alloc(0),
      text: '',
      timings: { totalMs: performance.now() - started },
    };
    const peer = pc.emulation.upstream ? undefined : pc.proxy.peerFor(response.url());
    if (peer) {
      lease.guard.checkAddress(peer, response.url());
      result.remoteAddress = peer;
    }
    return result;
  }

  private navigationError(e: unknown, lease: Lease): ApiError {
    if (lease.mainBlocked) return toBrowserError(lease.mainBlocked);
    if (e instanceof pwErrors.TimeoutError) return new ApiError('SCRAPE_TIMEOUT');
    const code = netErrorCode(e);
    // Failures behind the guard proxy reach Chromium as a generic tunnel/proxy error.
    if (code && /^ERR_(TUNNEL_CONNECTION_FAILED|PROXY_|EMPTY_RESPONSE|CONNECTION_CLOSED|CONNECTION_RESET|HTTP_RESPONSE_CODE_FAILURE)/.test(code)) {
      const failure = lease.failureFor(lease.lastMainUrl);
      if (failure) return toBrowserError(failure);
    }
    return toBrowserError(e);
  }

  private async headersOf(response: PwResponse): Promise<Record<string, string>> {
    let raw: Record<string, string>;
    try {
      raw = await withTimeout(response.allHeaders(), HEADERS_TIMEOUT_MS, 'reading response headers');
    } catch {
      raw = response.headers();
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw)) out[k.toLowerCase()] = v;
    return out;
  }

  private async renderedHtml(page: Page, remaining: () => number): Promise<string> {
    try {
      return await page.content();
    } catch (e) {
      // A script navigated while the DOM was being read; read the new document once it loads.
      await page.waitForLoadState('load', { timeout: Math.max(1, remaining()) }).catch(noop);
      if (page.isClosed()) throw e;
      return page.content();
    }
  }

  /** The bytes of a main resource the browser would not hand over, fetched by the context. */
  private async refetch(pc: PooledContext, lease: Lease, url: string, signal: AbortSignal, remaining: () => number): Promise<MainDocument> {
    await lease.guard.checkUrl(url);
    throwIfAborted(signal);
    // The context's request client shares its cookies and its proxy (so the guard proxy too).
    const res = await pc.context.request.get(url, {
      headers: { ...(lease.acceptLanguage ? { 'accept-language': lease.acceptLanguage } : {}), ...lease.headers },
      timeout: Math.max(1, remaining()),
      failOnStatusCode: false,
      maxRedirects: 10,
    });
    try {
      const headers: Record<string, string> = {};
      for (const { name, value } of res.headersArray()) {
        const k = name.toLowerCase();
        headers[k] = headers[k] === undefined ? value : `${headers[k]}, ${value}`;
      }
      if (Number(headers['content-length'] ?? 0) > this.maxResponseBytes) {
        throw new ApiError('SCRAPE_SITE_ERROR', { message: `Response is larger than the ${this.maxResponseBytes}-byte limit` });
      }
      const body = await res.body();
      if (body.length > this.maxResponseBytes) {
        throw new ApiError('SCRAPE_SITE_ERROR', { message: `Response is larger than the ${this.maxResponseBytes}-byte limit` });
      }
      return { status: res.status(), headers, body, url: res.url() };
    } finally {
      await res.dispose().catch(noop);
    }
  }

  private async downloadResult(
    page: Page,
    state: AttemptState,
    navResponses: PwResponse[],
    signal: AbortSignal,
    remaining: () => number,
    started: number,
  ): Promise<FetchResult> {
    const download = state.download ?? (await page.waitForEvent('download', { timeout: Math.max(1, Math.min(2_000, remaining())) }));
    state.download = download;
    try {
      const file = await untilAborted(download.path(), signal);
      const size = (await stat(file)).size;
      if (size > this.maxResponseBytes) {
        throw new ApiError('SCRAPE_SITE_ERROR', { message: `Response is larger than the ${this.maxResponseBytes}-byte limit` });
      }
      const body = await readFile(file);
      const response = lastDocumentResponse(navResponses);
      const headers = response ? await this.headersOf(response) : {};
      const contentType = headers['content-type'] ?? 'application/octet-stream';
      const result: FetchResult = {
        engine: 'browser',
        url: download.url(),
        status: response?.status() ?? 200,
        headers,
        contentType,
        body,
        timings: { totalMs: performance.now() - started },
      };
      if (isTextual(contentType, body)) result.text = decodeBody(body, contentType);
      return result;
    } finally {
      await download.delete().catch(noop);
    }
  }

  /** Puts the context back clean: no pages, cookies, storage or permissions from this fetch. */
  private async endLease(pc: PooledContext, lease: Lease, page: Page | undefined, healthy: boolean): Promise<void> {
    let reusable = healthy && pc.state === 'busy';
    if (reusable) {
      try {
        await withTimeout(
          (async () => {
            if (page && !page.isClosed() && lease.documentOrigins.size > 0) {
              const cdp = await pc.context.newCDPSession(page);
              try {
                for (const origin of lease.documentOrigins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
              } finally {
                await cdp.detach().catch(noop);
              }
            }
            for (const p of pc.context.pages()) await p.close();
            await pc.context.clearCookies();
            await pc.context.clearPermissions();
            if (pc.emulation.geolocation) await pc.context.grantPermissions(['geolocation']);
          })(),
          RESET_TIMEOUT_MS,
          'resetting the browser context',
        );
      } catch (e) {
        this.log?.warn({ err: e }, 'browser context reset failed; replacing it');
        reusable = false;
      }
    }
    if (!reusable) {
      // Close what the fetch opened before handing back; the context itself goes away too.
      await withTimeout(Promise.allSettled(pc.context.pages().map((p) => p.close())), RESET_TIMEOUT_MS, 'closing pages').catch(noop);
    }
    this.release(pc, !reusable);
  }

  private async stopAttempt(state: AttemptState, work: Promise<unknown>): Promise<void> {
    if (state.download) void state.download.cancel().catch(noop);
    if (state.page && !state.page.isClosed()) void state.page.close().catch(noop);
    const settled = await Promise.race([work.then(() => true, () => true), sleep(STOP_GRACE_MS).then(() => false)]);
    if (!settled && state.pc) this.discard(state.pc);
  }

  // --- the context pool ------------------------------------------------------------------------

  private acquire(em: Emulation, signal: AbortSignal): Promise<PooledContext> {
    if (this.closed) return Promise.reject(closedError());
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.waiters.length === 0) {
      const idle = this.takeIdle(em.key);
      if (idle) return Promise.resolve(idle);
      if (this.reserveSlot()) return this.createContext(em);
    }
    return new Promise<PooledContext>((resolve, reject) => {
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(signal.reason);
      };
      const waiter: Waiter = { emulation: em, resolve, reject, detach: () => signal.removeEventListener('abort', onAbort) };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private takeIdle(key: string): PooledContext | undefined {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const pc = this.idle[i];
      if (!pc || pc.key !== key) continue;
      this.idle.splice(i, 1);
      if (!pc.browser.isConnected()) {
        this.discard(pc);
        continue;
      }
      pc.state = 'busy';
      pc.uses++;
      return pc;
    }
    return undefined;
  }

  /** Claims room for one more context, evicting the least recently used idle one if full. */
  private reserveSlot(): boolean {
    if (this.contexts.size + this.creating < this.maxContexts) {
      this.creating++;
      return true;
    }
    const victim = this.idle.shift();
    if (!victim) return false;
    this.discard(victim);
    this.creating++;
    return true;
  }

  private async createContext(em: Emulation): Promise<PooledContext> {
    let proxy: GuardProxy | undefined;
    let context: BrowserContext | undefined;
    let ok = false;
    try {
      const browser = await this.getBrowser();
      proxy = new GuardProxy(em.upstream);
      const server = await proxy.listen();
      context = await browser.newContext(contextOptions(em, server, browser.version()));
      if (this.closed) throw closedError();
      const pc: PooledContext = {
        id: this.nextId++,
        key: em.key,
        emulation: em,
        browser,
        context,
        proxy,
        uses: 1,
        state: 'busy',
        lease: undefined,
        openingPage: false,
      };
      await context.route('**/*', (route) => {
        const lease = pc.lease;
        const handled = lease ? lease.route(route) : route.abort('blockedbyclient');
        // The page may close while the guard is thinking; the route is moot then.
        handled.catch(noop);
      });
      context.on('page', (p) => {
        // Popups are never the document asked for, and each costs a renderer.
        if (!pc.openingPage) void p.close().catch(noop);
      });
      this.contexts.add(pc);
      ok = true;
      return pc;
    } finally {
      this.creating--;
      if (!ok) {
        if (context) void context.close().catch(noop);
        if (proxy) void proxy.close();
        this.pump();
      }
    }
  }

  private release(pc: PooledContext, discard: boolean): void {
    pc.lease = undefined;
    pc.proxy.lease = undefined;
    if (pc.state === 'busy') {
      if (discard || this.closed || pc.uses >= this.maxUses || !pc.browser.isConnected()) this.discard(pc);
      else {
        pc.state = 'idle';
        this.idle.push(pc);
      }
    }
    this.pump();
  }

  private discard(pc: PooledContext): void {
    if (pc.state === 'closed') return;
    pc.state = 'closed';
    pc.lease = undefined;
    pc.proxy.lease = undefined;
    this.contexts.delete(pc);
    this.idle = this.idle.filter((p) => p !== pc);
    const closing = (async () => {
      await withTimeout(pc.context.close(), CLOSE_TIMEOUT_MS, 'closing a browser context').catch(noop);
      await pc.proxy.close();
    })();
    this.pendingCloses.add(closing);
    void closing.finally(() => this.pendingCloses.delete(closing));
  }

  /** Hands freed capacity to queued fetches, oldest first. */
  private pump(): void {
    while (this.waiters.length > 0 && !this.closed) {
      const waiter = this.waiters[0];
      if (!waiter) break;
      const idle = this.takeIdle(waiter.emulation.key);
      if (idle) {
        this.waiters.shift();
        waiter.detach();
        waiter.resolve(idle);
        continue;
      }
      if (!this.reserveSlot()) break;
      this.waiters.shift();
      waiter.detach();
      this.createContext(waiter.emulation).then(waiter.resolve, waiter.reject);
    }
  }

  // --- the browser process ---------------------------------------------------------------------

  private async getBrowser(): Promise<Browser> {
    if (this.closed) throw closedError();
    if (this.browser?.isConnected()) return this.browser;
    this.launching ??= (async () => {
      const t0 = performance.now();
      let browser: Browser;
      try {
        browser = await launchChromium(this.executablePath);
      } catch (e) {
        throw new ApiError('INTERNAL', { message: `Could not start Chromium: ${String((e as Error).message).split('\n')[0]}`, cause: e });
      }
      if (this.closed) {
        await browser.close().catch(noop);
        throw closedError();
      }
      browser.on('disconnected', () => this.onDisconnected(browser));
      this.browser = browser;
      this.log?.info({ version: browser.version(), launchMs: Math.round(performance.now() - t0) }, 'Chromium launched');
      return browser;
    })().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  private onDisconnected(browser: Browser): void {
    if (this.browser === browser) this.browser = undefined;
    if (!this.closed) this.log?.warn({}, 'Chromium disconnected; it will be relaunched on the next browser fetch');
    for (const pc of [...this.idle]) if (pc.browser === browser) this.discard(pc);
    this.pump();
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    for (const w of this.waiters.splice(0)) {
      w.detach();
      w.reject(closedError());
    }
    for (const pc of [...this.contexts]) this.discard(pc);
    await Promise.allSettled([...this.pendingCloses]);
    const browser = this.browser ?? (await this.launching?.catch(() => undefined));
    this.browser = undefined;
    if (browser) await withTimeout(browser.close(), CLOSE_TIMEOUT_MS, 'closing Chromium').catch(noop);
  }
}
