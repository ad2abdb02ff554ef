/**
 * The browser engine: one long-lived Chromium, a bounded pool of reusable contexts keyed by
 * their emulation settings, and an SSRF boundary in two layers — request routing (lease.ts)
 * and a guarding forward proxy every context connects through (guard-proxy.ts).
 */
import { ApiError, isApiError } from '../../../errors.js';
import type { Engine, FetchResult } from '../../types.js';
import { siteHeaders } from './caller-headers.js';
import { openCdpSession, type CdpSessionContext } from './cdp-browser.js';
import { ContextPool } from './context-pool.js';
import { acceptLanguage, languagesOf, planEmulation, type Emulation } from './emulation.js';
import { closedError, schemeNotAllowed, toBrowserError } from './errors.js';
import { isHttpScheme } from './hosts.js';
import { keptSession } from './kept-page.js';
import { Lease } from './lease.js';
import { render } from './navigate.js';
import { openPage, type PooledContext } from './pooled-context.js';
import type { BrowserEngineOptions, BrowserEngineStats, BrowserFetchRequest } from './types.js';
import { openSessionContext, type SessionContext, type SessionContextOptions } from './session-context.js';
import { Visit } from './visit.js';
import { noop, sleep, throwIfAborted, untilAborted } from './waits.js';

const DEFAULT_MAX_CONTEXTS = 4;
const DEFAULT_MAX_USES = 50;
const DEFAULT_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;
/** How long a timed-out fetch waits for its page to wind down before its context is killed. */
const STOP_GRACE_MS = 1_500;
/** setTimeout fires at once for delays past this. */
const MAX_TIMER_MS = 2_147_483_647;

/** What a running fetch holds, so a timeout can tear it down from outside. */
interface AttemptState {
  pc?: PooledContext;
  visit?: Visit;
}

export class BrowserEngine implements Engine {
  readonly name = 'browser' as const;
  private readonly maxResponseBytes: number;
  private readonly pool: ContextPool;
  private readonly executablePath: string;

  constructor(opts: BrowserEngineOptions) {
    this.executablePath = opts.executablePath;
    this.maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.pool = new ContextPool({
      executablePath: opts.executablePath,
      maxContexts: Math.max(1, Math.floor(opts.maxContexts ?? DEFAULT_MAX_CONTEXTS)),
      maxUses: Math.max(1, Math.floor(opts.maxUsesPerContext ?? DEFAULT_MAX_USES)),
      logger: opts.logger,
    });
  }

  stats(): BrowserEngineStats {
    return this.pool.stats();
  }

  async fetch(req: BrowserFetchRequest): Promise<FetchResult> {
    const started = performance.now();
    if (this.pool.closed) throw closedError();
    let target: URL;
    try {
      target = new URL(req.url);
    } catch {
      throw new ApiError('INVALID_URL', { details: { url: req.url } });
    }
    if (!isHttpScheme(target.protocol)) {
      await req.guard.checkUrl(req.url);
      throw schemeNotAllowed(target.protocol, req.url);
    }
    const emulation = planEmulation(req);

    const controller = new AbortController();
    const signal = controller.signal;
    const timer = setTimeout(() => controller.abort(new ApiError('SCRAPE_TIMEOUT')), Math.min(Math.max(0, req.timeoutMs), MAX_TIMER_MS));
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
      if (this.pool.closed && !isApiError(e)) throw closedError();
      throw toBrowserError(e);
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onCancel);
    }
  }

  /** A context of its own for an interactive session, in the engine's Chromium and behind the same guard. */
  async openSession(opts: SessionContextOptions): Promise<SessionContext> {
    if (this.pool.closed) throw closedError();
    return openSessionContext(await this.pool.browser(), opts);
  }

  /** A Chromium of its own with a CDP endpoint, for a session the caller drives over raw CDP. */
  async openCdpSession(opts: SessionContextOptions): Promise<CdpSessionContext> {
    if (this.pool.closed) throw closedError();
    return openCdpSession(this.executablePath, opts);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async attempt(req: BrowserFetchRequest, em: Emulation, signal: AbortSignal, started: number, state: AttemptState): Promise<FetchResult> {
    const pc = await this.pool.acquire(em, signal);
    state.pc = pc;
    const lease = new Lease(req.guard, siteHeaders(req.headers), acceptLanguage(languagesOf(req.location)), req.url);
    pc.proxy.lease = lease;
    let healthy = true;
    let touched = false;
    let kept = false;
    try {
      throwIfAborted(signal);
      touched = true;
      const page = await openPage(pc);
      state.visit = new Visit({ req, pc, lease, page, signal, started, maxResponseBytes: this.maxResponseBytes });
      lease.mainFrame = page.mainFrame();
      const result = await render(state.visit);
      // A fetch that timed out has already answered; its page is not anyone's to keep.
      if (req.keepPage && !signal.aborted && this.pool.detach(pc)) {
        kept = true;
        req.keepPage(keptSession(pc, page, lease));
      }
      return result;
    } catch (e) {
      // Refusals and site errors leave the context sound; anything else may not have.
      healthy = !touched || (!signal.aborted && isApiError(e) && e.key !== 'SCRAPE_TIMEOUT');
      throw e;
    } finally {
      if (!kept) await this.pool.release(pc, state.visit?.page, lease.documentOrigins, healthy);
    }
  }

  private async stopAttempt(state: AttemptState, work: Promise<unknown>): Promise<void> {
    const { pc, visit } = state;
    if (visit?.download) void visit.download.cancel().catch(noop);
    if (visit && !visit.page.isClosed()) void visit.page.close().catch(noop);
    const settled = await Promise.race([work.then(() => true, () => true), sleep(STOP_GRACE_MS).then(() => false)]);
    if (!settled && pc) this.pool.discard(pc);
  }
}
