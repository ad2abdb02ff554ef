/**
 * Navigation: from the target URL to a document worth reading. Waits for `load` within the
 * budget, a little longer for late fetches, then hands the page to capture — or, when the
 * navigation failed, works out whether the site still answered (a download, a bare error
 * status) and otherwise which failure to report.
 */
import type { Response as PwResponse } from 'playwright-core';
import { ApiError } from '../../../errors.js';
import type { FetchResult } from '../../types.js';
import { runActions } from './actions.js';
import { HIDE_CONSENT_SCRIPT, REMOVE_CONSENT_SCRIPT } from '../../../core/adblock.js';
import { captureBareError, captureDocument, captureDownload } from './capture.js';
import { restoreLocalStorageScript } from './storage-state.js';
import { cookiesFromHeader, headerValue } from './caller-headers.js';
import { netErrorCode, toBrowserError } from './errors.js';
import type { Lease } from './lease.js';
import { isPlaywrightTimeout } from './playwright.js';
import type { Visit } from './visit.js';
import { noop, sleep, throwIfAborted } from './waits.js';

/** Network idle is a nicety after `load`; long-polling pages never reach it. */
const NETWORK_IDLE_CAP_MS = 3_000;
/** Left before the deadline for reading the DOM and taking the screenshot. */
const FINISH_RESERVE_MS = 750;
/** Left before the deadline when an action waits for a selector, so it fails as itself. */
const ACTION_RESERVE_MS = 1_000;
/** Chromium's words for "the guard proxy would not connect", whose real cause the lease holds. */
const PROXY_FAILURE = /^ERR_(TUNNEL_CONNECTION_FAILED|PROXY_|EMPTY_RESPONSE|CONNECTION_CLOSED|CONNECTION_RESET|HTTP_RESPONSE_CODE_FAILURE)/;

interface Loaded {
  response: PwResponse | null;
  /** Why the navigation failed; undefined when it committed. */
  error: unknown;
  loadTimedOut: boolean;
}

export async function render(v: Visit): Promise<FetchResult> {
  watch(v);
  await prepare(v);
  const { response, error, loadTimedOut } = await load(v);
  throwIfAborted(v.signal);
  await v.lease.settleRedirects();
  if (error) return recover(v, error);

  await linger(v, loadTimedOut);
  throwIfAborted(v.signal);
  await v.lease.settleRedirects();
  if (v.page.url().startsWith('chrome-error:')) return fromErrorPage(v);

  const main = v.lastDocumentResponse() ?? response;
  if (!main) throw new ApiError('SCRAPE_SITE_ERROR', { message: 'The browser got no document response' });
  if (v.req.blockAds) await removeConsent(v);
  const actions = v.req.actions?.length ? await act(v) : undefined;
  // An action's navigation failed (the guard refused it, or the site did not answer): Chromium's
  // error page stands where a document would, and is never handed back as the site's.
  if (actions && v.page.url().startsWith('chrome-error:')) return Object.assign(await fromErrorPage(v), { actions });
  if (actions && v.req.blockAds) await removeConsent(v);
  const result = await captureDocument(v, actions ? (v.lastDocumentResponse() ?? main) : main);
  if (actions) result.actions = actions;
  if (v.req.captureStorageState) result.storageState = await v.pc.context.storageState();
  return result;
}

async function act(v: Visit) {
  const target = {
    page: v.page,
    signal: v.signal,
    timeout: (cap = Infinity) => Math.max(1, Math.min(cap, v.remaining() - ACTION_RESERVE_MS)),
    maxBytes: v.maxResponseBytes,
    // The guard refused a navigation an action started: the scrape fails as a blocked URL does.
    check: () => throwIfBlocked(v.lease),
  };
  const out = await runActions(target, v.req.actions ?? []);
  // A click may have navigated; read the document it led to once it has loaded.
  await v.page.waitForLoadState('load', { timeout: v.timeout(NETWORK_IDLE_CAP_MS) }).catch(noop);
  throwIfAborted(v.signal);
  await v.lease.settleRedirects();
  throwIfBlocked(v.lease);
  return out;
}

async function removeConsent(v: Visit): Promise<void> {
  await v.page.evaluate(REMOVE_CONSENT_SCRIPT).catch(noop);
}

function watch(v: Visit): void {
  const { page, lease } = v;
  page.on('request', (r) => lease.onRequest(r));
  page.on('response', (r) => {
    if (lease.isMainNavigation(r.request())) v.navResponses.push(r);
  });
  page.on('download', (d) => {
    if (v.download) void d.cancel().catch(noop);
    else v.download = d;
  });
}

async function prepare(v: Visit): Promise<void> {
  const { req, page } = v;
  if (req.screenshot?.viewport) await page.setViewportSize(req.screenshot.viewport);
  if (req.storageState) {
    if (req.storageState.cookies.length > 0) await v.pc.context.addCookies(req.storageState.cookies);
    const restore = restoreLocalStorageScript(req.storageState);
    if (restore) await page.addInitScript(restore);
  }
  const cookies = cookiesFromHeader(headerValue(req.headers, 'cookie'), req.url);
  if (cookies.length > 0) await v.pc.context.addCookies(cookies);
  if (req.blockAds) {
    v.lease.blockAds = true;
    await page.addInitScript(HIDE_CONSENT_SCRIPT);
  }
  throwIfAborted(v.signal);
}

async function load(v: Visit): Promise<Loaded> {
  let response: PwResponse | null = null;
  let loadTimedOut = false;
  try {
    // The document may take the whole budget to arrive; `load` then gets what is left minus
    // the time to read it, so a hanging subresource costs the images, not the page.
    response = await v.page.goto(v.req.url, { waitUntil: 'commit', timeout: v.timeout() });
    const loadBudget = v.remaining() - FINISH_RESERVE_MS;
    if (loadBudget > 0) {
      await v.page.waitForLoadState('load', { timeout: loadBudget }).catch((e: unknown) => {
        if (!isPlaywrightTimeout(e)) throw e;
        loadTimedOut = true;
      });
    } else loadTimedOut = true;
  } catch (e) {
    return { response, error: e, loadTimedOut };
  }
  return { response, error: undefined, loadTimedOut };
}

async function linger(v: Visit, loadTimedOut: boolean): Promise<void> {
  // Pages that keep fetching after `load` usually render what they fetched; wait a little.
  const idleBudget = loadTimedOut ? 0 : Math.min(NETWORK_IDLE_CAP_MS, v.remaining() - FINISH_RESERVE_MS);
  if (idleBudget > 50) await v.page.waitForLoadState('networkidle', { timeout: idleBudget }).catch(noop);
  if (v.req.waitForMs > 0) await sleep(v.req.waitForMs, v.signal);
}

async function recover(v: Visit, error: unknown): Promise<FetchResult> {
  if (v.download || /Download is starting/i.test(String((error as Error).message))) return captureDownload(v);
  const response = v.lastDocumentResponse();
  if (!v.lease.mainBlocked && response && netErrorCode(error) === 'ERR_HTTP_RESPONSE_CODE_FAILURE') {
    // An error status with an empty body: Chromium shows its own error page instead, but
    // the answer itself (a bare 404, say) is still the site's answer.
    return captureBareError(v, response);
  }
  throw navigationError(error, v.lease);
}

/** The main frame ended on Chromium's error page after the navigation itself had committed. */
async function fromErrorPage(v: Visit): Promise<FetchResult> {
  const { lease } = v;
  if (lease.mainBlocked) throw lease.mainBlocked;
  const last = v.lastDocumentResponse();
  if (last && last.url() === lease.lastMainUrl) return captureBareError(v, last);
  throw lease.failureFor(lease.lastMainUrl) ?? new ApiError('SCRAPE_SITE_ERROR', { message: 'The page navigated to a browser error page' });
}

function throwIfBlocked(lease: Lease): void {
  if (lease.mainBlocked) throw toBrowserError(lease.mainBlocked);
}

function navigationError(e: unknown, lease: Lease): ApiError {
  if (lease.mainBlocked) return toBrowserError(lease.mainBlocked);
  if (isPlaywrightTimeout(e)) return new ApiError('SCRAPE_TIMEOUT');
  const code = netErrorCode(e);
  if (code && PROXY_FAILURE.test(code)) {
    const failure = lease.failureFor(lease.lastMainUrl);
    if (failure) return toBrowserError(failure);
  }
  return toBrowserError(e);
}
