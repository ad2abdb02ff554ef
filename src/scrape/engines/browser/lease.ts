/**
 * A lease: what one fetch knows while it holds a context. It is the first SSRF layer (every
 * request the page makes waits in `route` until the guard accepts its URL) and the place where
 * the guard proxy's findings meet the page's view of the same requests.
 */
import type { Frame, Request as PwRequest, Route } from 'playwright-core';
import type { UrlGuard } from '../../types.js';
import { isAdRequest } from '../../../core/adblock.js';
import { schemeNotAllowed } from './errors.js';
import { isHttpScheme, originOf, schemeOf, urlHostKey } from './hosts.js';
import { noop } from './waits.js';

export class Lease {
  mainFrame: Frame | undefined;
  /** The guard's refusal of a main-frame navigation, caught before it was sent. */
  mainBlocked: unknown;
  /** The guard's refusal of a main-frame redirect hop (seen only after Chromium followed it). */
  private redirectBlocked: unknown;
  lastMainUrl: string | undefined;
  private readonly failures = new Map<string, unknown>();
  private readonly checks: Promise<void>[] = [];
  /** Origins that had a document in this page: their storage is wiped when the lease ends. */
  readonly documentOrigins = new Set<string>();
  /** Origins the caller's headers are sent to: the target and the main frame's navigations. */
  private readonly headerOrigins = new Set<string>();
  /** `blockAds`: refuse listed ad and tracker requests (never the main document). */
  blockAds = false;

  constructor(
    readonly guard: UrlGuard,
    private readonly callerHeaders: Record<string, string>,
    /** Sent on every request: the context locale alone would only name the first language. */
    private readonly acceptLanguage: string | undefined,
    targetUrl: string,
  ) {
    const origin = originOf(targetUrl);
    if (origin) this.headerOrigins.add(origin);
  }

  /** What the page loads besides its main document: the guard's lighter check when it has one. */
  subresource(url: string): Promise<void> {
    return this.guard.checkSubresource ? this.guard.checkSubresource(url) : this.guard.checkUrl(url);
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

  /** Headers added to a request; the caller's own only when it goes to the site asked for. */
  extraHeaders(toSite: boolean): Record<string, string> {
    return { ...(this.acceptLanguage ? { 'accept-language': this.acceptLanguage } : {}), ...(toSite ? this.callerHeaders : {}) };
  }

  async route(route: Route): Promise<void> {
    const request = route.request();
    const url = request.url();
    const scheme = schemeOf(url);
    // In-memory and in-page resources never touch the network.
    if (scheme === 'data:' || scheme === 'blob:' || url === 'about:blank' || url === 'about:srcdoc') return route.continue();
    const isMain = this.isMainNavigation(request);
    if (!isHttpScheme(scheme)) {
      if (isMain) this.mainBlocked ??= schemeNotAllowed(scheme, url);
      return route.abort('blockedbyclient');
    }
    if (this.blockAds && !isMain && isAdRequest(url)) return route.abort('blockedbyclient');
    try {
      await (isMain ? this.guard.checkUrl(url) : this.subresource(url));
    } catch (e) {
      if (isMain) this.mainBlocked ??= e;
      return route.abort('blockedbyclient');
    }
    const origin = originOf(url);
    if (isMain && origin) this.headerOrigins.add(origin);
    // Caller headers (often credentials) go to the site asked for, not to its third parties.
    const extra = this.extraHeaders(origin !== undefined && this.headerOrigins.has(origin));
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
    if (!isHttpScheme(scheme)) {
      if (isMain) this.redirectBlocked ??= schemeNotAllowed(scheme, url);
      return;
    }
    // Too late to stop this hop (the guard proxy already vetted its address); what this adds is
    // the guard's full URL policy, and never handing back a document from a refused URL.
    this.checks.push(
      (isMain ? this.guard.checkUrl(url) : this.subresource(url)).then(noop, (e: unknown) => {
        if (isMain) this.redirectBlocked ??= e;
      }),
    );
  }

  /** Waits for the guard's verdicts on redirect hops so far; throws its refusal of a main-frame one. */
  async settleRedirects(): Promise<void> {
    while (this.checks.length > 0) await Promise.allSettled(this.checks.splice(0));
    if (this.redirectBlocked) throw this.redirectBlocked;
  }
}
