import { describe, expect, it } from 'vitest';
import { dedupeKey, filterHits, mergeHits } from './filters.js';
import { bestSnippet } from './local/snippet.js';
import { markdownToText, pageSource, pageText } from './local/page-text.js';
import { parseTbs, searxTimeRange, windowOf, type TimeFilter } from './tbs.js';
import type { Document } from '../core/document.js';

const NOW = Date.UTC(2026, 5, 15, 12);

describe('tbs', () => {
  it('reads past-period filters, with counts', () => {
    expect(parseTbs('qdr:d')).toEqual({ relative: { unit: 'd', count: 1 }, sortByDate: false });
    const six = parseTbs('qdr:h6,sbd:1') as TimeFilter;
    expect(windowOf(six, NOW)).toEqual({ from: NOW - 6 * 3600_000 });
    expect(six.sortByDate).toBe(true);
  });

  it('reads custom ranges, the end date covering its whole day', () => {
    const f = parseTbs('cdr:1,cd_min:1/2/2024,cd_max:1/3/2024') as TimeFilter;
    expect(windowOf(f, NOW)).toEqual({ from: Date.UTC(2024, 0, 2), to: Date.UTC(2024, 0, 4) - 1 });
  });

  it.each(['qdr:x', 'cdr:1', 'cd_min:1/1/2024', 'cdr:1,cd_min:2/30/2024', 'cdr:1,cd_min:1/5/2024,cd_max:1/1/2024', 'qdr:d,cdr:1,cd_min:1/1/2024', 'foo:1'])(
    'refuses %s with a message',
    (t) => expect(typeof parseTbs(t)).toBe('string'),
  );

  it('maps onto the smallest SearXNG time_range that covers the window', () => {
    expect(searxTimeRange(parseTbs('qdr:h') as TimeFilter, NOW)).toBe('day');
    expect(searxTimeRange(parseTbs('qdr:d3') as TimeFilter, NOW)).toBe('week');
    expect(searxTimeRange(parseTbs('qdr:y') as TimeFilter, NOW)).toBe('year');
    expect(searxTimeRange(parseTbs('cdr:1,cd_min:1/1/2000') as TimeFilter, NOW)).toBeUndefined();
  });
});

describe('filters', () => {
  it('treats scheme, www, trailing slash and fragment as the same page', () => {
    expect(dedupeKey('https://www.Example.com/a/#x')).toBe(dedupeKey('http://example.com/a'));
    const merged = mergeHits([[{ url: 'https://example.com/a' }], [{ url: 'http://www.example.com/a/', title: 'A' }, { url: 'https://example.com/b' }]]);
    expect(merged).toEqual([{ url: 'https://example.com/a', title: 'A' }, { url: 'https://example.com/b' }]);
  });

  it('matches subdomains, drops dated hits outside the window and keeps undated ones', () => {
    const hits = [
      { url: 'https://docs.example.com/x', publishedAt: NOW - 1000 },
      { url: 'https://example.com/old', publishedAt: NOW - 10 * 86_400_000 },
      { url: 'https://example.com/undated' },
      { url: 'https://notexample.com/x' },
    ];
    const kept = filterHits(hits, { categories: [], includeDomains: ['example.com'], excludeDomains: [], tbs: parseTbs('qdr:d') as TimeFilter, now: NOW });
    expect(kept.map((h) => h.url)).toEqual(['https://docs.example.com/x', 'https://example.com/undated']);
  });
});

describe('page text and snippets', () => {
  it('keeps headings, the text without link targets or tags, and URL words of a Document', () => {
    const doc = {
      markdown: '# Select rows\n\nUse [SELECT](https://x/sql-select.html) to **read** rows.\n\n## Syntax\n\n![img](a.png)',
      metadata: { url: 'https://docs.example.com/sql-select.html#top', sourceURL: 'x', title: 'SELECT', statusCode: 200 },
    } as unknown as Document;
    const p = pageText(doc)!;
    expect(p.url).toBe('https://docs.example.com/sql-select.html');
    expect(p.headings).toBe('Select rows\nSyntax');
    // The rest of the markup stays: the index reads it as spaces, and a snippet is made readable.
    expect(p.body).toBe('# Select rows\n\nUse SELECT to **read** rows.\n\n## Syntax\n\nimg');
    expect(p.body.match(/\p{L}+/gu)).toEqual(['Select', 'rows', 'Use', 'SELECT', 'to', 'read', 'rows', 'Syntax', 'img']);
    expect(bestSnippet(p.body, 'read rows')).toBe('Use SELECT to read rows.');
    expect(p.urlWords).toBe('docs example com sql select html');
    expect(markdownToText('a [b](c) `d`').split(/\s+/)).toEqual(['a', 'b', 'd']);
  });

  it('hashes everything the page text is read from, and nothing else', () => {
    const doc = (markdown: string, metadata: Record<string, unknown> = {}) =>
      ({ markdown, metadata: { url: 'https://docs.example.com/a.html#part', sourceURL: 'x', title: 'A', statusCode: 200, ...metadata } }) as unknown as Document;
    const base = pageSource(doc('# A\n\nSome text.'))!;
    expect(base.url).toBe('https://docs.example.com/a.html');
    expect(pageSource(doc('# A\n\nSome text.', { scrapeId: 'other', statusCode: 304 }))).toEqual(base);
    for (const changed of [
      doc('# A\n\nOther text.'),
      doc('# A\n\nSome text.', { title: 'B' }),
      doc('# A\n\nSome text.', { ogDescription: 'About A' }),
      doc('# A\n\nSome text.', { publishedTime: '2025-01-01' }),
    ]) {
      expect(pageSource(changed)!.hash).not.toBe(base.hash);
    }
    expect(pageSource(doc('text', { url: 'ftp://docs.example.com/a' }))).toBeUndefined();
  });

  it('picks the passage with the most query words', () => {
    const text = 'Tea is old.\nKettles boil water.\nA kettle thermometer tells the water temperature for green tea.\nThe end.';
    expect(bestSnippet(text, 'green tea temperature')).toBe('A kettle thermometer tells the water temperature for green tea.');
  });

  it('closes up the blanks that markup left in a passage', () => {
    const body = pageText({ markdown: 'Pour | the **hot** _water_ |', metadata: { url: 'https://tea.example/', statusCode: 200 } } as unknown as Document)!.body;
    expect(bestSnippet(body, 'water')).toBe('Pour the hot water');
  });

  it('trims a long passage around its first match', () => {
    const text = `${'filler words here '.repeat(40)}the matcha whisk is bamboo ${'more filler '.repeat(40)}`;
    const s = bestSnippet(text, 'matcha');
    expect(s.length).toBeLessThan(260);
    expect(s).toContain('matcha whisk');
    expect(s.startsWith('…')).toBe(true);
  });
});
