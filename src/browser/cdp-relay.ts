/**
 * Relays a client's CDP websocket to a session's Chromium, vetting every command on the way in
 * (cdp-filter.ts) and passing Chromium's answers and events back untouched. The API's shared
 * websocket server caps messages at a size that suits status streams; CDP clients send scripts
 * of several hundred kilobytes (Playwright's injected script), so the relay has its own.
 * Chromium's side never leaves loopback.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { ApiError } from '../errors.js';
import type { UrlGuard } from '../scrape/types.js';
import { vetCdpCommand } from './cdp-filter.js';

const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const DIAL_TIMEOUT_MS = 10_000;

/** One relayed client connection; closing it closes both sides. */
export interface CdpConnection {
  close(): void;
  readonly closed: Promise<void>;
}

const text = (data: RawData): string => (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)).toString('utf8');

function dial(endpoint: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(endpoint, { maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false, handshakeTimeout: DIAL_TIMEOUT_MS });
    ws.once('open', () => {
      ws.removeAllListeners('error');
      resolve(ws);
    });
    ws.once('error', (e) => reject(new ApiError('BAD_GATEWAY', { message: "Could not reach the session's browser", cause: e })));
  });
}

export class CdpRelay {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });

  /** Opens the browser side first, so a browser that is gone is still an HTTP error. */
  dial(endpoint: string): Promise<WebSocket> {
    return dial(endpoint);
  }

  /** Completes the client's upgrade on its raw socket and relays until either side closes. */
  async attach(req: IncomingMessage, socket: Duplex, browser: WebSocket, guard: UrlGuard): Promise<CdpConnection> {
    let client: WebSocket;
    try {
      client = await new Promise<WebSocket>((resolve, reject) => {
        // `ws` answers a malformed upgrade itself and never calls back.
        const onClose = () => reject(new Error('the client went away during the upgrade'));
        socket.once('close', onClose);
        this.wss.handleUpgrade(req, socket, Buffer.alloc(0), (ws) => {
          socket.off('close', onClose);
          resolve(ws);
        });
      });
    } catch (e) {
      browser.terminate();
      throw e;
    }
    let done!: () => void;
    const closed = new Promise<void>((r) => (done = r));
    const close = () => {
      client.close();
      browser.close();
      // A peer that does not answer the close handshake is cut off.
      setTimeout(() => {
        client.terminate();
        browser.terminate();
      }, 1_000).unref();
    };
    client.on('error', () => client.terminate());
    browser.on('error', () => browser.terminate());
    client.on('close', () => {
      browser.close();
      done();
    });
    browser.on('close', () => client.close());

    // Commands are vetted in order: an awaited guard check must not let a later one overtake it.
    let queue = Promise.resolve();
    client.on('message', (data) => {
      const raw = text(data);
      queue = queue
        .then(async () => {
          const verdict = await vetCdpCommand(raw, guard);
          if ('reply' in verdict) client.send(verdict.reply);
          else if (browser.readyState === WebSocket.OPEN) browser.send(verdict.forward);
        })
        .catch(() => close());
    });
    browser.on('message', (data) => {
      if (client.readyState === WebSocket.OPEN) client.send(text(data));
    });
    return { close, closed };
  }

  close(): void {
    for (const c of this.wss.clients) c.terminate();
    this.wss.close();
  }
}
