/**
 * What the model adds over time, through the official SDK against the scripted model server:
 * changeTracking's json mode (an extraction per version, compared field by field within a tag),
 * a monitor's goal judging each changed page (on the check page and in its webhook, and what a
 * model failure leaves), and `prompt` on interact and session execute, where the model clicks,
 * reads and navigates the live page within the SSRF guard, bounded in steps.
 */
import { randomBytes } from 'node:crypto';
import Firecrawl, { type FormatOption } from '@mendable/firecrawl-js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/scrape/engines/chromium.js';
import { setWatchedPage } from '../fixture-site/monitor-pages.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { agentFixture, extractionFixture, judgmentFixture } from '../helpers/model-fixtures.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const chromium = findChromium(process.env.CHROMIUM_PATH);
const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

let site: FixtureSite;
let model: ModelServer;
let hooks: WebhookReceiver;
let gleaner: TestGleaner;
let fc: Firecrawl;

beforeAll(async () => {
  // 127.0.0.2: the browser may reach the site, and the guard still refuses what is not loopback.
  site = await startFixtureSite(0, '127.0.0.2');
  model = await startModelServer();
  hooks = await startWebhookReceiver();
  gleaner = await startGleaner({ embedded: true, env: { MODEL_BASE_URL: model.baseUrl, MODEL_NAME: 'scripted-large', RATE_LIMIT_PER_MINUTE: '3000', MONITOR_TICK_MS: '200' } });
  fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
});
afterAll(async () => {
  await gleaner?.close();
  await hooks?.close();
  await model?.close();
  await site?.close();
});
beforeEach(() => model.reset(() => ({ status: 400, message: 'unscripted' })));
afterEach(() => expect(model.breaches).toEqual([]));

const plans = (page: string) => ({
  basic: Number(/Basic plan costs (\d+)/.exec(page)?.[1]),
  pro: Number(/Pro plan costs (\d+)/.exec(page)?.[1]),
});

describe('changeTracking json mode', () => {
  const schema = { type: 'object', properties: { basic: { type: 'number' }, pro: { type: 'number' } }, required: ['basic', 'pro'] };

  it('extracts at each version and answers the fields that changed, previous and current', async () => {
    const name = unique('prices');
    setWatchedPage(name, '<p>Basic plan costs 10 euros.</p><p>Pro plan costs 20 euros.</p>');
    const url = `${site.url}/watch-plain/${name}`;
    const formats: FormatOption[] = ['markdown', { type: 'changeTracking', modes: ['json', 'git-diff'], schema, tag: 'prices' }];
    model.reset(extractionFixture(model, schema, plans));

    const first = await fc.scrape(url, { formats, maxAge: 0 });
    expect(first.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
    expect(first.changeTracking).not.toHaveProperty('json');
    expect(first.metadata!.creditsUsed).toBe(5);
    expect(model.seen).toHaveLength(1);

    // The same page keeps its stored extraction: no model call.
    const second = await fc.scrape(url, { formats, maxAge: 0 });
    expect(second.changeTracking).toMatchObject({ changeStatus: 'same' });
    expect(model.seen).toHaveLength(1);

    setWatchedPage(name, '<p>Basic plan costs 12 euros.</p><p>Pro plan costs 20 euros.</p>');
    const third = await fc.scrape(url, { formats, maxAge: 0 });
    const ct = third.changeTracking as { changeStatus: string; json: unknown; diff: { text: string } };
    expect(ct.changeStatus).toBe('changed');
    expect(ct.json).toEqual({ basic: { previous: 10, current: 12 } });
    expect(ct.diff.text).toContain('+Basic plan costs 12 euros.');
    expect(model.seen).toHaveLength(2);
    expect(third.warning).toBeUndefined();
  });

  it('compares only within a tag, and says so when the last version has nothing to compare', async () => {
    const name = unique('tagged');
    setWatchedPage(name, '<p>Basic plan costs 5 euros.</p><p>Pro plan costs 9 euros.</p>');
    const url = `${site.url}/watch-plain/${name}`;
    model.reset(extractionFixture(model, schema, plans));
    await fc.scrape(url, { formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema, tag: 'a' }], maxAge: 0 });
    // A git-diff-only history under tag b: no extraction is stored with it.
    await fc.scrape(url, { formats: ['markdown', { type: 'changeTracking', tag: 'b' }], maxAge: 0 });
    setWatchedPage(name, '<p>Basic plan costs 6 euros.</p><p>Pro plan costs 9 euros.</p>');
    const a = await fc.scrape(url, { formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema, tag: 'a' }], maxAge: 0 });
    expect(a.changeTracking).toMatchObject({ changeStatus: 'changed', json: { basic: { previous: 5, current: 6 } } });
    const b = await fc.scrape(url, { formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema, tag: 'b' }], maxAge: 0 });
    expect(b.changeTracking).toMatchObject({ changeStatus: 'changed' });
    expect(b.changeTracking).not.toHaveProperty('json');
    expect(b.warning).toMatch(/no extraction with this schema and prompt to compare with/);
  });

  it('extracts by a prompt alone, or by a default prompt when given neither', async () => {
    const name = unique('prompted');
    setWatchedPage(name, '<p>Basic plan costs 7 euros.</p><p>Pro plan costs 9 euros.</p>');
    const url = `${site.url}/watch-plain/${name}`;
    model.reset(extractionFixture(model, { type: 'object' }, plans));
    const byPrompt: FormatOption[] = ['markdown', { type: 'changeTracking', modes: ['json'], prompt: 'the price of each plan', tag: 'p' }];
    const byDefault: FormatOption[] = ['markdown', { type: 'changeTracking', modes: ['json'], tag: 'd' }];
    await fc.scrape(url, { formats: byPrompt, maxAge: 0 });
    await fc.scrape(url, { formats: byDefault, maxAge: 0 });
    expect(model.seen[0]!.body.messages[1]!.content).toContain('the price of each plan');
    expect(model.seen[1]!.body.messages[1]!.content).toMatch(/facts the page states/);
    setWatchedPage(name, '<p>Basic plan costs 7 euros.</p><p>Pro plan costs 11 euros.</p>');
    for (const formats of [byPrompt, byDefault]) {
      const doc = await fc.scrape(url, { formats, maxAge: 0 });
      expect(doc.changeTracking).toMatchObject({ changeStatus: 'changed', json: { pro: { previous: 9, current: 11 } } });
    }
  });
});

describe('monitor goal judging', () => {
  const goal = 'Tell me when a plan gets cheaper';

  async function runAndWait(monitorId: string) {
    const started = await fc.runMonitor(monitorId);
    for (let i = 0; i < 300; i++) {
      const detail = await fc.getMonitorCheck(monitorId, started.id);
      if (!['queued', 'running'].includes(detail.status)) return detail;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('check did not finish');
  }

  it('judges each changed page against the goal: on the check page and in the webhook', async () => {
    const cheaper = unique('cheaper');
    const wording = unique('wording');
    const steady = unique('steady');
    setWatchedPage(cheaper, '<p>Basic plan costs 10 euros.</p>');
    setWatchedPage(wording, '<p>Our plans are great.</p>');
    setWatchedPage(steady, '<p>Nothing moves here.</p>');
    const urls = [cheaper, wording, steady].map((n) => `${site.url}/watch/${n}`);
    const m = await fc.createMonitor({ name: 'Prices', schedule: { cron: '0 0 1 1 *' }, targets: [{ type: 'scrape', urls }], goal, judgeEnabled: true, webhook: { url: hooks.url } });
    model.reset(judgmentFixture(model, goal, () => ({ status: 400, message: 'nothing changed yet' })));
    const first = await runAndWait(m.id);
    // First sight: every page is new, nothing to judge.
    expect(first.pages.every((p) => p.status === 'new' && p.judgment === null)).toBe(true);
    expect(model.seen).toHaveLength(0);

    setWatchedPage(cheaper, '<p>Basic plan costs 8 euros.</p>');
    setWatchedPage(wording, '<p>Our plans are wonderful.</p>');
    model.reset(
      judgmentFixture(model, goal, (diff) =>
        diff.includes('8 euros')
          ? { json: { meaningful: true, confidence: 'high', reason: 'The basic plan went from 10 to 8 euros.', meaningfulChanges: [{ type: 'changed', before: '10 euros', after: '8 euros', reason: 'cheaper' }] } }
          : { json: { meaningful: false, confidence: 'medium', reason: 'Only the wording changed.', meaningfulChanges: [] } },
      ),
    );
    const second = await runAndWait(m.id);
    expect(second.status).toBe('completed');
    expect(model.seen).toHaveLength(2);
    const byUrl = new Map(second.pages.map((p) => [p.url, p]));
    expect(byUrl.get(urls[0]!)!.judgment).toEqual({
      meaningful: true,
      confidence: 'high',
      reason: 'The basic plan went from 10 to 8 euros.',
      meaningfulChanges: [{ type: 'changed', before: '10 euros', after: '8 euros', reason: 'cheaper' }],
    });
    expect(byUrl.get(urls[0]!)).toMatchObject({ isMeaningful: true });
    expect(byUrl.get(urls[1]!)).toMatchObject({ status: 'changed', isMeaningful: false, judgment: { meaningful: false, reason: 'Only the wording changed.' } });
    expect(byUrl.get(urls[2]!)).toMatchObject({ status: 'same', judgment: null });

    const deliveries = await hooks.waitFor((all) => all.filter((d) => d.body.type === 'monitor.page' && d.body.id === second.id).length === 2);
    const items = deliveries.filter((d) => d.body.type === 'monitor.page' && d.body.id === second.id).map((d) => d.body.data[0] as { url: string; isMeaningful: boolean; judgment: { reason: string } });
    expect(items.find((i) => i.url === urls[0])).toMatchObject({ isMeaningful: true, judgment: { reason: 'The basic plan went from 10 to 8 euros.' } });
    expect(items.find((i) => i.url === urls[1])).toMatchObject({ isMeaningful: false });
  });

  it('leaves judgment null with a warning when the model cannot judge, and the check completes', async () => {
    const page = unique('unjudged');
    setWatchedPage(page, '<p>Basic plan costs 30 euros.</p>');
    const m = await fc.createMonitor({ name: 'Unjudged', schedule: { cron: '0 0 1 1 *' }, targets: [{ type: 'scrape', urls: [`${site.url}/watch/${page}`] }], goal, judgeEnabled: true });
    await runAndWait(m.id);
    setWatchedPage(page, '<p>Basic plan costs 25 euros.</p>');
    // An answer without a verdict, before and after the repair round.
    model.reset(judgmentFixture(model, goal, () => ({ json: { reason: 'hard to say' } })));
    const check = await runAndWait(m.id);
    expect(check.status).toBe('completed');
    expect(check.pages[0]).toMatchObject({ status: 'changed', judgment: null, isMeaningful: null, warning: expect.stringContaining('could not judge') });
  });
});

describe.skipIf(!chromium)('prompt on interact and session execute', () => {
  const tools = ['click', 'fill', 'type', 'press', 'open', 'scroll', 'read', 'elements'];

  it('clicks a button on the live page and reads what it revealed', async () => {
    const doc = await fc.scrape(`${site.url}/app/interactive`, { formats: ['markdown'], maxAge: 0 });
    model.reset(
      agentFixture(model, tools, [
        ({ observation }) => (observation.includes('button "Reveal"') ? { thought: 'reveal it', tool: 'click', args: { target: '#reveal' } } : { tool: 'finish', answer: 'no button' }),
        () => ({ tool: 'read', args: { target: '#secret' } }),
        ({ observation }) => ({ tool: 'finish', answer: `The secret says: ${observation}` }),
      ]),
    );
    const r = await fc.interact(doc.metadata!.scrapeId!, { prompt: 'Reveal the secret and tell me what it says' });
    expect(r).toMatchObject({ success: true, exitCode: 0, killed: false, output: 'The secret says: Secret revealed by a click', result: 'The secret says: Secret revealed by a click' });
    expect(r.stdout).toMatch(/^1\. click \{"target":"#reveal"\}: ok/);
    expect(r.stdout).toContain('2. read {"target":"#secret"}: ok (Secret revealed by a click)');
    // The goal is the caller's instruction; the page only ever arrived as data.
    expect(model.seen[0]!.body.messages[1]!.content).toContain('Reveal the secret and tell me what it says');
    await fc.stopInteraction(doc.metadata!.scrapeId!);
  });

  it('navigates only where the guard allows, and stops at the step limit', async () => {
    const session = await fc.browser({ ttl: 120 });
    const execute = (prompt: string) =>
      fetch(`${gleaner.url}/v2/browser/${session.id}/execute`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gleaner.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt, timeout: 60 }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));

    model.reset(
      agentFixture(model, tools, [
        () => ({ tool: 'open', args: { url: 'http://169.254.169.254/latest/meta-data/' } }),
        ({ observation }) => ({ tool: 'open', args: { url: `${site.url}/app/interactive` }, thought: observation }),
        ({ observation }) => ({ tool: 'finish', answer: observation.split('\n')[0] }),
      ]),
    );
    const guarded = await execute('Open the metadata service, else the interactive page, and give its title');
    expect(guarded.status).toBe(200);
    expect(guarded.body).toMatchObject({ success: true, exitCode: 0, output: 'Interactive' });
    expect(guarded.body.stdout).toMatch(/1\. open .*169\.254\.169\.254.*: failed/);
    expect(JSON.parse(model.seen[1]!.body.messages.at(-2)!.content).tool).toBe('open');
    expect(model.seen[1]!.body.messages.at(-1)!.content).toMatch(/failed/);

    model.reset(agentFixture(model, tools, Array.from({ length: 10 }, () => () => ({ tool: 'scroll', args: { direction: 'down' } }))));
    const endless = await execute('Scroll forever');
    expect(endless.body).toMatchObject({ success: true, exitCode: 1, killed: false, output: '' });
    expect(endless.body.stderr).toContain('Stopped after 10 steps');
    expect(model.seen).toHaveLength(10);
    await fc.deleteBrowser(session.id!);
  });
});
