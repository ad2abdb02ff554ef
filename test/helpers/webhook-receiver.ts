/**
 * A local webhook receiver for tests: records every delivery (headers and the exact body bytes)
 * and can be told to fail chosen deliveries, to exercise retries.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { success: boolean; type: string; id: string; data: unknown[]; error?: string; metadata?: Record<string, unknown>; webhookId?: string };
  /** The status this receiver answered with. */
  answered: number;
}

export interface WebhookReceiver {
  url: string;
  /** Deliveries answered 2xx, in arrival order. */
  accepted(): Delivery[];
  /** Every attempt, failed ones included. */
  attempts(): Delivery[];
  /** Answer 500 to the next `times` attempts whose body type is `type`. */
  failNext(type: string, times: number): void;
  waitFor(pred: (accepted: Delivery[]) => boolean, timeoutMs?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const all: Delivery[] = [];
  const failures = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Delivery['body'];
      try {
        body = JSON.parse(raw) as Delivery['body'];
      } catch {
        res.writeHead(400).end();
        return;
      }
      const left = failures.get(body.type) ?? 0;
      const answered = left > 0 ? 500 : 200;
      if (left > 0) failures.set(body.type, left - 1);
      all.push({ headers: req.headers, raw, body, answered });
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'ok' : 'try again');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const accepted = () => all.filter((d) => d.answered === 200);
  return {
    url,
    accepted,
    attempts: () => [...all],
    failNext: (type, times) => void failures.set(type, times),
    async waitFor(pred, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (!pred(accepted())) {
        if (Date.now() > until) throw new Error(`webhook receiver: condition not met in ${timeoutMs} ms; got ${accepted().map((d) => d.body.type).join(', ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return accepted();
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
