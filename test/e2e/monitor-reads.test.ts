/**
 * `GET /v2/monitor/{id}` and its siblings as the interface fixes them: a malformed id is a 400
 * with per-field details (not an unknown id), every 404 and 409 carries its catalog `code`, a
 * webhook written without `events` reads back with the default (every monitor event), and
 * `webhook`, `notification` and `lastCheckSummary` are null until they exist, as the SDK types
 * allow.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

let gleaner: TestGleaner;
let fc: Firecrawl;

beforeAll(async () => {
  gleaner = await startGleaner({ embedded: true, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
});
afterAll(async () => {
  await gleaner?.close();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${gleaner.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${gleaner.key}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers ?? {}) },
  });

// Only validated, never fetched: no check runs in this file.
const target = { type: 'scrape' as const, urls: ['http://127.0.0.1:9/watch/x'] };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('monitor ids', () => {
  it('a malformed monitor id is a 400 naming monitorId, on every monitor route', async () => {
    const e = await sdkError(fc.getMonitor('not-a-uuid'));
    expect(e.status).toBe(400);
    expect(e.code).toBe('BAD_REQUEST');
    expect(e.details).toEqual([expect.objectContaining({ path: ['monitorId'] })]);
    for (const [method, path] of [
      ['PATCH', '/v2/monitor/123'],
      ['DELETE', '/v2/monitor/123'],
      ['POST', '/v2/monitor/123/run'],
      ['GET', '/v2/monitor/123/checks'],
    ] as const) {
      const res = await api(path, { method, ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }) });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(((await res.json()) as { details: { path: string[] }[] }).details[0]!.path).toEqual(['monitorId']);
    }
  });

  it('a malformed check id is a 400 naming checkId', async () => {
    const m = await fc.createMonitor({ name: 'ids', schedule: { cron: '0 * * * *' }, targets: [target] });
    const e = await sdkError(fc.getMonitorCheck(m.id, 'nope'));
    expect(e.status).toBe(400);
    expect(e.details).toEqual([expect.objectContaining({ path: ['checkId'] })]);
  });

  it('every 404 and 409 carries its catalog code', async () => {
    const missing = await sdkError(fc.getMonitor(UNKNOWN));
    expect(missing.status).toBe(404);
    expect(missing.code).toBe('NOT_FOUND');
    expect(missing.message).toBe('Monitor not found');
    const m = await fc.createMonitor({ name: 'codes', schedule: { cron: '0 * * * *' }, targets: [target] });
    const noCheck = await sdkError(fc.getMonitorCheck(m.id, UNKNOWN));
    expect(noCheck.status).toBe(404);
    expect(noCheck.code).toBe('NOT_FOUND');
    await fc.deleteMonitor(m.id);
    for (const call of [() => fc.updateMonitor(m.id, { name: 'x' }), () => fc.runMonitor(m.id), () => fc.deleteMonitor(m.id)]) {
      const e = await sdkError(call());
      expect(e.status).toBe(409);
      expect(e.code).toBe('CONFLICT');
    }
    // An unknown route is a 404 with its code as well.
    const res = await api('/v2/no-such-route');
    expect(await res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});

describe('monitor read-back', () => {
  it('a webhook written without events reads back with every monitor event', async () => {
    const m = await fc.createMonitor({ name: 'hook', schedule: { cron: '0 * * * *' }, targets: [target], webhook: { url: 'http://127.0.0.1:9/hook' } });
    expect(m.webhook).toEqual({ url: 'http://127.0.0.1:9/hook', headers: {}, metadata: {}, events: ['monitor.page', 'monitor.check.completed'] });
    expect((await fc.getMonitor(m.id)).webhook?.events).toEqual(['monitor.page', 'monitor.check.completed']);
    const chosen = await fc.updateMonitor(m.id, { webhook: { url: 'http://127.0.0.1:9/hook', events: ['monitor.check.completed'] } });
    expect(chosen.webhook?.events).toEqual(['monitor.check.completed']);
    // The bare-string shorthand gets the same default.
    const short = await api('/v2/monitor', { method: 'POST', body: JSON.stringify({ name: 's', schedule: { cron: '0 * * * *' }, targets: [target], webhook: 'http://127.0.0.1:9/s' }) });
    expect(((await short.json()) as { data: { webhook: { events: string[] } } }).data.webhook.events).toEqual(['monitor.page', 'monitor.check.completed']);
  });

  it('webhook, notification and lastCheckSummary are null until there is one', async () => {
    const m = await fc.createMonitor({ name: 'bare', schedule: { cron: '0 * * * *' }, targets: [target] });
    const got = await fc.getMonitor(m.id);
    expect(got.webhook).toBeNull();
    expect(got.notification).toBeNull();
    expect(got.lastCheckSummary).toBeNull();
    const cleared = await fc.updateMonitor(m.id, { webhook: { url: 'http://127.0.0.1:9/h' } });
    expect(cleared.webhook).not.toBeNull();
    expect((await fc.updateMonitor(m.id, { webhook: null })).webhook).toBeNull();
  });
});
