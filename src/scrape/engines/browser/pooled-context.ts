/**
 * One pooled browser context: created for one emulation, with its own guard proxy, and put
 * back clean after every fetch so the next one inherits nothing.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { contextOptions, type Emulation } from './emulation.js';
import { GuardProxy } from './guard-proxy.js';
import { noop, withTimeout } from './waits.js';

const RESET_TIMEOUT_MS = 5_000;
const CLOSE_TIMEOUT_MS = 10_000;

export interface PooledContext {
  readonly emulation: Emulation;
  readonly browser: Browser;
  readonly context: BrowserContext;
  /** Its `lease` is the fetch holding this context, for the proxy and request routing alike. */
  readonly proxy: GuardProxy;
  uses: number;
  /** `kept`: handed over with its page (keepAlive); no longer the pool's. */
  state: 'busy' | 'idle' | 'kept' | 'closed';
  /** Set while this engine opens its own page, so the popup killer leaves that one alone. */
  openingPage: boolean;
}

export async function openContext(browser: Browser, em: Emulation): Promise<PooledContext> {
  const proxy = new GuardProxy(em.upstream);
  let context: BrowserContext | undefined;
  try {
    const server = await proxy.listen();
    context = await browser.newContext(contextOptions(em, server, browser.version()));
    const pc: PooledContext = { emulation: em, browser, context, proxy, uses: 1, state: 'busy', openingPage: false };
    await context.route('**/*', (route) => {
      const lease = proxy.lease;
      const handled = lease ? lease.route(route) : route.abort('blockedbyclient');
      // The page may close while the guard is thinking; the route is moot then.
      handled.catch(noop);
    });
    context.on('page', (p) => {
      // Popups are never the document asked for, and each costs a renderer.
      if (!pc.openingPage) void p.close().catch(noop);
    });
    return pc;
  } catch (e) {
    if (context) void context.close().catch(noop);
    void proxy.close();
    throw e;
  }
}

export async function openPage(pc: PooledContext): Promise<Page> {
  pc.openingPage = true;
  try {
    return await pc.context.newPage();
  } finally {
    pc.openingPage = false;
  }
}

/** Wipes what a fetch left: pages, cookies, storage and permissions. Throws if that fails. */
export async function resetContext(pc: PooledContext, page: Page | undefined, documentOrigins: ReadonlySet<string>): Promise<void> {
  await withTimeout(
    (async () => {
      if (page && !page.isClosed() && documentOrigins.size > 0) {
        const cdp = await pc.context.newCDPSession(page);
        try {
          for (const origin of documentOrigins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
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
}

export async function closePages(pc: PooledContext): Promise<void> {
  await withTimeout(Promise.allSettled(pc.context.pages().map((p) => p.close())), RESET_TIMEOUT_MS, 'closing pages').catch(noop);
}

export async function closeContext(pc: PooledContext): Promise<void> {
  await withTimeout(pc.context.close(), CLOSE_TIMEOUT_MS, 'closing a browser context').catch(noop);
  await pc.proxy.close();
}
