/**
 * Capture: turning what the page got into a FetchResult. The body is the bytes the site sent
 * (fetched again when Chromium will not hand them over), the text is the DOM after scripts ran.
 */
import { Buffer } from 'node:buffer';
import { readFile, stat } from 'node:fs/promises';
import type { Page, Response as PwResponse } from 'playwright-core';
import { ApiError } from '../../../errors.js';
import type { FetchResult, ScreenshotRequest } from '../../types.js';
import { decodeBody, isTextual } from '../../../core/charset.js';
import { responseTooLarge } from '../too-large.js';
import { readDocument } from './bounded-read.js';
import { readRenderedStyles } from './computed-styles.js';
import type { Visit } from './visit.js';
import { noop, throwIfAborted, untilAborted, withTimeout } from './waits.js';

const HEADERS_TIMEOUT_MS = 2_000;

interface MainDocument {
  status: number;
  headers: Record<string, string>;
  body: Buffer | undefined;
  url: string;
}

export async function captureDocument(v: Visit, response: PwResponse): Promise<FetchResult> {
  const headers = await siteHeadersOf(v, response);
  let main: MainDocument = { status: response.status(), headers, body: await boundedBody(v, response, headers), url: v.page.url() };
  const mime = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mime === 'application/pdf' && !main.body?.subarray(0, 1024).includes('%PDF')) {
    // Chromium's PDF viewer hands out its own wrapper page instead of the document's bytes.
    main = await refetch(v, response.url());
  }
  const contentType = main.headers['content-type'] ?? '';
  const htmlLike = mime === '' || mime === 'text/html' || mime === 'application/xhtml+xml';
  let text: string | undefined;
  if (htmlLike || !main.body) text = await renderedHtml(v);
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
  attachPeer(v, result, response.url());
  if (v.req.screenshot) result.screenshot = await screenshot(v, v.req.screenshot);
  if (v.req.styles && htmlLike) {
    const styles = await readRenderedStyles(v.page, v.timeout());
    if (styles) result.styles = styles;
  }
  result.timings.totalMs = v.elapsed();
  return result;
}

/** An error status with an empty body, which Chromium replaced with its own error page. */
export async function captureBareError(v: Visit, response: PwResponse): Promise<FetchResult> {
  const headers = await siteHeadersOf(v, response);
  // Chromium reports its error page as the body; the site sent none.
  const result: FetchResult = {
    engine: 'browser',
    url: response.url(),
    status: response.status(),
    headers,
    contentType: headers['content-type'] ?? '',
    body: Buffer.alloc(0),
    text: '',
    timings: { totalMs: v.elapsed() },
  };
  attachPeer(v, result, response.url());
  return result;
}

/** A main resource the browser saved instead of rendering it. */
export async function captureDownload(v: Visit): Promise<FetchResult> {
  const download = v.download ?? (await v.page.waitForEvent('download', { timeout: v.timeout(2_000) }));
  v.download = download;
  try {
    const file = await untilAborted(download.path(), v.signal);
    checkSize(v, (await stat(file)).size);
    const body = await readFile(file);
    const response = v.lastDocumentResponse();
    const headers = response ? await headersOf(response) : {};
    const contentType = headers['content-type'] ?? 'application/octet-stream';
    const result: FetchResult = {
      engine: 'browser',
      url: download.url(),
      status: response?.status() ?? 200,
      headers,
      contentType,
      body,
      timings: { totalMs: v.elapsed() },
    };
    if (isTextual(contentType, body)) result.text = decodeBody(body, contentType);
    return result;
  } finally {
    await download.delete().catch(noop);
  }
}

/** The bytes of a main resource the browser would not hand over, fetched by the context. */
async function refetch(v: Visit, url: string): Promise<MainDocument> {
  await v.lease.guard.checkUrl(url);
  throwIfAborted(v.signal);
  // The context's request client shares its cookies and its proxy (so the guard proxy too).
  const res = await v.pc.context.request.get(url, {
    headers: v.lease.extraHeaders(true),
    timeout: v.timeout(),
    failOnStatusCode: false,
    maxRedirects: 10,
  });
  try {
    const headers: Record<string, string> = {};
    for (const { name, value } of res.headersArray()) {
      const k = name.toLowerCase();
      headers[k] = headers[k] === undefined ? value : `${headers[k]}, ${value}`;
    }
    checkSize(v, Number(headers['content-length'] ?? 0));
    const body = await res.body();
    checkSize(v, body.length);
    return { status: res.status(), headers, body, url: res.url() };
  } finally {
    await res.dispose().catch(noop);
  }
}

function checkSize(v: Visit, bytes: number): void {
  if (bytes > v.maxResponseBytes) throw responseTooLarge(v.maxResponseBytes);
}

/**
 * The main document's bytes, asked of Chromium only once it says they fit: by the declared
 * length, then by what it received, then by what it hands over.
 */
async function boundedBody(v: Visit, response: PwResponse, headers: Record<string, string>): Promise<Buffer | undefined> {
  checkSize(v, Number(headers['content-length'] ?? 0) || 0);
  const sizes = await response.request().sizes().catch(() => undefined);
  if (sizes) checkSize(v, sizes.responseBodySize);
  const body = await response.body().catch(() => undefined);
  if (body) checkSize(v, body.length);
  return body;
}

/** The DOM after scripts ran; its size is measured in the page, before it is read over. */
export async function readBoundedHtml(page: Page, maxBytes: number): Promise<string> {
  const html = await readDocument(page, maxBytes, () => responseTooLarge(maxBytes));
  // Measured in UTF-16 units there (never more than the UTF-8 bytes); bytes are what count.
  if (Buffer.byteLength(html, 'utf8') > maxBytes) throw responseTooLarge(maxBytes);
  return html;
}

async function renderedHtml(v: Visit): Promise<string> {
  try {
    return await readBoundedHtml(v.page, v.maxResponseBytes);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    // A script navigated while the DOM was being read; read the new document once it loads.
    await v.page.waitForLoadState('load', { timeout: v.timeout() }).catch(noop);
    if (v.page.isClosed()) throw e;
    return readBoundedHtml(v.page, v.maxResponseBytes);
  }
}

async function screenshot(v: Visit, shot: ScreenshotRequest): Promise<NonNullable<FetchResult['screenshot']>> {
  const jpeg = shot.quality !== undefined;
  const data = await v.page.screenshot({
    type: jpeg ? 'jpeg' : 'png',
    ...(jpeg ? { quality: Math.min(100, Math.max(1, Math.round(shot.quality ?? 80))) } : {}),
    fullPage: shot.fullPage,
    timeout: v.timeout(),
  });
  checkSize(v, data.length);
  return { data, mime: jpeg ? 'image/jpeg' : 'image/png' };
}

/** Lower-cased response headers; the full set when Chromium can say it in time. */
async function headersOf(response: PwResponse): Promise<Record<string, string>> {
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

/** The site's headers, unless the guard proxy made the answer up: then the failure behind it. */
async function siteHeadersOf(v: Visit, response: PwResponse): Promise<Record<string, string>> {
  const headers = await headersOf(response);
  if (headers['x-gleaner-proxy'] === v.pc.proxy.marker) {
    throw v.lease.failureFor(response.url()) ?? new ApiError('SCRAPE_SITE_ERROR', { message: 'The site could not be reached' });
  }
  return headers;
}

/** The browser only ever sees the guard proxy's address; the proxy knows the real peer. */
function attachPeer(v: Visit, result: FetchResult, url: string): void {
  if (v.pc.emulation.upstream) return;
  const peer = v.pc.proxy.peerFor(url);
  if (!peer) return;
  v.lease.guard.checkAddress(peer, url);
  result.remoteAddress = peer;
}
