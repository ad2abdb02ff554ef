/**
 * A scrape's page kept open (`keepAlive`) as an interactive session's context. Nothing is reset:
 * the DOM, cookies and storage are the scrape's. The context keeps its guard proxy and request
 * routing with the scrape's lease on it, so the session stays behind the same SSRF guard and
 * upstream proxy the scrape used.
 */
import type { Page } from 'playwright-core';
import type { Lease } from './lease.js';
import { closeContext, type PooledContext } from './pooled-context.js';
import type { SessionContext } from './session-context.js';
import { noop } from './waits.js';

export function keptSession(pc: PooledContext, page: Page, lease: Lease): SessionContext {
  // Sessions never save downloads on the host; a pooled context would.
  page.on('download', (d) => void d.cancel().catch(noop));
  return { context: pc.context, page, lease, close: () => closeContext(pc) };
}
