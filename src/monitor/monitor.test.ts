/** The pure parts of monitors: schedules, noise rules, the diff engine, credit estimates. */
import { describe, expect, it } from 'vitest';
import { estimateCreditsPerMonth } from './credits.js';
import { gitDiff, jsonFieldDiff } from './diff.js';
import { denoise } from './noise.js';
import { cronError, isTimeZone, maxRunsPerMonth, nextRunAfter, textToCron } from './schedule.js';
import type { Target } from './schemas.js';

describe('schedules', () => {
  it.each([
    ['every 30 minutes', '*/30 * * * *'],
    ['every minute', '* * * * *'],
    ['hourly', '0 * * * *'],
    ['every 6 hours', '0 */6 * * *'],
    ['daily at 9:00', '0 9 * * *'],
    ['every day at 9:30 pm', '30 21 * * *'],
    ['every monday at 8am', '0 8 * * 1'],
    ['weekdays at 7:15', '15 7 * * 1-5'],
    ['weekly', '0 0 * * 1'],
  ])('"%s" is %s', (text, cron) => expect(textToCron(text)).toBe(cron));

  it('refuses phrases it cannot schedule exactly', () => {
    for (const t of ['every 7 minutes', 'sometimes', 'daily at 25:00', 'every funday']) expect(textToCron(t)).toBeUndefined();
  });

  it('validates cron and zones', () => {
    expect(cronError('*/5 * * * *')).toBeUndefined();
    expect(cronError('* * * *')).toMatch(/5-field/);
    expect(cronError('0 0 31 2 *')).toBeDefined();
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Atlantis')).toBe(false);
  });

  it('follows the zone across a DST change', () => {
    // Berlin springs forward on 2025-03-30: 09:00 local is 08:00Z before, 07:00Z after.
    const before = nextRunAfter('0 9 * * *', 'Europe/Berlin', Date.parse('2025-03-29T12:00:00Z'));
    const after = nextRunAfter('0 9 * * *', 'Europe/Berlin', before!);
    expect(new Date(before!).toISOString()).toBe('2025-03-30T07:00:00.000Z');
    expect(new Date(after!).toISOString()).toBe('2025-03-31T07:00:00.000Z');
  });

  it('bounds the runs of a month from the cron fields', () => {
    expect(maxRunsPerMonth('* * * * *')).toBe(60 * 24 * 31);
    expect(maxRunsPerMonth('*/30 * * * *')).toBe(2 * 24 * 31);
    expect(maxRunsPerMonth('0 * * * *')).toBe(24 * 31);
    // 31 days, plus a repeated hour when clocks fall back.
    expect(maxRunsPerMonth('0 9 * * *')).toBe(31 + 1);
    expect(maxRunsPerMonth('0 9 * * 1-5')).toBe(25 + 1);
    expect(maxRunsPerMonth('0 0 1 * *')).toBe(1 + 1);
    expect(maxRunsPerMonth('0,30 9-17 * * MON')).toBe(2 * 9 * 5 + 2);
    const targets = [{ id: 'a', type: 'scrape', urls: ['a', 'b'] }] as Target[];
    expect(estimateCreditsPerMonth('0 * * * *', targets)).toBe(24 * 31 * 2);
  });
});

describe('noise rules', () => {
  it('masks clocks, tokens and cache-busting parameters but keeps content and dates', () => {
    const a = 'Updated 2025-01-02T10:11:12Z at 10:11 am, 5 minutes ago\n[css](/s.css?v=123&lang=en) token 9f8e7d6c5b4a39281706f5e4d3c2b1a0\nPublished 2 January 2025';
    const b = 'Updated 2025-03-04T01:02:03+01:00 at 4:05 pm, an hour ago\n[css](/s.css?v=999&lang=en) token a1b2c3d4e5f60718293a4b5c6d7e8f90\nPublished 2 January 2025';
    expect(denoise(a)).toBe(denoise(b));
    expect(denoise(a)).toContain('lang=en');
    expect(denoise(a)).not.toBe(denoise(a.replace('2 January', '3 January')));
    expect(denoise('[x](/a?page=2)')).not.toBe(denoise('[x](/a?page=3)'));
  });
});

describe('diff engine', () => {
  it('gives a unified diff and its AST', () => {
    const d = gitDiff('a\nb\nc\n', 'a\nB\nc\n', 'http://x/');
    expect(d.text).toContain('--- a/http://x/');
    expect(d.text).toContain('-b\n+B');
    const changes = d.json.files[0]!.chunks[0]!.changes;
    expect(changes).toEqual([
      { type: 'normal', normal: true, ln1: 1, ln2: 1, content: ' a' },
      { type: 'del', del: true, ln: 2, content: '-b' },
      { type: 'add', add: true, ln: 2, content: '+B' },
      { type: 'normal', normal: true, ln1: 3, ln2: 3, content: ' c' },
    ]);
    expect(d.json.files[0]).toMatchObject({ additions: 1, deletions: 1 });
  });

  it('compares JSON field by field, limited to the schema when one is given', () => {
    expect(jsonFieldDiff({ price: 1, name: 'a', extra: 1 }, { price: 2, name: 'a', extra: 2 }, { properties: { price: {}, name: {} } })).toEqual({
      price: { previous: 1, current: 2 },
    });
    expect(jsonFieldDiff({ a: [1] }, { a: [1], b: true })).toEqual({ b: { previous: null, current: true } });
  });
});
