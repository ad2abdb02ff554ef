import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { endQuietConnectionsOnClose } from './quiet-connections.js';

async function serve(): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify();
  endQuietConnectionsOnClose(app);
  app.get('/slow', async () => {
    await new Promise((r) => setTimeout(r, 300));
    return { done: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as net.AddressInfo).port };
}

const connect = (port: number) =>
  new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });

const ended = (socket: net.Socket) => new Promise<void>((r) => socket.once('close', () => r()));

describe('closing the server', () => {
  it('ends a connection that never sent a request instead of waiting for it', async () => {
    const { app, port } = await serve();
    const quiet = await connect(port);
    const gone = ended(quiet);
    await app.close(); // without the sweep this waits for the headers timeout, about a minute
    await gone;
    expect(quiet.destroyed).toBe(true);
  });

  it('lets a request in flight finish and then ends its connection', async () => {
    const { app, port } = await serve();
    const answer = fetch(`http://127.0.0.1:${port}/slow`).then((r) => r.json());
    await new Promise((r) => setTimeout(r, 100));
    await app.close();
    expect(await answer).toEqual({ done: true });
  });
});
