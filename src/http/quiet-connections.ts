/**
 * Ends connections that carry no request when the server closes.
 *
 * Node's own idle sweep on close skips a connection that has not yet sent its first request
 * (a client that pre-connects, a port scanner, a slow client), so a single such socket held
 * shutdown open until the headers timeout, about a minute. Requests in flight still finish;
 * their connections end as soon as their last response has gone.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export function endQuietConnectionsOnClose(app: FastifyInstance): void {
  const inFlight = new Map<Socket, number>();
  let closing = false;

  app.server.on('connection', (socket: Socket) => {
    if (closing) return void socket.destroy();
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  // An upgraded connection (the status WebSocket, the CDP relay) belongs to its own handler,
  // which closes it on shutdown.
  app.server.on('upgrade', (req: { socket: Socket }) => inFlight.delete(req.socket));
  app.server.on('request', (req, res) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const count = inFlight.get(socket);
      // The connection itself may have closed first (a client that gave up): nothing to track.
      if (count === undefined) return;
      inFlight.set(socket, count - 1);
      if (closing && count === 1) socket.end();
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const [socket, count] of inFlight) if (count === 0) socket.destroy();
  });
}
