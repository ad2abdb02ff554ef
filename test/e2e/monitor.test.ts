/**
 * Monitors through the official SDK against a running Gleaner and the fixture site's mutable
 * pages: the life cycle (create, get, list, run, checks, a changed page with its diff, pause,
 * update, delete, 409 after delete), validation, conditional requests, noise rules, search and
 * crawl targets, the scheduler's once-per-due-time claim and catch-up, retention, and the
 * webhook and email notifications arriving at real receivers. Runs embedded, and on PostgreSQL
 * and BullMQ when DATABASE_URL and REDIS_URL are set.
 */
import { createHmac, randomBytes } from 'node:crypto';
import Firecrawl, { type FormatOption } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MonitorScheduler } from '../../src/monitor/scheduler.js';
import { removeWatchedPage, setWatchedPage, watchedRequests } from '../fixture-site/monitor-pages.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { sdkError } from '../helpers/sdk-error.js';

const distributed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const modes = [{ name: 'embedded', embedded: true }, ...(distributed ? [{ name: 'distributed', embedded: false }] : [])];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

describe.each(modes)('monitors ($name)', ({ embedded }) => {
  let site: FixtureSite;
  let gleaner: TestGleaner;
  let fc: Firecrawl;
  let hooks: WebhookReceiver;
  let smtp: SmtpReceiver;

  beforeAll(async () => {
    site = await startFixtureSite();
    hooks = await startWebhookReceiver();
    smtp = await startSmtpReceiver();
    gleaner = await startGleaner({ embedded, env: { RATE_LIMIT_PER_MINUTE: '100000', SMTP_URL: smtp.url, SMTP_FROM: 'Monitors <monitors@gleaner.test>', MONITOR_TICK_MS: '200' } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
    await hooks?.close();
    await smtp?.close();
    await site?.close();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${gleaner.url}${path}`, { ...init, headers: { authorization: `Bearer ${gleaner.key}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

  /** Runs a check now and waits until it has ended; returns its detail with every page. */
  async function runAndWait(monitorId: string) {
    const started = await fc.runMonitor(monitorId);
    for (let i = 0; i < 300; i++) {
      const detail = await fc.getMonitorCheck(monitorId, started.id);
      if (!['queued', 'running'].includes(detail.status)) return { started, detail };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('check did not finish');
  }

  describe('the life cycle of a monitor over a changing page', () => {
    const page = unique('pricing');
    const plain = unique('about');
    let monitorId: string;

    beforeAll(() => {
      setWatchedPage(page, '<p>Basic plan costs 10 euros.</p><p>Pro plan costs 20 euros.</p>');
      setWatchedPage(plain, '<p>We are a small team.</p>');
    });

    it('creates a monitor and returns it whole, with ids for its targets and a schedule in cron', async () => {
      const m = await fc.createMonitor({
        name: 'Pricing watch',
        schedule: { text: 'every 30 minutes', timezone: 'Europe/Berlin' },
        targets: [{ type: 'scrape', urls: [`${site.url}/watch/${page}`, `${site.url}/watch-plain/${plain}`] }],
        webhook: { url: hooks.url, headers: { 'x-team': 'pricing' }, metadata: { ticket: 42 } as unknown as Record<string, string> },
        notification: { email: { enabled: true, recipients: ['ops@example.com', 'pm@example.com'], includeDiffs: true } },
      });
      monitorId = m.id;
      expect(m.id).toMatch(UUID);
      expect(m).toMatchObject({
        name: 'Pricing watch',
        status: 'active',
        schedule: { cron: '*/30 * * * *', timezone: 'Europe/Berlin', text: 'every 30 minutes' },
        lastRunAt: null,
        currentCheckId: null,
        retentionDays: 30,
        goal: null,
        judgeEnabled: true,
        lastCheckSummary: null,
      });
      expect(m.targets[0]!.id).toMatch(UUID);
      expect(Date.parse(m.nextRunAt!)).toBeGreaterThan(Date.now());
      expect(Date.parse(m.nextRunAt!) - Date.now()).toBeLessThanOrEqual(30 * 60_000);
      // Two pages, 48 runs a day, 31 days: an upper bound.
      expect(m.estimatedCreditsPerMonth).toBe(2 * 48 * 31);
      expect(m.webhook).toMatchObject({ url: hooks.url, headers: { 'x-team': 'pricing' }, metadata: { ticket: 42 } });
    });

    it('reads it back by id and lists it', async () => {
      const got = await fc.getMonitor(monitorId);
      expect(got.id).toBe(monitorId);
      expect(got.targets[0]).toMatchObject({ type: 'scrape', urls: [`${site.url}/watch/${page}`, `${site.url}/watch-plain/${plain}`] });
      const list = await fc.listMonitors({ limit: 100 });
      expect(list.map((x) => x.id)).toContain(monitorId);
    });

    it('a first check finds every page new', async () => {
      const { started, detail } = await runAndWait(monitorId);
      expect(started).toMatchObject({ monitorId, trigger: 'manual', billingStatus: 'not_applicable' });
      expect(['queued', 'running']).toContain(started.status);
      expect(detail.status).toBe('completed');
      expect(detail.summary).toEqual({ totalPages: 2, same: 0, changed: 0, new: 2, removed: 0, error: 0 });
      expect(detail.pages.map((p) => p.status)).toEqual(['new', 'new']);
      expect(detail.pages[0]!.currentScrapeId).toMatch(UUID);
      const m = await fc.getMonitor(monitorId);
      expect(m.lastCheckSummary).toEqual(detail.summary);
      expect(m.currentCheckId).toBeNull();
      expect(Date.parse(m.lastRunAt!)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('an unchanged page is answered by a conditional request (304) and reported same', async () => {
      const before = watchedRequests(page).notModified;
      const { detail } = await runAndWait(monitorId);
      expect(detail.summary).toMatchObject({ totalPages: 2, same: 2, changed: 0, new: 0 });
      expect(watchedRequests(page).notModified).toBe(before + 1);
      // A same page points at the scrape whose content it still has.
      expect(detail.pages[0]!.currentScrapeId).toBe(detail.pages[0]!.previousScrapeId);
    });

    it('a mutated page is reported changed with a git-style diff of its markdown', async () => {
      setWatchedPage(page, '<p>Basic plan costs 12 euros.</p><p>Pro plan costs 20 euros.</p>');
      const { detail } = await runAndWait(monitorId);
      expect(detail.summary).toMatchObject({ totalPages: 2, same: 1, changed: 1 });
      const changed = await fc.getMonitorCheck(monitorId, detail.id, { status: 'changed' });
      expect(changed.pages).toHaveLength(1);
      const p = changed.pages[0]!;
      expect(p).toMatchObject({ url: `${site.url}/watch/${page}`, status: 'changed', statusCode: 200 });
      expect(p.previousScrapeId).toMatch(UUID);
      expect(p.currentScrapeId).not.toBe(p.previousScrapeId);
      expect(p.diff!.text).toContain('-Basic plan costs 10 euros.');
      expect(p.diff!.text).toContain('+Basic plan costs 12 euros.');
      expect(p.diff!.text).toMatch(/^--- a\//m);
      const files = (p.diff!.json as { files: { chunks: { changes: { type: string; content: string }[] }[] }[] }).files;
      const changes = files[0]!.chunks.flatMap((c) => c.changes);
      expect(changes).toContainEqual(expect.objectContaining({ type: 'del', content: '-Basic plan costs 10 euros.' }));
      expect(changes).toContainEqual(expect.objectContaining({ type: 'add', content: '+Basic plan costs 12 euros.' }));
    });

    it('sends signed monitor.page and monitor.check.completed webhooks with the metadata', async () => {
      const checks = await fc.listMonitorChecks(monitorId);
      const last = checks[0]!;
      const got = await hooks.waitFor((d) => d.some((x) => x.body.type === 'monitor.check.completed' && x.body.id === last.id));
      const pageHook = got.find((x) => x.body.type === 'monitor.page' && x.body.id === last.id)!;
      expect(pageHook.body.metadata).toEqual({ ticket: 42 });
      expect(pageHook.headers['x-team']).toBe('pricing');
      expect(pageHook.body.data[0]).toMatchObject({ monitorId, checkId: last.id, status: 'changed', url: `${site.url}/watch/${page}` });
      expect((pageHook.body.data[0] as { diff: { text: string } }).diff.text).toContain('+Basic plan costs 12 euros.');
      // Only changed/new/removed pages produce monitor.page: the same page sent nothing.
      expect(got.filter((x) => x.body.type === 'monitor.page' && x.body.id === last.id)).toHaveLength(1);
      const done = got.find((x) => x.body.type === 'monitor.check.completed' && x.body.id === last.id)!;
      expect(done.body.data[0]).toMatchObject({ monitorId, checkId: last.id, status: 'completed', summary: { changed: 1, same: 1 } });
      const secret = await gleaner.rt.webhooks.secretFor(gleaner.teamId);
      expect(done.headers['x-firecrawl-signature']).toBe(`sha256=${createHmac('sha256', secret).update(done.raw).digest('hex')}`);
      // The first two checks: two new pages, then nothing changed (no monitor.page).
      const allPages = got.filter((x) => x.body.type === 'monitor.page' && (x.body.data[0] as { monitorId: string }).monitorId === monitorId);
      expect(allPages.map((x) => (x.body.data[0] as { status: string }).status).sort()).toEqual(['changed', 'new', 'new']);
    });

    it('emails a summary with the diff to the recipients', async () => {
      const mails = await smtp.waitFor((m) => m.filter((x) => x.parsed.subject?.includes('Pricing watch')).length >= 2);
      const withDiff = mails.find((x) => x.parsed.text?.includes('+Basic plan costs 12 euros.'))!;
      expect(withDiff).toBeDefined();
      expect(withDiff.to.sort()).toEqual(['ops@example.com', 'pm@example.com']);
      expect(withDiff.from).toBe('monitors@gleaner.test');
      expect(withDiff.parsed.subject).toBe('[Pricing watch] 1 page changes');
      expect(withDiff.parsed.text).toContain('CHANGED: ');
      expect(withDiff.parsed.html).toContain('-Basic plan costs 10 euros.');
      // The check in between changed nothing and sent no mail.
      expect(mails.filter((x) => x.parsed.subject?.includes('Pricing watch'))).toHaveLength(2);
      // The check records the mail's outcome once the mail server has answered, so just after it.
      await vi.waitFor(
        async () => {
          const checks = await fc.listMonitorChecks(monitorId, { limit: 1 });
          expect(checks[0]!.notificationStatus).toMatchObject({ email: { sent: true, recipients: 2 } });
        },
        { timeout: 10_000, interval: 50 },
      );
    });

    it('pauses (no next run), updates, and resumes', async () => {
      const paused = await fc.updateMonitor(monitorId, { status: 'paused' });
      expect(paused.status).toBe('paused');
      expect(paused.nextRunAt).toBeNull();
      const updated = await fc.updateMonitor(monitorId, { name: 'Prices', schedule: { cron: '0 9 * * 1-5', timezone: 'America/New_York' }, retentionDays: 7, goal: 'price changes', judgeEnabled: false });
      expect(updated).toMatchObject({ name: 'Prices', status: 'paused', schedule: { cron: '0 9 * * 1-5', timezone: 'America/New_York' }, retentionDays: 7, goal: 'price changes' });
      expect(updated.targets[0]!.id).toBe((await fc.getMonitor(monitorId)).targets[0]!.id);
      const resumed = await fc.updateMonitor(monitorId, { status: 'active', goal: null });
      expect(resumed.goal).toBeNull();
      const next = new Date(resumed.nextRunAt!);
      const local = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', minute: 'numeric', weekday: 'short', hour12: false }).format(next);
      expect(local).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 09:00$/);
      // Resending targets without ids keeps the stored ones, and with them the history.
      const same = await fc.updateMonitor(monitorId, { targets: [{ type: 'scrape', urls: [`${site.url}/watch/${page}`] }] });
      expect(same.targets[0]!.id).toBe(updated.targets[0]!.id);
    });

    it('deletes; the monitor stays readable as deleted and every further change is 409', async () => {
      expect(await fc.deleteMonitor(monitorId)).toBe(true);
      const gone = await fc.getMonitor(monitorId);
      expect(gone.status).toBe('deleted');
      expect(gone.nextRunAt).toBeNull();
      expect((await fc.listMonitors({ limit: 100 })).map((x) => x.id)).not.toContain(monitorId);
      for (const call of [() => fc.updateMonitor(monitorId, { name: 'x' }), () => fc.runMonitor(monitorId), () => fc.deleteMonitor(monitorId)]) {
        const e = await sdkError(call());
        expect(e.status).toBe(409);
        expect(e.message).toMatch(/Conflict/);
      }
    });
  });

  describe('validation', () => {
    // Only validated, never fetched.
    const target = () => ({ type: 'scrape', urls: ['http://127.0.0.1:9/watch/x'] });
    const cases: [string, Record<string, unknown>, string][] = [
      ['bad cron', { schedule: { cron: '61 * * * *' } }, 'schedule.cron'],
      ['six-field cron', { schedule: { cron: '* * * * * *' } }, 'schedule.cron'],
      ['cron and text together', { schedule: { cron: '* * * * *', text: 'hourly' } }, 'schedule'],
      ['unknown schedule text', { schedule: { text: 'whenever you like' } }, 'schedule.text'],
      ['unknown time zone', { schedule: { cron: '* * * * *', timezone: 'Mars/Olympus' } }, 'schedule.timezone'],
      ['no urls', { targets: [{ type: 'scrape', urls: [] }] }, 'targets.0.urls'],
      ['no targets', { targets: [] }, 'targets'],
      ['13 queries', { goal: 'g', targets: [{ type: 'search', queries: Array.from({ length: 13 }, (_, i) => `q${i}`) }] }, 'targets.0.queries'],
      ['empty query', { goal: 'g', targets: [{ type: 'search', queries: [''] }] }, 'targets.0.queries.0'],
      ['long query', { goal: 'g', targets: [{ type: 'search', queries: ['x'.repeat(257)] }] }, 'targets.0.queries.0'],
      ['bad window', { goal: 'g', targets: [{ type: 'search', queries: ['a'], searchWindow: '2h' }] }, 'targets.0.searchWindow'],
      ['maxResults 51', { goal: 'g', targets: [{ type: 'search', queries: ['a'], maxResults: 51 }] }, 'targets.0.maxResults'],
      ['51 domains', { goal: 'g', targets: [{ type: 'search', queries: ['a'], includeDomains: Array.from({ length: 51 }, (_, i) => `d${i}.com`) }] }, 'targets.0.includeDomains'],
      ['search without goal', { targets: [{ type: 'search', queries: ['a'] }] }, 'goal'],
      ['26 recipients', { notification: { email: { enabled: true, recipients: Array.from({ length: 26 }, (_, i) => `r${i}@example.com`) } } }, 'notification.email.recipients'],
      ['bad address', { notification: { email: { enabled: true, recipients: ['not-an-address'] } } }, 'notification.email.recipients.0'],
      ['bad target id', { targets: [{ ...target(), id: 'abc' }] }, 'targets.0.id'],
      ['bad url', { targets: [{ type: 'scrape', urls: ['ftp://example.com/'] }] }, 'targets.0.urls.0'],
      ['retention 0', { retentionDays: 0 }, 'retentionDays'],
      ['bad scrape option', { targets: [{ ...target(), scrapeOptions: { timeout: 5 } }] }, 'targets.0.scrapeOptions.timeout'],
      ['unknown target type', { targets: [{ type: 'watch', urls: ['x'] }] }, 'targets.0.type'],
    ];
    it.each(cases)('%s is a 400 naming the field', async (_name, patch, path) => {
      const body = { name: 'v', schedule: { cron: '0 * * * *' }, targets: [target()], ...patch };
      const res = await api('/v2/monitor', { method: 'POST', body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      const json = (await res.json()) as { success: boolean; error: string; details: { path: (string | number)[] }[] };
      expect(json.success).toBe(false);
      expect(json.details.map((d) => d.path.join('.'))).toContain(path);
    });

    it('a search target without a goal is fine when judging is off; the SDK sees 400s too', async () => {
      const m = await fc.createMonitor({ name: 's', schedule: { cron: '0 * * * *' }, judgeEnabled: false, targets: [{ type: 'search', queries: ['gleaner release'] }] });
      expect(m.targets[0]).toMatchObject({ type: 'search', searchWindow: '24h', maxResults: 10 });
      const e = await sdkError(fc.createMonitor({ name: '', schedule: { cron: '0 * * * *' }, targets: [target() as never] }));
      expect(e.status).toBe(400);
    });

    it('an unknown monitor, check or another team\'s monitor is 404', async () => {
      expect((await sdkError(fc.getMonitor('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
      expect((await sdkError(fc.getMonitor('not-a-uuid'))).status).toBe(400);
      const mine = await fc.createMonitor({ name: 'mine', schedule: { cron: '0 * * * *' }, targets: [target() as never] });
      expect((await sdkError(fc.getMonitorCheck(mine.id, '00000000-0000-4000-8000-000000000000'))).status).toBe(404);
      const otherTeam = await gleaner.rt.keys.ensureTeam(unique('other'));
      const key = `fc-test-${randomBytes(16).toString('hex')}`;
      await gleaner.rt.keys.create({ teamId: otherTeam, name: 'other', key });
      const other = new Firecrawl({ apiKey: key, apiUrl: gleaner.url });
      const calls = [
        () => other.getMonitor(mine.id),
        () => other.updateMonitor(mine.id, { name: 'x' }),
        () => other.runMonitor(mine.id),
        () => other.deleteMonitor(mine.id),
        () => other.listMonitorChecks(mine.id),
      ];
      for (const call of calls) {
        expect((await sdkError(call())).status).toBe(404);
      }
      expect((await other.listMonitors()).map((x) => x.id)).not.toContain(mine.id);
    });
  });

  describe('checks', () => {
    it('noise (clock, token, cache-busting link) does not count as a change', async () => {
      const name = unique('noisy');
      setWatchedPage(name, '<p>Stable content of a busy page.</p>');
      const m = await fc.createMonitor({ name: 'noisy', schedule: { cron: '0 0 1 1 *' }, targets: [{ type: 'scrape', urls: [`${site.url}/watch-noisy/${name}`] }] });
      expect((await runAndWait(m.id)).detail.summary.new).toBe(1);
      await new Promise((r) => setTimeout(r, 1100)); // the clock on the page moves on
      expect((await runAndWait(m.id)).detail.summary).toMatchObject({ same: 1, changed: 0 });
      setWatchedPage(name, '<p>Stable content of a busy page, now edited.</p>');
      const third = (await runAndWait(m.id)).detail;
      expect(third.summary.changed).toBe(1);
      expect(third.pages[0]!.diff!.text).toContain('+Stable content of a busy page, now edited.');
    });

    it('a page that disappears is removed; one that fails is an error and the check partial', async () => {
      const gone = unique('gone');
      setWatchedPage(gone, '<p>Here today.</p>');
      const m = await fc.createMonitor({
        name: 'gone',
        schedule: { cron: '0 0 1 1 *' },
        targets: [{ type: 'scrape', urls: [`${site.url}/watch/${gone}`, `${site.url}/status/500`] }],
      });
      const first = (await runAndWait(m.id)).detail;
      expect(first.status).toBe('partial');
      expect(first.summary).toMatchObject({ new: 1, error: 1 });
      expect(first.pages[1]).toMatchObject({ status: 'error', statusCode: 500 });
      expect(first.pages[1]!.error).toMatch(/500/);
      removeWatchedPage(gone);
      const second = (await runAndWait(m.id)).detail;
      expect(second.pages[0]).toMatchObject({ status: 'removed', statusCode: 404 });
    });

    it('a search target compares the result set and the pages behind it', async () => {
      // No web provider here: the queries run on the team's local index of fetched pages.
      const [a, b, c] = [unique('kettle'), unique('kettle'), unique('kettle')];
      setWatchedPage(a, '<p>Descaling a zanzibar kettle with vinegar.</p>');
      setWatchedPage(b, '<p>The zanzibar kettle whistles.</p>');
      for (const n of [a, b]) await fc.scrape(`${site.url}/watch/${n}`, { formats: ['markdown'] });
      const m = await fc.createMonitor({
        name: 'search',
        schedule: { cron: '0 * * * *' },
        goal: 'kettle news',
        // No model on this server: the goal is kept, not judged.
        judgeEnabled: false,
        targets: [{ type: 'search', queries: ['zanzibar kettle'], maxResults: 5 }],
      });
      expect(m.estimatedCreditsPerMonth).toBe((2 + 5) * 24 * 31);
      const first = (await runAndWait(m.id)).detail;
      expect(first.status).toBe('completed');
      expect(first.summary).toMatchObject({ totalPages: 2, new: 2 });
      expect(first.targetResults!.find((t) => t.type === 'search')).toMatchObject({ targetId: m.targets[0]!.id, searchCompleted: true, resultCount: 2 });

      setWatchedPage(a, '<p>Descaling a zanzibar kettle with citric acid.</p>');
      setWatchedPage(c, '<p>A zanzibar kettle review.</p>');
      await fc.scrape(`${site.url}/watch/${c}`, { formats: ['markdown'] });
      removeWatchedPage(b);
      const second = (await runAndWait(m.id)).detail;
      const statusOf = (d: typeof second, n: string) => d.pages.find((p) => p.url === `${site.url}/watch/${n}`)?.status;
      expect([statusOf(second, a), statusOf(second, b), statusOf(second, c)]).toEqual(['changed', 'removed', 'new']);
      expect(second.pages.find((p) => p.status === 'changed')!.diff?.text).toMatch(/citric acid/);

      // The gone page left the index when the check found it gone: the third set is a and c.
      const third = (await runAndWait(m.id)).detail;
      expect(third.summary).toMatchObject({ totalPages: 2, same: 2 });
    });

    it('a crawl target runs a crawl and compares every page it reaches', async () => {
      const m = await fc.createMonitor({ name: 'crawl', schedule: { cron: '0 * * * *' }, targets: [{ type: 'crawl', url: `${site.url}/crawl`, crawlOptions: { limit: 3, sitemap: 'skip' } }] });
      expect(m.estimatedCreditsPerMonth).toBe(3 * 24 * 31);
      const first = (await runAndWait(m.id)).detail;
      expect(first.status).toBe('completed');
      expect(first.summary.new).toBe(3);
      const crawlResult = first.targetResults!.find((t) => t.type === 'crawl') as { crawlId?: string };
      expect(crawlResult.crawlId).toMatch(UUID);
      const second = (await runAndWait(m.id)).detail;
      expect(second.summary).toMatchObject({ totalPages: 3, same: 3 });
    });

    it('pages of a check detail are paged with next, which the SDK follows', async () => {
      const names = Array.from({ length: 5 }, () => unique('p'));
      for (const n of names) setWatchedPage(n, `<p>${n}</p>`);
      const m = await fc.createMonitor({ name: 'paged', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: names.map((n) => `${site.url}/watch/${n}`) }] });
      const { detail } = await runAndWait(m.id);
      const one = await fc.getMonitorCheck(m.id, detail.id, { limit: 2, autoPaginate: false });
      expect(one.pages).toHaveLength(2);
      expect(one.next).toContain(`/v2/monitor/${m.id}/checks/${detail.id}?skip=2&limit=2`);
      const all = await fc.getMonitorCheck(m.id, detail.id, { limit: 2 });
      expect(all.pages.map((p) => p.url)).toEqual(names.map((n) => `${site.url}/watch/${n}`));
      expect(all.next).toBeNull();
    });
  });

  describe('the changeTracking scrape format', () => {
    it('reports new, same, then changed with a git diff, per URL and tag', async () => {
      const name = unique('tracked');
      setWatchedPage(name, '<p>Version one of the notes.</p>');
      const url = `${site.url}/watch-plain/${name}`;
      const formats: FormatOption[] = ['markdown', { type: 'changeTracking', modes: ['git-diff'], tag: 'notes' }];
      const first = await fc.scrape(url, { formats, maxAge: 0 });
      expect(first.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null, visibility: 'visible' });
      const second = await fc.scrape(url, { formats, maxAge: 0 });
      expect(second.changeTracking).toMatchObject({ changeStatus: 'same', visibility: 'visible' });
      expect(Date.parse(second.changeTracking!.previousScrapeAt as string)).toBeLessThanOrEqual(Date.now());
      setWatchedPage(name, '<p>Version two of the notes.</p>');
      const third = await fc.scrape(url, { formats, maxAge: 0 });
      const ct = third.changeTracking as { changeStatus: string; diff: { text: string; json: { files: unknown[] } } };
      expect(ct.changeStatus).toBe('changed');
      expect(ct.diff.text).toContain('-Version one of the notes.');
      expect(ct.diff.text).toContain('+Version two of the notes.');
      expect(ct.diff.json.files).toHaveLength(1);
      // Another tag is another history.
      const other = await fc.scrape(url, { formats: ['markdown', { type: 'changeTracking', tag: 'other' }], maxAge: 0 });
      expect(other.changeTracking).toMatchObject({ changeStatus: 'new' });
    });

    it('needs markdown beside it, and its json mode needs a model', async () => {
      const url = `${site.url}/watch-plain/none`;
      const noMarkdown = await sdkError(fc.scrape(url, { formats: [{ type: 'changeTracking' }] }));
      expect(noMarkdown.status).toBe(400);
      const json = await sdkError(fc.scrape(url, { formats: ['markdown', { type: 'changeTracking', modes: ['json'] }] }));
      expect(json.status).toBe(400);
      expect(json.code).toBe('MODEL_NOT_CONFIGURED');
      expect(json.message).toContain('MODEL_BASE_URL');
    });
  });

  describe('the scheduler', () => {
    it('fires exactly one check per due time however many schedulers race for it', async () => {
      const name = unique('sched');
      setWatchedPage(name, '<p>scheduled</p>');
      const m = await fc.createMonitor({ name: 'race', schedule: { cron: '0 0 1 1 *' }, targets: [{ type: 'scrape', urls: [`${site.url}/watch/${name}`] }] });
      const rt = gleaner.rt;
      // Ten minutes of missed one-minute slots, as after downtime.
      const due = Date.now() - 10 * 60_000;
      await rt.store.db.updateTable('monitors').set({ next_run_at: due, cron: '* * * * *' }).where('id', '=', m.id).execute();
      const racers = Array.from({ length: 6 }, () => new MonitorScheduler({ repo: rt.monitors.repo, service: rt.monitors.service, queue: rt.queues.queue('monitor'), log: rt.log, tickMs: 1000 }));
      const ticked = Date.now();
      await Promise.all([...racers.map((s) => s.tick()), rt.monitors.scheduler.tick()]);
      const checks = await fc.listMonitorChecks(m.id);
      const scheduled = checks.filter((c) => c.trigger === 'scheduled');
      expect(scheduled).toHaveLength(1);
      expect(Date.parse(scheduled[0]!.scheduledFor!)).toBe(due);
      const after = await fc.getMonitor(m.id);
      // Caught up once; the next slot is the next minute from the tick, not the next missed one
      // (read against the tick's time: a minute may have turned since).
      expect(Date.parse(after.nextRunAt!)).toBeGreaterThan(ticked);
      expect(Date.parse(after.nextRunAt!)).toBeLessThanOrEqual(Date.now() + 60_000);
      for (let i = 0; i < 100 && (await fc.getMonitorCheck(m.id, scheduled[0]!.id)).status !== 'completed'; i++) await new Promise((r) => setTimeout(r, 100));
      expect((await fc.getMonitorCheck(m.id, scheduled[0]!.id)).summary.new).toBe(1);
    });

    it('a due time that arrives while a check is still running records skipped_overlap', async () => {
      const m = await fc.createMonitor({ name: 'overlap', schedule: { cron: '0 0 1 1 *' }, targets: [{ type: 'scrape', urls: [`${site.url}/slow?ms=1500`] }] });
      const first = await fc.runMonitor(m.id);
      const second = await fc.runMonitor(m.id);
      expect(second.status).toBe('skipped_overlap');
      expect((await fc.getMonitor(m.id)).currentCheckId).toBe(first.id);
    });

    it('retention drops checks older than retentionDays, with their pages', async () => {
      const name = unique('ret');
      setWatchedPage(name, '<p>r</p>');
      const m = await fc.createMonitor({ name: 'ret', schedule: { cron: '0 0 1 1 *' }, retentionDays: 2, targets: [{ type: 'scrape', urls: [`${site.url}/watch/${name}`] }] });
      const old = (await runAndWait(m.id)).detail;
      const fresh = (await runAndWait(m.id)).detail;
      const db = gleaner.rt.store.db;
      await db.updateTable('monitor_checks').set({ created_at: Date.now() - 3 * 86_400_000 }).where('id', '=', old.id).execute();
      await gleaner.rt.monitors.housekeeping();
      expect((await fc.listMonitorChecks(m.id)).map((c) => c.id)).toEqual([fresh.id]);
      const orphans = await db.selectFrom('monitor_pages').select('id').where('check_id', '=', old.id).execute();
      expect(orphans).toHaveLength(0);
    });
  });
});
