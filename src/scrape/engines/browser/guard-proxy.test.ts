import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, isApiError } from '../../../errors.js';
import type { UrlGuard } from '../../types.js';
import { GuardProxy } from './guard-proxy.js';
import { Lease } from './lease.js';
import { loopbackRefusingGuard, permissive } from './testing/site.js';

interface Origin {
  port: number;
  /** Request headers the origin saw, raw pairs. */
  seen: string[][];
  connections: number;
  close(): Promise<void>;
}

/** Serves plain HTTP (no Date header) and echoes raw TCP lines, on one port. */
async function startOrigin(): Promise<Origin> {
  const seen: string[][] = [];
  const http1 = http.createServer((req, res) => {
    seen.push(req.rawHeaders);
    res.sendDate = false;
    res.writeHead(200, { 'content-type': 'text/plain', 'x-site': '1' });
    res.end('hello');
  });
  const origin: Origin = { port: 0, seen, connections: 0, close: async () => {} };
  const server = net.createServer((s) => {
    origin.connections++;
    s.once('data', (d) => {
      if (d.toString().startsWith('ping')) {
        s.write(`pong:${d.toString()}`);
        s.on('data', (more) => s.write(`pong:${more.toString()}`));
      } else {
        s.pause();
        s.unshift(d);
        http1.emit('connection', s);
        s.resume();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin.port = (server.address() as net.AddressInfo).port;
  origin.close = async () => {
    http1.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return origin;
}

function connectVia(proxy: string, target: string): Promise<{ status: number; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const u = new URL(proxy);
    const req = http.request({ host: u.hostname, port: u.port, method: 'CONNECT', path: target });
    req.on('connect', (res, socket) => resolve({ status: res.statusCode ?? 0, socket }));
    req.on('error', reject);
    req.end();
  });
}

function getVia(proxy: string, url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(proxy);
    // The Host header names the target, as a browser's does, not the proxy.
    const req = http.request({ host: u.hostname, port: u.port, path: url, headers: { host: new URL(url).host, ...headers }, agent: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const leaseFor = (guard: UrlGuard) => new Lease(guard, {}, undefined, 'http://127.0.0.1/');

describe('GuardProxy', () => {
  let origin: Origin;
  let proxy: GuardProxy;
  let proxyUrl: string;

  beforeAll(async () => {
    origin = await startOrigin();
  });

  afterAll(async () => {
    await origin?.close();
  });

  const start = async () => {
    proxy = new GuardProxy(undefined);
    proxyUrl = await proxy.listen();
  };

  afterEach(async () => {
    await proxy?.close();
  });

  it('refuses connections while no fetch holds it', async () => {
    await start();
    expect((await connectVia(proxyUrl, `127.0.0.1:${origin.port}`)).status).toBe(403);
    const res = await getVia(proxyUrl, `http://127.0.0.1:${origin.port}/`);
    expect(res.status).toBe(403);
    expect(res.headers['x-gleaner-proxy']).toBe(proxy.marker);
    expect(origin.connections).toBe(0);
  });

  it('forwards plain requests without hop-by-hop headers or a Date of its own', async () => {
    await start();
    proxy.lease = leaseFor(permissive);
    const url = `http://127.0.0.1:${origin.port}/page?q=1`;
    const res = await getVia(proxyUrl, url, { 'proxy-connection': 'keep-alive', 'proxy-authorization': 'Basic eA==', 'x-custom': 'a' });
    expect(res).toMatchObject({ status: 200, body: 'hello', headers: { 'x-site': '1' } });
    expect(res.headers.date).toBeUndefined();
    const sent = Object.fromEntries((origin.seen.at(-1) ?? []).flatMap((v, i, all) => (i % 2 === 0 ? [[v.toLowerCase(), all[i + 1]]] : [])));
    expect(sent).toMatchObject({ 'x-custom': 'a', host: `127.0.0.1:${origin.port}`, connection: 'close' });
    expect(sent['proxy-connection']).toBeUndefined();
    expect(sent['proxy-authorization']).toBeUndefined();
    expect(proxy.peerFor(url)).toBe('127.0.0.1');
  });

  it('tunnels CONNECT requests and remembers the peer', async () => {
    await start();
    proxy.lease = leaseFor(permissive);
    const { status, socket } = await connectVia(proxyUrl, `127.0.0.1:${origin.port}`);
    expect(status).toBe(200);
    socket.write('ping');
    const reply = await new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
    socket.destroy();
    expect(reply).toBe('pong:ping');
    expect(proxy.peerFor(`https://127.0.0.1:${origin.port}/`)).toBe('127.0.0.1');
  });

  it('refuses an address the guard refuses, before connecting, and tells the lease why', async () => {
    await start();
    const lease = leaseFor(loopbackRefusingGuard);
    proxy.lease = lease;
    const before = origin.connections;
    expect((await connectVia(proxyUrl, `127.0.0.1:${origin.port}`)).status).toBe(502);
    expect(origin.connections).toBe(before);
    const failure = lease.failureFor(`https://127.0.0.1:${origin.port}/`);
    expect(isApiError(failure) && failure.key).toBe('URL_BLOCKED');
  });

  it('answers a refused URL with its own marked 502', async () => {
    await start();
    const refusal = new ApiError('URL_BLOCKED', { message: 'no' });
    const lease = leaseFor({ checkUrl: () => Promise.reject(refusal), checkAddress: () => {} });
    proxy.lease = lease;
    const url = `http://127.0.0.1:${origin.port}/`;
    const res = await getVia(proxyUrl, url);
    expect(res.status).toBe(502);
    expect(res.headers['x-gleaner-proxy']).toBe(proxy.marker);
    expect(lease.failureFor(url)).toBe(refusal);
  });

  it('keeps the cause of a failed connection for the lease', async () => {
    await start();
    const lease = leaseFor(permissive);
    proxy.lease = lease;
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect((await connectVia(proxyUrl, `127.0.0.1:${port}`)).status).toBe(502);
    expect(lease.failureFor(`https://127.0.0.1:${port}/`)).toMatchObject({ key: 'SCRAPE_SITE_ERROR', message: `Could not connect to 127.0.0.1:${port}: ECONNREFUSED` });
  });
});
