/**
 * A browser context for an interactive session: created with the session's stored cookies and
 * storage, one page, and the same SSRF boundary as a scrape — every request waits for the
 * guard in request routing, and every connection goes through a guard proxy. Non-http(s)
 * navigations (file:, chrome:, data: documents...) are refused there too. Popups are closed.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { BrowserStorageState, UrlGuard } from '../../types.js';
import { HIDE_CONSENT_SCRIPT } from '../../../core/adblock.js';
import { contextOptions, planEmulation } from './emulation.js';
import { GuardProxy } from './guard-proxy.js';
import { Lease } from './lease.js';
import { noop, withTimeout } from './waits.js';

const CLOSE_TIMEOUT_MS = 10_000;

export interface SessionContextOptions {
  guard: UrlGuard;
  storageState?: BrowserStorageState;
  mobile?: boolean;
  blockAds?: boolean;
}

export interface SessionContext {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly lease: Lease;
  close(): Promise<void>;
}

export async function openSessionContext(browser: Browser, opts: SessionContextOptions): Promise<SessionContext> {
  const em = planEmulation({ url: 'about:blank', headers: {}, timeoutMs: 0, skipTlsVerification: false, mobile: opts.mobile ?? false, waitForMs: 0, guard: opts.guard });
  const proxy = new GuardProxy(undefined);
  let context: BrowserContext | undefined;
  try {
    const server = await proxy.listen();
    context = await browser.newContext({
      ...contextOptions(em, server, browser.version()),
      acceptDownloads: false,
      ...(opts.storageState ? { storageState: opts.storageState } : {}),
    });
    const lease = new Lease(opts.guard, {}, undefined, 'about:blank');
    lease.blockAds = opts.blockAds ?? false;
    proxy.lease = lease;
    await context.route('**/*', (route) => void lease.route(route).catch(noop));
    if (opts.blockAds) await context.addInitScript(HIDE_CONSENT_SCRIPT);
    const page = await context.newPage();
    lease.mainFrame = page.mainFrame();
    page.on('request', (r) => lease.onRequest(r));
    context.on('page', (p) => {
      if (p !== page) void p.close().catch(noop);
    });
    const ctx = context;
    return {
      context: ctx,
      page,
      lease,
      async close() {
        await withTimeout(ctx.close(), CLOSE_TIMEOUT_MS, 'closing a session context').catch(noop);
        await proxy.close();
      },
    };
  } catch (e) {
    if (context) void context.close().catch(noop);
    void proxy.close();
    throw e;
  }
}
