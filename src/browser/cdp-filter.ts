/**
 * Vets each CDP command a client sends before it reaches the session's Chromium. Connections
 * are already held by the guard proxy at the process level; what this adds is the part the
 * proxy cannot see: navigations to non-web schemes (`file:`, `chrome:`...), which never touch
 * the network, commands that hand the browser host paths (file inputs, downloads, extensions),
 * and commands that would take a context or a page out from behind the proxy or the relay.
 */
import { isApiError } from '../errors.js';
import type { UrlGuard } from '../scrape/types.js';

/** What to do with one client message: send it on (possibly rewritten) or answer it here. */
export type CdpVerdict = { forward: string } | { reply: string };

interface Command {
  id?: unknown;
  method?: unknown;
  sessionId?: unknown;
  params?: Record<string, unknown>;
}

/** Whole domains with no use here that reach the host or other browsers. */
const REFUSED_DOMAINS = new Set(['Extensions', 'PWA', 'Cast']);

const REFUSED_METHODS: Record<string, string> = {
  // Gives the page's own script a CDP channel that would bypass this filter.
  'Target.exposeDevToolsProtocol': 'exposing the protocol to a page is not allowed',
  // Both name files on the server's disk, which the page could then read.
  'DOM.setFileInputFiles': 'file inputs cannot name files on the server',
  'Page.setDownloadBehavior': 'downloads are not allowed',
  'Target.setRemoteLocations': 'discovering other browsers is not allowed',
};

/** Parameters that hold a URL Chromium navigates to or fetches, per method. */
const URL_PARAMS: Record<string, string> = {
  'Page.navigate': 'url',
  'Target.createTarget': 'url',
  'Network.loadNetworkResource': 'url',
  'Fetch.continueRequest': 'url',
  'Network.continueInterceptedRequest': 'url',
};

const errorReply = (cmd: Command, message: string): CdpVerdict => ({
  reply: JSON.stringify({
    id: cmd.id,
    ...(typeof cmd.sessionId === 'string' ? { sessionId: cmd.sessionId } : {}),
    error: { code: -32000, message: `Refused by the server: ${message}` },
  }),
});

async function checkTarget(url: string, guard: UrlGuard): Promise<string | undefined> {
  if (url === 'about:blank') return undefined;
  let scheme: string;
  try {
    scheme = new URL(url).protocol;
  } catch {
    return `'${url.slice(0, 200)}' is not a URL`;
  }
  if (scheme !== 'http:' && scheme !== 'https:') return `the ${scheme} scheme is not allowed; only http, https and about:blank`;
  try {
    await guard.checkUrl(url);
  } catch (e) {
    return isApiError(e) ? e.message : 'the URL is not allowed';
  }
  return undefined;
}

export async function vetCdpCommand(raw: string, guard: UrlGuard): Promise<CdpVerdict> {
  let cmd: Command;
  try {
    cmd = JSON.parse(raw) as Command;
  } catch {
    // Chromium answers malformed JSON itself, without acting on it.
    return { forward: raw };
  }
  if (typeof cmd !== 'object' || cmd === null || typeof cmd.method !== 'string') return { forward: raw };
  const method = cmd.method;
  const params = typeof cmd.params === 'object' && cmd.params !== null ? cmd.params : {};
  if (REFUSED_DOMAINS.has(method.split('.')[0] ?? '')) return errorReply(cmd, `the ${method.split('.')[0]} domain is not available`);
  const refused = REFUSED_METHODS[method];
  if (refused) return errorReply(cmd, refused);

  const urlParam = URL_PARAMS[method];
  const url = urlParam ? params[urlParam] : undefined;
  if (typeof url === 'string') {
    const why = await checkTarget(url, guard);
    if (why) return errorReply(cmd, why);
  }

  switch (method) {
    case 'Target.createBrowserContext':
      // A context with a proxy of its own would connect around the guard proxy.
      if ('proxyServer' in params || 'proxyBypassList' in params) return errorReply(cmd, 'contexts cannot set their own proxy');
      break;
    case 'Browser.setDownloadBehavior':
      // Clients (Playwright among them) send this while setting up a context, with a path on
      // their own machine; answering with an error would fail the connection, so it becomes a
      // refusal of downloads, which never writes to the server's disk.
      return {
        forward: JSON.stringify({
          ...cmd,
          params: { behavior: 'deny', ...(params.browserContextId !== undefined ? { browserContextId: params.browserContextId } : {}), ...(params.eventsEnabled !== undefined ? { eventsEnabled: params.eventsEnabled } : {}) },
        }),
      };
    case 'Input.dispatchDragEvent': {
      const data = params.data as { files?: unknown } | undefined;
      if (Array.isArray(data?.files) && data.files.length > 0) return errorReply(cmd, 'dragged data cannot name files on the server');
      break;
    }
  }
  return { forward: raw };
}
