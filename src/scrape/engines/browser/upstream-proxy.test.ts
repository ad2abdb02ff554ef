import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../errors.js';
import { startSocks5Server } from './testing/socks5-server.js';
import { basicAuth, parseUpstream, socksAddress, tunnelThrough } from './upstream-proxy.js';

/** Answers every line it gets with `echo:<line>`. */
async function startEchoServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('data', (d) => s.write(`echo:${d.toString()}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An HTTP proxy that answers CONNECT with `reply`, in the same packet as `trailing` bytes. */
async function startConnectProxy(reply: string, trailing = ''): Promise<{ port: number; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    let head = '';
    s.on('data', (d) => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      requests.push(head);
      s.write(`${reply}\r\n\r\n${trailing}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    requests,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function firstData(sock: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    sock.once('data', (d: Buffer) => resolve(d.toString()));
    sock.once('error', reject);
    sock.resume();
  });
}

describe('parseUpstream and basicAuth', () => {
  it('accepts http(s) and socks5 proxies only', () => {
    expect(parseUpstream(undefined)).toBeUndefined();
    expect(parseUpstream('socks5://p.test:1080')?.port).toBe('1080');
    expect(() => parseUpstream('::nope')).toThrow(ApiError);
    expect(() => parseUpstream('socks4://p.test')).toThrow(/socks4: is not supported/);
  });

  it('decodes the credentials in the URL', () => {
    expect(basicAuth(new URL('http://bob:pa%40ss@p.test'))).toBe(`Basic ${Buffer.from('bob:pa@ss').toString('base64')}`);
    expect(basicAuth(new URL('http://p.test'))).toBeUndefined();
  });
});

describe('socksAddress', () => {
  it('sends IP literals as bytes and anything else as a name', () => {
    expect([...socksAddress('10.1.2.3')]).toEqual([1, 10, 1, 2, 3]);
    expect([...socksAddress('[::1]')]).toEqual([4, ...Array<number>(15).fill(0), 1]);
    expect(socksAddress('2001:db8::ffff:1.2.3.4').toString('hex')).toBe('0420010db8000000000000ffff01020304');
    expect([...socksAddress('a.test')]).toEqual([3, 6, ...Buffer.from('a.test')]);
    expect(() => socksAddress(`${'a'.repeat(256)}.test`)).toThrow(/too long/);
  });
});

describe('tunnelThrough', () => {
  let echo: Awaited<ReturnType<typeof startEchoServer>>;

  beforeAll(async () => {
    echo = await startEchoServer();
  });

  afterAll(async () => {
    await echo?.close();
  });

  it('tunnels through a SOCKS5 proxy with credentials', async () => {
    const socks = await startSocks5Server();
    try {
      const sock = await tunnelThrough(new URL(`socks5://alice:pa%40ss@127.0.0.1:${socks.port}`), '127.0.0.1', echo.port);
      sock.write('hi');
      expect(await firstData(sock)).toBe('echo:hi');
      sock.destroy();
      expect(socks.seen).toEqual([{ user: 'alice', pass: 'pa@ss', target: `127.0.0.1:${echo.port}` }]);
    } finally {
      await socks.close();
    }
  });

  it('reports a SOCKS5 refusal in words', async () => {
    const socks = await startSocks5Server({ refuseWith: 5 });
    try {
      await expect(tunnelThrough(new URL(`socks5://u:p@127.0.0.1:${socks.port}`), 'site.test', 443)).rejects.toThrow(
        'SOCKS5 proxy could not connect to site.test:443: connection refused',
      );
    } finally {
      await socks.close();
    }
  });

  it('tunnels through an HTTP proxy without losing bytes sent right after its answer', async () => {
    const proxy = await startConnectProxy('HTTP/1.1 200 Connection Established', 'early-bytes');
    try {
      const sock = await tunnelThrough(new URL(`http://bob:s3cret@127.0.0.1:${proxy.port}`), '::1', 8443);
      expect(await firstData(sock)).toBe('early-bytes');
      sock.destroy();
      expect(proxy.requests[0]).toBe(
        `CONNECT [::1]:8443 HTTP/1.1\r\nHost: [::1]:8443\r\nProxy-Authorization: Basic ${Buffer.from('bob:s3cret').toString('base64')}\r\n\r\n`,
      );
    } finally {
      await proxy.close();
    }
  });

  it('fails when the HTTP proxy refuses the tunnel', async () => {
    const proxy = await startConnectProxy('HTTP/1.1 407 Proxy Authentication Required');
    try {
      await expect(tunnelThrough(new URL(`http://127.0.0.1:${proxy.port}`), 'site.test', 443)).rejects.toThrow(
        'upstream proxy answered CONNECT site.test:443 with 407',
      );
    } finally {
      await proxy.close();
    }
  });
});
