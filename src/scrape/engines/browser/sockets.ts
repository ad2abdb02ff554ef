/** Outbound TCP for the guard proxy: dialling, and reading handshake replies off a socket. */
import { Buffer } from 'node:buffer';
import net from 'node:net';
import tls from 'node:tls';

const CONNECT_TIMEOUT_MS = 15_000;

export function connectTcp(host: string, port: number, secure: boolean, servername?: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const sock = secure
      ? tls.connect({ host, port, ...(servername && !net.isIP(servername) ? { servername } : {}) })
      : net.connect({ host, port });
    const event = secure ? 'secureConnect' : 'connect';
    const timer = setTimeout(() => sock.destroy(new Error(`connect to ${host}:${port} timed out`)), CONNECT_TIMEOUT_MS);
    sock.once(event, () => {
      clearTimeout(timer);
      sock.off('error', onError);
      resolve(sock);
    });
    const onError = (e: Error) => {
      clearTimeout(timer);
      reject(e);
    };
    sock.once('error', onError);
  });
}

/** Reads handshake replies off a socket without losing the bytes that follow them. */
export class SocketReader {
  private buf = Buffer.alloc(0);

  constructor(private readonly sock: net.Socket) {}

  /** `complete` says how long the message at the start of the buffer is, once it can tell. */
  async read(complete: (buf: Buffer) => number | undefined, limit = 16 * 1024): Promise<Buffer> {
    for (;;) {
      const n = complete(this.buf);
      if (n !== undefined && n <= this.buf.length) {
        const msg = this.buf.subarray(0, n);
        this.buf = this.buf.subarray(n);
        return msg;
      }
      if (this.buf.length > limit) throw new Error('proxy handshake reply too long');
      this.buf = Buffer.concat([this.buf, await this.next()]);
    }
  }

  /** Puts unread bytes back so the tunnel's consumer sees them. */
  release(): void {
    this.sock.pause();
    if (this.buf.length > 0) this.sock.unshift(this.buf);
    this.buf = Buffer.alloc(0);
  }

  private next(): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const done = () => {
        this.sock.off('data', onData);
        this.sock.off('error', onError);
        this.sock.off('close', onClose);
        this.sock.pause();
      };
      const onData = (chunk: Buffer) => {
        done();
        resolve(chunk);
      };
      const onError = (e: Error) => {
        done();
        reject(e);
      };
      const onClose = () => {
        done();
        reject(new Error('proxy closed the connection during the handshake'));
      };
      this.sock.on('data', onData);
      this.sock.once('error', onError);
      this.sock.once('close', onClose);
      this.sock.resume();
    });
  }
}
