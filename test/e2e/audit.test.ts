/**
 * The audit log through the official SDK: for a team that keeps one, requests carrying
 * `auditMetadata` become events with who, which key, what, which URLs, the outcome and the
 * credits charged, and never any page content. Teams without a log, and requests without the
 * metadata, leave none.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

let site: FixtureSite;
let gleaner: TestGleaner;
let n = 0;

beforeAll(async () => {
  site = await startFixtureSite();
  gleaner = await startGleaner({ embedded: true, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
});
afterAll(async () => {
  await gleaner?.close();
  await site?.close();
});

async function team(opts: { audit: boolean; credits?: number }) {
  const teamId = await gleaner.rt.keys.ensureTeam(`audit-${n++}`);
  await gleaner.rt.audit.setEnabled(teamId, opts.audit);
  if (opts.credits !== undefined) await gleaner.rt.ledger.setPeriodCredits(teamId, opts.credits);
  const { id: keyId, key } = await gleaner.rt.keys.create({ teamId, name: 'audit' });
  return { teamId, keyId, fc: new Firecrawl({ apiKey: key, apiUrl: gleaner.url }), events: () => gleaner.rt.audit.list({ teamId }) };
}

const audited = { auditMetadata: { username: 'alice@example.com' } };

describe('audit events', () => {
  it('records a scrape carrying auditMetadata, without the page content', async () => {
    const t = await team({ audit: true });
    const url = `${site.url}/article?audit=${n++}`;
    const doc = await t.fc.scrape(url, { maxAge: 0, ...audited } as never);
    const events = await t.events();
    expect(events).toEqual([
      expect.objectContaining({ teamId: t.teamId, keyId: t.keyId, username: 'alice@example.com', action: 'POST /v2/scrape', targetUrls: [url], outcome: '200', credits: 1 }),
    ]);
    const sample = (doc.markdown ?? '').split('\n').find((l) => l.trim().length > 20)!;
    expect(sample).toBeTruthy();
    expect(JSON.stringify(events)).not.toContain(sample.trim());
  });

  it('records a crawl (metadata in scrapeOptions) and a batch with their URLs', async () => {
    const t = await team({ audit: true });
    await t.fc.startCrawl(`${site.url}/crawl`, { limit: 1, scrapeOptions: audited } as never);
    const urls = [`${site.url}/article?audit=${n++}`, `${site.url}/article?audit=${n++}`];
    await t.fc.startBatchScrape(urls, { options: audited } as never);
    const events = await t.events();
    expect(events.map((e) => [e.action, e.targetUrls, e.outcome])).toEqual([
      ['POST /v2/crawl', [`${site.url}/crawl`], '200'],
      ['POST /v2/batch/scrape', urls, '200'],
    ]);
  });

  it('records refused requests with their status', async () => {
    const t = await team({ audit: true, credits: 0 });
    expect((await sdkError(t.fc.scrape(`${site.url}/article`, audited as never))).status).toBe(402);
    expect((await t.events()).map((e) => [e.outcome, e.credits])).toEqual([['402', 0]]);
  });

  it('writes nothing for requests without auditMetadata or teams without a log', async () => {
    const on = await team({ audit: true });
    await on.fc.scrape(`${site.url}/article?audit=${n++}`, { maxAge: 0 });
    expect(await on.events()).toEqual([]);
    const off = await team({ audit: false });
    await off.fc.scrape(`${site.url}/article?audit=${n++}`, { maxAge: 0, ...audited } as never);
    expect(await off.events()).toEqual([]);
  });
});
