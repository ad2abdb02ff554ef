/**
 * A URL that cannot parse is the caller's mistake, named as such: 400 `INVALID_URL` on every
 * endpoint that takes one (scrape, batch, crawl, map, monitor targets, webhooks), never a 500
 * from trying to resolve or fetch it.
 */
import { describe, expect, it } from 'vitest';
import { useE2eServer } from '../helpers/e2e-server.js';
import { sdkError, type SdkError } from '../helpers/sdk-error.js';

const e2e = useE2eServer();

const BAD = ['ht!tp://not a url', 'http://not a url', 'http://exa!mple.com/page', 'http://a..b/'];

function expectInvalidUrl(err: SdkError, label: string, path?: (string | number)[]) {
  expect(err.status, label).toBe(400);
  expect(err.code, label).toBe('INVALID_URL');
  expect(err.message, label).toBe('Invalid URL');
  if (path) expect((err.details as { path: unknown[] }[]).map((d) => d.path), label).toContainEqual(path);
}

describe('a URL that cannot parse', () => {
  it('is a 400 INVALID_URL on scrape', async () => {
    for (const url of BAD) expectInvalidUrl(await sdkError(e2e.fc.scrape(url)), url, ['url']);
  });

  it('is a 400 INVALID_URL on crawl and map', async () => {
    for (const url of BAD) {
      expectInvalidUrl(await sdkError(e2e.fc.startCrawl(url)), `crawl ${url}`);
      expectInvalidUrl(await sdkError(e2e.fc.map(url)), `map ${url}`);
    }
  });

  it('is a 400 INVALID_URL on batch scrape unless invalid URLs are ignored', async () => {
    const err = await sdkError(e2e.fc.startBatchScrape([`${e2e.site.url}/article`, BAD[0]!], { ignoreInvalidURLs: false }));
    expectInvalidUrl(err, 'batch', ['urls', 1]);
    const started = await e2e.fc.startBatchScrape([`${e2e.site.url}/article`, BAD[0]!], { ignoreInvalidURLs: true });
    expect(started.invalidURLs).toEqual([BAD[0]]);
    const none = await sdkError(e2e.fc.startBatchScrape([BAD[0]!, BAD[1]!], { ignoreInvalidURLs: true }));
    expect(none.status).toBe(400);
    expect(none.code).toBe('INVALID_URL');
  });

  it('is a 400 INVALID_URL in monitor targets, with the target path', async () => {
    const base = { name: 'bad url', schedule: { text: 'hourly' } };
    const scrape = await sdkError(e2e.fc.createMonitor({ ...base, targets: [{ type: 'scrape', urls: [`${e2e.site.url}/article`, BAD[0]!] }] }));
    expectInvalidUrl(scrape, 'scrape target', ['targets', 0, 'urls', 1]);
    const crawl = await sdkError(e2e.fc.createMonitor({ ...base, targets: [{ type: 'crawl', url: BAD[1]! }] }));
    expectInvalidUrl(crawl, 'crawl target', ['targets', 0, 'url']);
  });

  it('is a 400 INVALID_URL as a webhook URL', async () => {
    const crawl = await sdkError(e2e.fc.startCrawl(`${e2e.site.url}/article`, { webhook: BAD[0]! }));
    expectInvalidUrl(crawl, 'crawl webhook', ['webhook', 'url']);
    const monitor = await sdkError(
      e2e.fc.createMonitor({ name: 'bad hook', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: [`${e2e.site.url}/article`] }], webhook: { url: BAD[0]! } }),
    );
    expectInvalidUrl(monitor, 'monitor webhook', ['webhook', 'url']);
  });

  it('still scrapes real host names, including ones with underscores and IP literals', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/article`, { maxAge: 0 });
    expect(doc.metadata?.statusCode).toBe(200);
    // Well-formed but unresolvable is a different failure: the name parses, the lookup fails.
    const err = await sdkError(e2e.fc.scrape('http://no_such_host.invalid/'));
    expect(err.code).not.toBe('INVALID_URL');
  });
});
