/**
 * Chaining to the operator's proxy. Chromium is always pointed at the guard proxy, which then
 * reaches the site through an upstream http(s):// or socks5:// proxy when the fetch names one.
 * Chromium cannot authenticate to a SOCKS5 proxy, which is one reason the chaining is done here.
 */
import { Buffer } from 'node:buffer';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../../../errors.js';
import { authority, stripBrackets } from './hosts.js';
import { connectTcp, SocketReader } from './sockets.js';

const SUPPORTED_SCHEMES = ['http:', 'https:', 'socks5:', 'socks5h:'];

const SOCKS_REPLIES: Record<number, string> = {
  1: 'general failure',
  2: 'not allowed by ruleset',
  3: 'network unreachable',
  4: 'host unreachable',
  5: 'connection refused',
  6: 'TTL expired',
  7: 'command not supported',
  8: 'address type not supported',
};

export function parseUpstream(proxyUrl: string | undefined): URL | undefined {
  if (!proxyUrl) return undefined;
  let url: URL;
  try {
    url = new URL(proxyUrl);
  } catch {
    throw new ApiError('SCRAPE_SITE_ERROR', { message: 'The configured proxy URL is not a valid URL' });
  }
  if (!SUPPORTED_SCHEMES.includes(url.protocol)) {
    throw new ApiError('SCRAPE_SITE_ERROR', { message: `Proxy scheme ${url.protocol} is not supported by the browser engine` });
  }
  return url;
}

/** HTTP proxies also take plain requests in absolute form; SOCKS proxies only tunnel. */
export const isHttpProxy = (upstream: URL): boolean => !upstream.protocol.startsWith('socks');

/** The `Proxy-Authorization` value for the credentials in the proxy URL, if it has any. */
export function basicAuth(url: URL): string | undefined {
  if (!url.username && !url.password) return undefined;
  const creds = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return `Basic ${Buffer.from(creds).toString('base64')}`;
}

const upstreamPort = (u: URL): number => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : u.protocol === 'http:' ? 80 : 1080);

/** A connection to the proxy itself (TLS for https:// proxies), not yet to any target. */
export function openUpstream(upstream: URL): Promise<net.Socket> {
  return connectTcp(stripBrackets(upstream.hostname), upstreamPort(upstream), upstream.protocol === 'https:', upstream.hostname);
}

/** A tunnel to `host:port` through the proxy; the proxy resolves the name. */
export function tunnelThrough(upstream: URL, host: string, port: number): Promise<net.Socket> {
  return isHttpProxy(upstream) ? viaHttpConnect(upstream, host, port) : viaSocks5(upstream, host, port);
}

/** Runs a handshake on a fresh proxy connection, which is destroyed if the handshake fails. */
async function handshake(upstream: URL, talk: (sock: net.Socket, reader: SocketReader) => Promise<void>): Promise<net.Socket> {
  const sock = await openUpstream(upstream);
  try {
    const reader = new SocketReader(sock);
    await talk(sock, reader);
    reader.release();
    return sock;
  } catch (e) {
    sock.destroy();
    throw e;
  }
}

function viaHttpConnect(upstream: URL, host: string, port: number): Promise<net.Socket> {
  return handshake(upstream, async (sock, reader) => {
    const target = authority(host, port);
    const auth = basicAuth(upstream);
    sock.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ''}\r\n`);
    const head = await reader.read((b) => {
      const end = b.indexOf('\r\n\r\n');
      return end < 0 ? undefined : end + 4;
    });
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.toString('latin1'))?.[1];
    if (status !== '200') throw new Error(`upstream proxy answered CONNECT ${target} with ${status ?? 'garbage'}`);
  });
}

/** A SOCKS5 CONNECT (RFC 1928) with username/password auth (RFC 1929). */
function viaSocks5(upstream: URL, host: string, port: number): Promise<net.Socket> {
  return handshake(upstream, async (sock, reader) => {
    const user = Buffer.from(decodeURIComponent(upstream.username));
    const pass = Buffer.from(decodeURIComponent(upstream.password));
    const withAuth = user.length > 0 || pass.length > 0;
    sock.write(Buffer.from([5, 1, withAuth ? 2 : 0]));
    const [version, method] = await reader.read(() => 2);
    if (version !== 5) throw new Error('upstream is not a SOCKS5 proxy');
    if (method === 2 && withAuth) {
      if (user.length > 255 || pass.length > 255) throw new Error('SOCKS5 credentials are too long');
      sock.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]));
      const [, status] = await reader.read(() => 2);
      if (status !== 0) throw new Error('SOCKS5 proxy refused the credentials');
    } else if (method !== 0) {
      throw new Error('SOCKS5 proxy accepts none of the offered authentication methods');
    }
    sock.write(Buffer.concat([Buffer.from([5, 1, 0]), socksAddress(host), Buffer.from([port >> 8, port & 0xff])]));
    const reply = await reader.read((b) => {
      if (b.length < 5) return undefined;
      const atyp = b[3];
      const addrLen = atyp === 1 ? 4 : atyp === 4 ? 16 : atyp === 3 ? 1 + (b[4] ?? 0) : 0;
      return 4 + addrLen + 2;
    });
    const code = reply[1] ?? 1;
    if (code !== 0) throw new Error(`SOCKS5 proxy could not connect to ${authority(host, port)}: ${SOCKS_REPLIES[code] ?? `code ${code}`}`);
  });
}

/** ATYP and address of a SOCKS5 request: an IP literal as bytes, anything else as a name. */
export function socksAddress(host: string): Buffer {
  const bare = stripBrackets(host);
  if (net.isIP(bare)) {
    const ip = ipaddr.parse(bare);
    return Buffer.from([ip.kind() === 'ipv4' ? 1 : 4, ...ip.toByteArray()]);
  }
  const name = Buffer.from(bare);
  if (name.length > 255) throw new Error('host name too long for SOCKS5');
  return Buffer.concat([Buffer.from([3, name.length]), name]);
}
