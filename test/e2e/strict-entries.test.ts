/**
 * `actions` and `parsers` entries allow no members beyond their type's: an extra or misspelt
 * one is a 400 naming it, wherever scrape options are taken, instead of being dropped.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

let gleaner: TestGleaner;
let fc: Firecrawl;

beforeAll(async () => {
  gleaner = await startGleaner({ embedded: true, env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
});
afterAll(async () => {
  await gleaner?.close();
});

// Never fetched: every request here is refused at validation.
const URL_ = 'http://127.0.0.1:9/page';

interface Issue {
  code: string;
  path: (string | number)[];
  message: string;
}

function expectUnrecognised(details: Issue[], path: (string | number)[], key: string) {
  expect(details).toContainEqual(expect.objectContaining({ code: 'unrecognized_keys', path, message: expect.stringContaining(`"${key}"`) }));
}

describe('extra members', () => {
  it('in an action entry are a 400 naming the entry and the key', async () => {
    const err = await sdkError(fc.scrape(URL_, { actions: [{ type: 'wait', milliseconds: 10 }, { type: 'click', selector: '#go', selectr: '#go' } as never] }));
    expect(err.status).toBe(400);
    expect(err.code).toBe('BAD_REQUEST');
    expectUnrecognised(err.details as Issue[], ['actions', 1], 'selectr');
    const viewport = await sdkError(fc.scrape(URL_, { actions: [{ type: 'screenshot', viewport: { width: 10, height: 10, depth: 3 } } as never] }));
    expectUnrecognised(viewport.details as Issue[], ['actions', 0, 'viewport'], 'depth');
  });

  it('in a parser entry are a 400 naming the entry and the key', async () => {
    const err = await sdkError(fc.scrape(URL_, { parsers: ['image', { type: 'pdf', maxPage: 3 } as never] }));
    expect(err.status).toBe(400);
    expectUnrecognised(err.details as Issue[], ['parsers', 1], 'maxPage');
    const image = await sdkError(fc.scrape(URL_, { parsers: [{ type: 'image', mode: 'ocr' } as never] }));
    expectUnrecognised(image.details as Issue[], ['parsers', 0], 'mode');
  });

  it('are refused in crawl, batch and monitor scrape options too', async () => {
    const crawl = await sdkError(fc.startCrawl(URL_, { scrapeOptions: { parsers: [{ type: 'pdf', bogus: true } as never] } }));
    expectUnrecognised(crawl.details as Issue[], ['scrapeOptions', 'parsers', 0], 'bogus');
    const batch = await sdkError(fc.startBatchScrape([URL_], { options: { actions: [{ type: 'scrape', bogus: 1 } as never] } }));
    expectUnrecognised(batch.details as Issue[], ['actions', 0], 'bogus');
    const monitor = await sdkError(
      fc.createMonitor({ name: 'm', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: [URL_], scrapeOptions: { actions: [{ type: 'press', key: 'Enter', bogus: 1 }] } as never }] }),
    );
    expect(monitor.status).toBe(400);
    expectUnrecognised(monitor.details as Issue[], ['targets', 0, 'scrapeOptions', 'actions', 0], 'bogus');
  });

  it('are not needed for what the SDK sends: every documented member is accepted', async () => {
    // Validation passes; the fetch of a closed port then fails, which is not a 400.
    const err = await sdkError(
      fc.scrape(URL_, {
        maxAge: 0,
        parsers: ['image', { type: 'pdf', mode: 'fast', maxPages: 2, pages: true, pageMarkdown: true, blocks: true, pageMarkers: true } as never],
        actions: [
          { type: 'wait', milliseconds: 5 },
          { type: 'wait', selector: '#x' },
          { type: 'click', selector: '#x', all: true } as never,
          { type: 'write', text: 'hi' },
          { type: 'press', key: 'Enter' },
          { type: 'scroll', direction: 'down', selector: '#x' },
          { type: 'screenshot', fullPage: true, quality: 50, viewport: { width: 800, height: 600 } },
          { type: 'scrape' },
          { type: 'executeJavascript', script: '1' },
          { type: 'pdf', format: 'A4', landscape: true, scale: 1 },
        ],
      }),
    );
    expect(err.status).not.toBe(400);
  });
});
