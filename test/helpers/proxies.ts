/**
 * Real proxy servers for tests: an HTTP proxy (CONNECT tunnels and absolute-URI requests) and a
 * SOCKS5 proxy (no auth, CONNECT), each able to dial out from a chosen local address so the
 * fixture site can tell which proxy a request came through.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

export interface TestProxy {
  url: string;
  /** Connections or requests relayed. */
  hits: number;
  close(): Promise<void>;
}

const closeServer = (server: net.Server, sockets: Set<net.Socket>) =>
  new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  });

export async function startHttpProxy(localAddress = '127.0.0.1'): Promise<TestProxy> {
  const sockets = new Set<net.Socket>();
  const proxy: TestProxy = { url: '', hits: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    // Absolute-URI form: forward the request.
    proxy.hits++;
    const target = new URL(req.url ?? '');
    const upstream = http.request(
      { host: target.hostname, port: target.port || 80, path: target.pathname + target.search, method: req.method, headers: req.headers, localAddress },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: net.Socket, head) => {
    proxy.hits++;
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect({ host, port: Number(port), localAddress }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => closeServer(server, sockets);
  return proxy;
}

export async function startSocksProxy(localAddress = '127.0.0.1'): Promise<TestProxy> {
  const sockets = new Set<net.Socket>();
  const proxy: TestProxy = { url: '', hits: 0, close: async () => undefined };
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('error', () => client.destroy());
    client.once('data', (greeting) => {
      if (greeting[0] !== 5) return client.destroy();
      client.write(Buffer.from([5, 0])); // version 5, no authentication
      client.once('data', (req) => {
        // VER CMD RSV ATYP ADDR PORT
        if (req[0] !== 5 || req[1] !== 1) return client.destroy();
        let host: string;
        let offset: number;
        if (req[3] === 1) {
          host = [...req.subarray(4, 8)].join('.');
          offset = 8;
        } else if (req[3] === 3) {
          const len = req[4]!;
          host = req.subarray(5, 5 + len).toString();
          offset = 5 + len;
        } else return client.destroy();
        const port = req.readUInt16BE(offset);
        proxy.hits++;
        const upstream = net.connect({ host, port, localAddress }, () => {
          client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
          upstream.pipe(client);
          client.pipe(upstream);
        });
        sockets.add(upstream);
        upstream.on('error', () => client.destroy());
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `socks5://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => closeServer(server, sockets);
  return proxy;
}
