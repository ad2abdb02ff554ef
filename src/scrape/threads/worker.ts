/**
 * Entry point of a page thread. It transforms pages, and, when the pool was started with HTTP
 * settings, fetches them too and transforms the answer on the spot, so a crawled page never
 * crosses to the main thread and back before its transform.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { AddressPolicy, SsrfGuard } from '../../security/ssrf.js';
import { isHtml, needsJavaScript } from '../detect.js';
import { HttpEngine } from '../engines/http.js';
import { transformPage } from '../../transform/index.js';
import type { FetchResult } from '../types.js';
import { toThreadError, type ThreadFetchRequest, type ThreadHttpSettings, type ThreadReply, type ThreadRequest } from './messages.js';

const port = parentPort;
if (port) {
  const settings = workerData as ThreadHttpSettings | undefined;
  const guard = settings ? new SsrfGuard(new AddressPolicy(settings.allowedCidrs)) : undefined;
  const http = settings && guard ? new HttpEngine({ guard, maxResponseBytes: settings.maxResponseBytes }) : undefined;
  const fetching = new Map<number, AbortController>();

  const fetchAndTransform = async (id: number, r: ThreadFetchRequest): Promise<FetchResult> => {
    if (!http || !guard) throw new Error('This page thread was started without HTTP settings');
    const abort = new AbortController();
    fetching.set(id, abort);
    try {
      const { transform, ...rest } = r;
      const result = await http.fetch({ ...rest, mobile: false, waitForMs: 0, guard, signal: abort.signal });
      if (transform && result.text !== undefined && isHtml(result)) {
        result.transformed = transformPage(result.text, { ...transform.opts, baseUrl: result.url }, transform.wants);
        if (transform.checkJavaScript) result.needsJavaScript = needsJavaScript(result.text);
        if (!transform.keepText) delete result.text;
      }
      return result;
    } finally {
      fetching.delete(id);
    }
  };

  port.on('message', (m: ThreadRequest) => {
    if (m.kind === 'abort') return fetching.get(m.id)?.abort();
    if (m.kind === 'fetch') {
      fetchAndTransform(m.id, m.req).then(
        // A body with a memory block of its own moves to the main thread instead of being copied.
        (result) => port.postMessage({ id: m.id, result } satisfies ThreadReply, ownsItsMemory(result.body) ? [result.body.buffer] : []),
        (e: unknown) => port.postMessage({ id: m.id, error: toThreadError(e) } satisfies ThreadReply),
      );
      return;
    }
    let reply: ThreadReply;
    try {
      reply = { id: m.id, result: transformPage(m.html, m.opts, m.wants) };
    } catch (e) {
      reply = { id: m.id, error: toThreadError(e) };
    }
    port.postMessage(reply);
  });
}

/** False for a small Buffer carved from Node's shared pool, whose block must stay where it is. */
function ownsItsMemory(b: Buffer): b is Buffer<ArrayBuffer> {
  return b.byteOffset === 0 && b.buffer.byteLength === b.byteLength && b.buffer instanceof ArrayBuffer;
}
