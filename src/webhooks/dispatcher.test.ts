/**
 * Webhook delivery against a real HTTP receiver on 127.0.0.1, on SQLite always and on
 * PostgreSQL when DATABASE_URL is set (in a throw-away schema).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy, SsrfGuard } from '../security/ssrf.js';
import type { Store } from '../store/db.js';
import { scratchStore } from '../../test/helpers/scratch-store.js';
import { WebhookDispatcher, backoffDelay, eventFilterName, type WebhookDispatcherOptions } from './dispatcher.js';
import { monitorWebhookSchema, webhookSchema, type WebhookTarget } from './schema.js';
import { signBody, verifySignature } from './sign.js';

interface Hit {
  at: number;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { success: boolean; type: string; id: string; data: unknown[]; error?: string; metadata: Record<string, unknown>; webhookId: string };
  status: number;
}

type Answer = (hit: Omit<Hit, 'status'>) => number | 'hang';

interface Receiver {
  url: string;
  hits: Hit[];
  answer: Answer;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const rec: Receiver = { url: '', hits: [], answer: () => 200, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const partial = { at: Date.now(), headers: req.headers, raw, body: JSON.parse(raw) as Hit['body'] };
      const answer = rec.answer(partial);
      if (answer === 'hang') return;
      rec.hits.push({ ...partial, status: answer });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  rec.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  rec.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return rec;
}

async function until<T>(fn: () => Promise<T> | T, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const log = pino({ level: 'silent' });
const loopback = new SsrfGuard(new AddressPolicy(['127.0.0.0/8']));
const strict = new SsrfGuard(new AddressPolicy());

const backends: { name: string; databaseUrl?: string }[] = [{ name: 'sqlite' }];
if (process.env.DATABASE_URL) backends.push({ name: 'postgres', databaseUrl: process.env.DATABASE_URL });

describe.each(backends)('webhook delivery on $name', ({ databaseUrl }) => {
  let store: Store;
  let rx: Receiver;
  const scratch = scratchStore('hooks', databaseUrl);
  const run = randomBytes(4).toString('hex');
  const open: WebhookDispatcher[] = [];
  const team = 'team-' + randomUUID();

  const dispatcher = (opts: Partial<WebhookDispatcherOptions> = {}) => {
    const d = new WebhookDispatcher({ db: store.db, guard: loopback, log, backoffMs: 20, pollMs: 50, ...opts });
    open.push(d);
    return d;
  };
  const target = (extra: Partial<WebhookTarget> = {}): WebhookTarget => ({ url: rx.url, headers: {}, metadata: {}, ...extra });
  const hitsOf = (stream: string) => rx.hits.filter((h) => h.body.id === stream);

  beforeAll(async () => {
    store = await scratch.open();
    rx = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((d) => d.close()));
    rx.answer = () => 200;
  });
  afterAll(async () => {
    await rx?.close();
    await store?.close();
    await scratch.remove();
  });

  it('signs the exact body with the team secret and sends headers, metadata and webhookId', async () => {
    const d = dispatcher();
    d.start();
    const job = randomUUID();
    const doc = { markdown: '# Hi ünïcödé', metadata: { sourceURL: 'https://example.com/' } };
    const webhookId = await d.emit(team, target({ headers: { 'X-Test': 'yes', 'Content-Type': 'text/plain' }, metadata: { run: 'r1', n: 2 } }), {
      type: 'crawl.page',
      id: job,
      success: true,
      data: [doc],
    });
    const [hit] = await until(() => hitsOf(job), (h) => h.length === 1);
    const secret = await d.secretFor(team);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(await d.secretFor(team)).toBe(secret);
    expect(hit!.headers['x-firecrawl-signature']).toBe(signBody(secret, hit!.raw));
    expect(verifySignature(secret, hit!.raw, hit!.headers['x-firecrawl-signature'])).toBe(true);
    expect(verifySignature(secret, hit!.raw + ' ', hit!.headers['x-firecrawl-signature'])).toBe(false);
    expect(verifySignature('other', hit!.raw, hit!.headers['x-firecrawl-signature'])).toBe(false);
    expect(hit!.headers['x-test']).toBe('yes');
    expect(hit!.headers['content-type']).toBe('application/json');
    expect(hit!.body).toEqual({ success: true, type: 'crawl.page', id: job, data: [doc], metadata: { run: 'r1', n: 2 }, webhookId });
    const log = await until(() => d.deliveries(job), (r) => r[0]?.state === 'delivered');
    expect(log).toMatchObject([{ type: 'crawl.page', state: 'delivered', attempts: 1, lastStatus: 200, webhookId }]);
  });

  it('gives each team its own secret', async () => {
    const d = dispatcher();
    const [a, b] = await Promise.all([d.secretFor('team-a-' + run), d.secretFor('team-b-' + run)]);
    expect(a).not.toBe(b);
    // A second process (no cache) reads the same secret.
    expect(await dispatcher().secretFor('team-a-' + run)).toBe(a);
  });

  it('filters events by the part after the dot, and monitor events by their full name', async () => {
    const d = dispatcher();
    d.start();
    const job = randomUUID();
    const only = target({ events: ['completed', 'failed'] });
    for (const type of ['crawl.started', 'crawl.page', 'crawl.completed']) {
      await d.emit(team, only, { type, id: job, success: true, data: [] });
    }
    const mon = randomUUID();
    const monTarget = target({ events: ['monitor.check.completed'] });
    expect(await d.emit(team, monTarget, { type: 'monitor.page', id: mon, success: true, data: [] })).toBeUndefined();
    await d.emit(team, monTarget, { type: 'monitor.check.completed', id: mon, success: true, data: [] });
    await d.emit(team, target({ events: [] }), { type: 'batch_scrape.page', id: mon, success: true, data: [] });
    await until(() => hitsOf(job).length + hitsOf(mon).length, (n) => n >= 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(hitsOf(job).map((h) => h.body.type)).toEqual(['crawl.completed']);
    expect(hitsOf(mon).map((h) => h.body.type)).toEqual(['monitor.check.completed']);
    expect(eventFilterName('batch_scrape.page')).toBe('page');
    expect(eventFilterName('agent.action')).toBe('action');
  });

  it('keeps order within a stream while an early event is retried; other streams are not held up', async () => {
    const d = dispatcher({ backoffMs: 100 });
    const job = randomUUID();
    const other = randomUUID();
    const failures = new Map<string, number>([[job + ':crawl.started', 2]]);
    rx.answer = (h) => {
      const key = `${h.body.id}:${h.body.type}`;
      const left = failures.get(key) ?? 0;
      if (left > 0) failures.set(key, left - 1);
      return left > 0 ? 500 : 200;
    };
    await d.emit(team, target(), { type: 'crawl.started', id: job, success: true, data: [] });
    for (let i = 0; i < 5; i++) await d.emit(team, target(), { type: 'crawl.page', id: job, success: true, data: [{ i }] });
    await d.emit(team, target(), { type: 'crawl.completed', id: job, success: true, data: [] });
    await d.emit(team, target(), { type: 'batch_scrape.started', id: other, success: true, data: [] });
    d.start();
    const hits = await until(() => hitsOf(job), (h) => h.some((x) => x.body.type === 'crawl.completed'));
    expect(hits.map((h) => `${h.body.type}:${h.status}`)).toEqual([
      'crawl.started:500',
      'crawl.started:500',
      'crawl.started:200',
      ...[0, 1, 2, 3, 4].map(() => 'crawl.page:200'),
      'crawl.completed:200',
    ]);
    expect(hits.filter((h) => h.body.type === 'crawl.page').map((h) => (h.body.data[0] as { i: number }).i)).toEqual([0, 1, 2, 3, 4]);
    // The backoff doubles: ~100 ms then ~200 ms between the three attempts.
    expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(90);
    expect(hits[2]!.at - hits[1]!.at).toBeGreaterThanOrEqual(190);
    // The other stream went out while the first one's head was waiting to retry.
    const otherHit = hitsOf(other)[0]!;
    expect(otherHit.at).toBeLessThan(hits[2]!.at);
    // The receiver can see the last request before the dispatcher has recorded its answer.
    const log = await until(() => d.deliveries(job), (l) => l.every((r) => r.state === 'delivered'));
    expect(log[0]).toMatchObject({ type: 'crawl.started', state: 'delivered', attempts: 3, lastStatus: 200 });
  });

  it('retries with backoff and marks the event failed after maxAttempts, then moves on', async () => {
    const d = dispatcher({ maxAttempts: 3, backoffMs: 30 });
    const job = randomUUID();
    rx.answer = (h) => (h.body.type === 'crawl.started' ? 503 : 200);
    await d.emit(team, target(), { type: 'crawl.started', id: job, success: true, data: [] });
    await d.emit(team, target(), { type: 'crawl.completed', id: job, success: true, data: [] });
    d.start();
    await until(() => hitsOf(job), (h) => h.some((x) => x.body.type === 'crawl.completed'));
    const hits = hitsOf(job);
    expect(hits.map((h) => `${h.body.type}:${h.status}`)).toEqual(['crawl.started:503', 'crawl.started:503', 'crawl.started:503', 'crawl.completed:200']);
    expect(hits[2]!.at - hits[1]!.at).toBeGreaterThanOrEqual(55);
    const log = await until(() => d.deliveries(job), (l) => l[1]?.state === 'delivered');
    expect(log.map((r) => ({ type: r.type, state: r.state, attempts: r.attempts, lastStatus: r.lastStatus }))).toEqual([
      { type: 'crawl.started', state: 'failed', attempts: 3, lastStatus: 503 },
      { type: 'crawl.completed', state: 'delivered', attempts: 1, lastStatus: 200 },
    ]);
    expect(log[0]!.lastError).toBe('HTTP 503');
    expect(backoffDelay(1, 1000, 300_000)).toBe(1000);
    expect(backoffDelay(5, 1000, 300_000)).toBe(16_000);
    expect(backoffDelay(20, 1000, 300_000)).toBe(300_000);
  });

  it('records a target the SSRF guard refuses as failed without sending anything', async () => {
    const d = dispatcher({ guard: strict });
    d.start();
    const job = randomUUID();
    await d.emit(team, target(), { type: 'crawl.started', id: job, success: true, data: [] });
    const localhost = rx.url.replace('127.0.0.1', 'localhost');
    await d.emit(team, target({ url: localhost }), { type: 'crawl.completed', id: job, success: true, data: [] });
    const log = await until(() => d.deliveries(job), (r) => r.length === 2 && r.every((x) => x.state === 'failed'));
    expect(log.map((r) => r.attempts)).toEqual([1, 1]);
    expect(log[0]!.lastError).toMatch(/not allowed/);
    expect(log[0]!.lastError).toContain('127.0.0.1');
    expect(hitsOf(job)).toHaveLength(0);
  });

  it('retries network failures and timeouts', async () => {
    const d = dispatcher({ maxAttempts: 2, timeoutMs: 300 });
    d.start();
    const job = randomUUID();
    await d.emit(team, target({ url: 'http://127.0.0.1:9/closed' }), { type: 'crawl.started', id: job, success: true, data: [] });
    rx.answer = (h) => (h.body.id === job ? 'hang' : 200);
    await d.emit(team, target(), { type: 'crawl.completed', id: job, success: true, data: [] });
    const log = await until(() => d.deliveries(job), (r) => r.every((x) => x.state === 'failed'));
    expect(log[0]).toMatchObject({ attempts: 2, lastStatus: null });
    expect(log[0]!.lastError).toMatch(/ECONNREFUSED/);
    expect(log[1]).toMatchObject({ attempts: 2, lastStatus: null, lastError: 'timed out after 300 ms' });
  });

  it('delivers, after a restart, rows left pending and rows whose sender died mid-lease', async () => {
    const job = randomUUID();
    const first = dispatcher();
    await first.emit(team, target(), { type: 'crawl.started', id: job, success: true, data: [] });
    await first.emit(team, target(), { type: 'crawl.page', id: job, success: true, data: [] });
    await first.close();
    // As if a process had claimed the first row and died: its lease has run out.
    const [head] = await first.deliveries(job);
    await store.db.updateTable('webhook_deliveries').set({ locked_until: Date.now() - 1, locked_by: 'dead' }).where('id', '=', head!.id).execute();
    expect(hitsOf(job)).toHaveLength(0);
    const second = dispatcher();
    second.start();
    await until(() => hitsOf(job), (h) => h.length === 2);
    expect(hitsOf(job).map((h) => h.body.type)).toEqual(['crawl.started', 'crawl.page']);
    const log = await until(() => second.deliveries(job), (l) => l.every((r) => r.state === 'delivered'));
    expect(log.map((r) => r.state)).toEqual(['delivered', 'delivered']);
  });

  it('records an event atomically with the caller transaction', async () => {
    const d = dispatcher();
    d.start();
    const kept = randomUUID();
    const rolledBack = randomUUID();
    await store.db.transaction().execute(async (trx) => {
      await d.emit(team, target(), { type: 'crawl.completed', id: kept, success: true, data: [] }, trx);
    });
    await expect(
      store.db.transaction().execute(async (trx) => {
        await d.emit(team, target(), { type: 'crawl.completed', id: rolledBack, success: true, data: [] }, trx);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await until(() => hitsOf(kept), (h) => h.length === 1);
    expect(await d.deliveries(rolledBack)).toEqual([]);
  });

  it('sends each event once and in order when several dispatchers share the store', async () => {
    const ds = [dispatcher({ pollMs: 10 }), dispatcher({ pollMs: 10 }), dispatcher({ pollMs: 10 })];
    const streams = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (let i = 0; i < 10; i++) {
      for (const s of streams) await ds[i % 3]!.emit(team, target(), { type: 'crawl.page', id: s, success: true, data: [i] });
    }
    for (const d of ds) d.start();
    for (const s of streams) {
      const hits = await until(() => hitsOf(s), (h) => h.length >= 10);
      await new Promise((r) => setTimeout(r, 100));
      expect(hitsOf(s).map((h) => h.body.data[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(new Set(hits.map((h) => h.body.webhookId)).size).toBe(10);
    }
  });

  it('close() waits for a bounded time, then leaves an unfinished send pending for the next process', async () => {
    const d = dispatcher({ closeGraceMs: 200, timeoutMs: 5000 });
    d.start();
    const job = randomUUID();
    let seen = 0;
    rx.answer = (h) => (h.body.id === job && seen++ === 0 ? 'hang' : 200);
    await d.emit(team, target(), { type: 'crawl.started', id: job, success: true, data: [] });
    await until(() => seen, (n) => n === 1);
    // The receiver never answers: close() returning at all, with the row still pending, is the point.
    await d.close();
    expect(await d.deliveries(job)).toMatchObject([{ state: 'pending', attempts: 0 }]);
    const next = dispatcher();
    next.start();
    await until(() => hitsOf(job), (h) => h.length === 1);
  });
});

describe('webhook request field', () => {
  it('accepts a bare URL and the object form', () => {
    expect(webhookSchema.parse('https://example.com/hook')).toEqual({ url: 'https://example.com/hook', headers: {}, metadata: {} });
    expect(
      webhookSchema.parse({ url: 'https://example.com/hook', headers: { Authorization: 'Bearer x' }, metadata: { a: 1 }, events: ['page', 'page', 'completed'] }),
    ).toEqual({ url: 'https://example.com/hook', headers: { Authorization: 'Bearer x' }, metadata: { a: 1 }, events: ['page', 'completed'] });
  });

  it('refuses what could not be delivered', () => {
    const bad = [
      'ftp://example.com/',
      'not a url',
      'https://user:pw@example.com/',
      `https://example.com/${'a'.repeat(2048)}`,
      { url: 'https://example.com/', headers: { 'Content-Length': '3' } },
      { url: 'https://example.com/', headers: { 'X-Firecrawl-Signature': 'sha256=00' } },
      { url: 'https://example.com/', headers: { host: 'elsewhere' } },
      { url: 'https://example.com/', headers: { 'x-a': 'line\r\nInjected: 1' } },
      { url: 'https://example.com/', headers: { 'bad name': 'x' } },
      { url: 'https://example.com/', headers: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`x-${i}`, 'v'])) },
      { url: 'https://example.com/', headers: { 'x-a': 'v'.repeat(4097) } },
      { url: 'https://example.com/', metadata: { big: 'x'.repeat(17_000) } },
      { url: 'https://example.com/', events: ['monitor.page'] },
    ];
    for (const b of bad) expect(webhookSchema.safeParse(b).success, JSON.stringify(b).slice(0, 80)).toBe(false);
  });

  it('restricts monitor events to the monitor names', () => {
    expect(monitorWebhookSchema.parse({ url: 'https://example.com/', events: ['monitor.page'] }).events).toEqual(['monitor.page']);
    expect(monitorWebhookSchema.safeParse({ url: 'https://example.com/', events: ['page'] }).success).toBe(false);
  });
});
