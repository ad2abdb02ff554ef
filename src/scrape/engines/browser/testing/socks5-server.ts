/** A minimal SOCKS5 server for tests (RFC 1928/1929): username/password auth, CONNECT only. */
import net from 'node:net';

export interface Socks5Server {
  port: number;
  /** One entry per CONNECT: the credentials offered and the `host:port` asked for. */
  seen: { user: string; pass: string; target: string }[];
  close(): Promise<void>;
}

/** `refuseWith` makes every CONNECT fail with that SOCKS5 reply code instead of connecting. */
export async function startSocks5Server(opts: { refuseWith?: number } = {}): Promise<Socks5Server> {
  const seen: Socks5Server['seen'] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    void session(client, seen, opts.refuseWith);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    seen,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function session(client: net.Socket, seen: Socks5Server['seen'], refuseWith: number | undefined): Promise<void> {
  client.on('error', () => {});
  let buf = Buffer.alloc(0);
  const waiters: (() => void)[] = [];
  client.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    waiters.splice(0).forEach((w) => w());
  });
  const take = async (n: number): Promise<Buffer> => {
    while (buf.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    const out = buf.subarray(0, n);
    buf = buf.subarray(n);
    return out;
  };
  const [, nMethods = 0] = await take(2);
  const methods = [...(await take(nMethods))];
  if (!methods.includes(2)) return void client.end(Buffer.from([5, 0xff]));
  client.write(Buffer.from([5, 2]));
  const [, ulen = 0] = await take(2);
  const user = (await take(ulen)).toString();
  const [plen = 0] = await take(1);
  const pass = (await take(plen)).toString();
  client.write(Buffer.from([1, 0]));
  const [, , , atyp] = await take(4);
  let host: string;
  if (atyp === 1) host = [...(await take(4))].join('.');
  else if (atyp === 3) host = (await take((await take(1))[0] ?? 0)).toString();
  else return void client.destroy();
  const port = (await take(2)).readUInt16BE(0);
  seen.push({ user, pass, target: `${host}:${port}` });
  if (refuseWith !== undefined) return void client.end(Buffer.from([5, refuseWith, 0, 1, 0, 0, 0, 0, 0, 0]));
  const upstream = net.connect(port, host, () => {
    client.removeAllListeners('data');
    client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
    if (buf.length > 0) upstream.write(buf);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
}
