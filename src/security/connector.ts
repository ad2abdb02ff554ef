/**
 * The socket side of the SSRF guard, for every undici client that fetches on a user's behalf (the
 * HTTP engine, webhook delivery): names resolve through the guard, and a socket whose peer
 * address the guard refuses is closed before anything is sent.
 */
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';
import type { SsrfGuard } from './ssrf.js';

/** A connector that resolves through the guard and refuses a socket whose peer is not allowed. */
export function guardedConnector(guard: SsrfGuard, tls: { rejectUnauthorized: boolean }): buildConnector.connector {
  const base = buildConnector({ ...tls, lookup: guard.lookup } as buildConnector.BuildOptions);
  return (options, callback) =>
    base(options, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error('connect failed'), null);
      const peer = (socket as Socket).remoteAddress;
      try {
        if (peer) guard.checkAddress(peer, `${options.protocol}//${options.hostname}`);
      } catch (e) {
        socket.destroy();
        return callback(e as Error, null);
      }
      callback(null, socket);
    });
}
