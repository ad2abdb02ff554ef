import { describe, expect, it } from 'vitest';
import { checkSummaryEmail } from './mail.js';
import type { MonitorRecord, PageRecord } from './store.js';
import type { CheckView } from './views.js';

const page = (url: string, judgment: unknown): PageRecord => ({
  id: url,
  checkId: 'c1',
  monitorId: 'm1',
  targetId: 't1',
  seq: 0,
  url,
  status: 'changed',
  previousScrapeId: null,
  currentScrapeId: null,
  statusCode: 200,
  error: null,
  metadata: null,
  diff: { text: '@@ -1 +1 @@\n-a\n+b' },
  judgment,
  createdAt: 0,
});

describe('checkSummaryEmail', () => {
  it('says which changes mattered for the goal, and why', () => {
    const monitor = { id: 'm1', name: 'Prices' } as MonitorRecord;
    const check = { id: 'c1', status: 'completed', finishedAt: null, error: null, summary: { totalPages: 3, same: 0, changed: 3, new: 0, removed: 0, error: 0 } } as unknown as CheckView;
    const pages = [page('https://a.test/', { meaningful: true, reason: 'Basic got cheaper.' }), page('https://b.test/', { meaningful: false, reason: 'Wording only.' }), page('https://c.test/', null)];
    const mail = checkSummaryEmail(monitor, check, pages, false);
    expect(mail.text).toContain('1 of 2 judged changes meaningful for the goal');
    expect(mail.text).toContain('CHANGED: https://a.test/\n  Meaningful for the goal: Basic got cheaper.');
    expect(mail.text).toContain('CHANGED: https://b.test/\n  Not meaningful for the goal: Wording only.');
    // An unjudged page is listed without a verdict.
    expect(mail.text.endsWith('CHANGED: https://c.test/')).toBe(true);
    expect(mail.html).toContain('<i>Meaningful for the goal: Basic got cheaper.</i>');
  });
});
