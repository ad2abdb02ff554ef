/**
 * The second SSRF layer: a forward proxy in this process that every connection of a context
 * goes through. Request routing alone is not enough: Playwright follows redirect hops without
 * asking the route handler again, and Chromium resolves names itself after the guard did. The
 * proxy resolves the name, checks the address it is about to connect to, and only then
 * connects — directly, or through the operator's upstream proxy.
 */
import { randomUUID } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { isApiError } from '../../../errors.js';
import { connectError } from './errors.js';
import { authority, hostKey, stripBrackets, urlHostKey } from './hosts.js';
import type { Lease } from './lease.js';
import { connectTcp } from './sockets.js';
import { basicAuth, isHttpProxy, openUpstream, tunnelThrough } from './upstream-proxy.js';
import { noop } from './waits.js';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** A CONNECT request's target: `host:port` or `[v6]:port`. */
const CONNECT_TARGET = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/;

/** Raw header pairs without the ones that belong to a single hop. */
function endToEnd(rawHeaders: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? '';
    if (!HOP_BY_HOP.has(name.toLowerCase())) out.push(name, rawHeaders[i + 1] ?? '');
  }
  return out;
}

export class GuardProxy {
  /** The fetch currently holding this proxy's context; connections without one are refused. */
  lease: Lease | undefined;
  /** Unguessable value of the marker header on answers the proxy itself made up. */
  readonly marker = randomUUID();
  /** Last address connected to, per host:port (the page's own view only shows this proxy). */
  private readonly peers = new Map<string, string>();
  private readonly sockets = new Set<Duplex>();
  private readonly server: http.Server;
  private closed = false;

  constructor(private readonly upstream: URL | undefined) {
    this.server = http.createServer((req, res) => {
      this.onRequest(req, res).catch(() => res.destroy());
    });
    this.server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      this.onConnect(req, socket, head).catch(() => socket.destroy());
    });
    this.server.on('upgrade', (_req: http.IncomingMessage, socket: Duplex) => socket.destroy());
    this.server.on('connection', (socket: Duplex) => this.track(socket));
    this.server.on('clientError', (_e: Error, socket: Duplex) => socket.destroy());
  }

  /** Starts listening on a loopback port; resolves to the proxy server URL for Chromium. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.server.address() as net.AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  peerFor(url: string): string | undefined {
    const key = urlHostKey(url);
    return key ? this.peers.get(key) : undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.lease = undefined;
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await done;
  }

  private track(socket: Duplex): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /** The page only sees a 502 from here; the lease keeps the real cause for the error. */
  private fail(lease: Lease, host: string, port: number, e: unknown): void {
    lease.recordFailure(hostKey(host, port), connectError(host, port, e));
  }

  /** Vets the target, then opens a socket to it (directly or through the upstream proxy). */
  private async dial(lease: Lease, host: string, port: number, url: string): Promise<net.Socket> {
    await lease.subresource(url);
    // The operator's proxy resolves and connects; like the HTTP engine, it is trusted.
    if (this.upstream) return tunnelThrough(this.upstream, host, port);
    const bare = stripBrackets(host);
    const addresses = net.isIP(bare) ? [bare] : (await dns.promises.lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
    let lastError: unknown = new Error('no addresses');
    for (const address of addresses.slice(0, 4)) {
      // Checked against the address about to be used, so a rebinding DNS answer gains nothing.
      lease.guard.checkAddress(address, url);
      try {
        const sock = await connectTcp(address, port, false);
        const peer = sock.remoteAddress ?? address;
        try {
          lease.guard.checkAddress(peer, url);
        } catch (e) {
          sock.destroy();
          throw e;
        }
        this.peers.set(hostKey(host, port), peer);
        return sock;
      } catch (e) {
        if (isApiError(e)) throw e;
        lastError = e;
      }
    }
    throw lastError;
  }

  private async onConnect(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', noop);
    const lease = this.lease;
    const m = CONNECT_TARGET.exec(req.url ?? '');
    if (!lease || !m) {
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const host = m[1] ?? '';
    const port = Number(m[2]);
    // Only the origin is known inside a tunnel; port 80 tunnels carry ws:// and plain HTTP.
    const url = `${port === 80 ? 'http' : 'https'}://${authority(host, port)}/`;
    let upstream: net.Socket;
    try {
      upstream = await this.dial(lease, host, port, url);
    } catch (e) {
      this.fail(lease, host, port, e);
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (client.destroyed || this.closed) {
      upstream.destroy();
      return;
    }
    this.track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
    upstream.resume();
  }

  /** Plain http:// requests arrive in absolute form; they are forwarded one per connection. */
  private async onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const lease = this.lease;
    let target: URL | undefined;
    try {
      target = new URL(req.url ?? '');
    } catch {
      target = undefined;
    }
    if (!lease || !target || target.protocol !== 'http:') return this.refuse(res, 403);
    const port = target.port ? Number(target.port) : 80;
    // An HTTP proxy takes the request as it is; through SOCKS, the proxy only carries the bytes.
    const httpProxy = this.upstream && isHttpProxy(this.upstream) ? this.upstream : undefined;
    let socket: net.Socket;
    try {
      if (httpProxy) {
        await lease.subresource(target.href);
        socket = await openUpstream(httpProxy);
      } else {
        socket = await this.dial(lease, target.hostname, port, target.href);
      }
    } catch (e) {
      this.fail(lease, target.hostname, port, e);
      return this.refuse(res, 502);
    }
    if (res.destroyed || this.closed) {
      socket.destroy();
      return;
    }
    this.track(socket);
    const headers = endToEnd(req.rawHeaders);
    if (!headers.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host')) headers.push('Host', target.host);
    const auth = httpProxy ? basicAuth(httpProxy) : undefined;
    if (auth) headers.push('Proxy-Authorization', auth);
    headers.push('Connection', 'close');
    const out = http.request({
      method: req.method ?? 'GET',
      path: httpProxy ? target.href : `${target.pathname}${target.search}`,
      headers,
      setHost: false,
      createConnection: () => socket,
    });
    // A socket that went through a proxy handshake was left paused; the parser is attached now.
    out.once('socket', (s) => s.resume());
    // The origin's Date (or its absence) is what the page should see, not this hop's clock.
    res.sendDate = false;
    out.on('response', (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, endToEnd(up.rawHeaders));
      up.pipe(res);
      up.on('error', () => res.destroy());
    });
    out.on('error', (e) => {
      this.fail(lease, target.hostname, port, e);
      if (res.headersSent) res.destroy();
      else this.refuse(res, 502);
    });
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  }

  private refuse(res: http.ServerResponse, status: number): void {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'content-type': 'text/plain', 'content-length': '0', 'x-gleaner-proxy': this.marker, connection: 'close' });
    res.end();
  }
}
