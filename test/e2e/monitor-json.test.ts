/**
 * Monitors whose targets ask for the `json` format compare what is extracted, field by field:
 * a JSON-only target changes when a field changes, not when the wording around it does, and
 * each page shows its current extraction. Through the official SDK, with the offline tier
 * (fields from the page's structured data), against the fixture site's mutable pages.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { setWatchedPage } from '../fixture-site/monitor-pages.js';
import { useE2eServer } from '../helpers/e2e-server.js';

const e2e = useE2eServer();

const schema = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } };

function product(price: string, blurb: string): string {
  const ld = { '@context': 'https://schema.org', '@type': 'Product', name: 'Desk Lamp', offers: { '@type': 'Offer', price, priceCurrency: 'EUR' } };
  return `<script type="application/ld+json">${JSON.stringify(ld)}</script><p>${blurb}</p>`;
}

async function runAndWait(monitorId: string) {
  const started = await e2e.fc.runMonitor(monitorId);
  for (let i = 0; i < 300; i++) {
    const detail = await e2e.fc.getMonitorCheck(monitorId, started.id);
    if (!['queued', 'running'].includes(detail.status)) return detail;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('check did not finish');
}

describe('a monitor of extracted JSON', () => {
  it('reports a changed field with its previous and current value, and ignores changed wording', async () => {
    const name = `lamp-${randomBytes(4).toString('hex')}`;
    setWatchedPage(name, product('10.00', 'A lamp for the desk.'));
    const m = await e2e.fc.createMonitor({
      name: 'Lamp price',
      schedule: { cron: '0 * * * *' },
      targets: [{ type: 'scrape', urls: [`${e2e.site.url}/watch/${name}`], scrapeOptions: { formats: [{ type: 'json', schema }] } }],
    });

    const first = await runAndWait(m.id);
    expect(first.pages[0]).toMatchObject({ status: 'new', snapshot: { json: { name: 'Desk Lamp', price: 10 } } });

    setWatchedPage(name, product('10.00', 'A lamp for the desk, now in three colours.'));
    const reworded = await runAndWait(m.id);
    expect(reworded.pages[0]).toMatchObject({ status: 'same', diff: null, snapshot: { json: { price: 10 } } });

    setWatchedPage(name, product('12.50', 'A lamp for the desk, now in three colours.'));
    const repriced = await runAndWait(m.id);
    expect(repriced.pages[0]!.status).toBe('changed');
    expect(repriced.pages[0]!.diff).toEqual({ json: { price: { previous: 10, current: 12.5 } } });
    expect(repriced.pages[0]!.snapshot).toEqual({ json: { name: 'Desk Lamp', price: 12.5 } });
  });

  it('with markdown asked too, reports changed wording as text and the fields as json', async () => {
    const name = `lamp-${randomBytes(4).toString('hex')}`;
    setWatchedPage(name, product('10.00', 'A lamp for the desk.'));
    const m = await e2e.fc.createMonitor({
      name: 'Lamp page',
      schedule: { cron: '0 * * * *' },
      targets: [{ type: 'scrape', urls: [`${e2e.site.url}/watch/${name}`], scrapeOptions: { formats: ['markdown', { type: 'json', schema }] } }],
    });
    await runAndWait(m.id);
    setWatchedPage(name, product('10.00', 'A lamp for the bedside.'));
    const check = await runAndWait(m.id);
    const page = check.pages[0]!;
    expect(page.status).toBe('changed');
    const diff = page.diff as { text?: string; json?: unknown };
    expect(diff.text).toContain('+A lamp for the bedside.');
    expect(diff.json).toEqual({});
    expect(page.snapshot).toEqual({ json: { name: 'Desk Lamp', price: 10 } });
  });

  it('keeps text-only monitors as they were: no snapshot', async () => {
    const name = `note-${randomBytes(4).toString('hex')}`;
    setWatchedPage(name, '<p>First words.</p>');
    const m = await e2e.fc.createMonitor({ name: 'Note', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: [`${e2e.site.url}/watch/${name}`] }] });
    const check = await runAndWait(m.id);
    expect(check.pages[0]).toMatchObject({ status: 'new', snapshot: null });
  });
});
