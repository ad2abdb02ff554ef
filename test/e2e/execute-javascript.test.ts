/**
 * The `executeJavascript` action through the official SDK: a plain expression script and a body
 * with a top-level `return` both run, and each value lands in `actions.javascriptReturns` as
 * `{type, value}`, in the order the actions ran.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/scrape/engines/chromium.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

const chromium = findChromium(process.env.CHROMIUM_PATH);

let site: FixtureSite;
let gleaner: TestGleaner;
let fc: Firecrawl;

describe.skipIf(!chromium)('executeJavascript action', () => {
  beforeAll(async () => {
    site = await startFixtureSite();
    gleaner = await startGleaner({ embedded: true, env: { RATE_LIMIT_PER_MINUTE: '1000' } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
    await site?.close();
  });

  it('runs a plain expression and a body with return, returning both values', async () => {
    const doc = await fc.scrape(`${site.url}/article`, {
      formats: ['markdown'],
      maxAge: 0,
      actions: [
        { type: 'executeJavascript', script: "(document.body.append('appended-by-script'), 6 * 7)" },
        { type: 'executeJavascript', script: 'const t = document.title;\nreturn { title: t, words: t.split(" ").length };' },
        { type: 'executeJavascript', script: "document.querySelectorAll('p').length > 0" },
        { type: 'scrape' },
      ],
    });
    const actions = doc.actions as { javascriptReturns: { type: string; value: unknown }[]; scrapes: { html: string }[] };
    const returns = actions.javascriptReturns;
    expect(returns).toHaveLength(3);
    expect(returns[0]).toEqual({ type: 'number', value: 42 });
    expect(returns[1]!.type).toBe('object');
    expect(returns[1]!.value).toEqual({ title: doc.metadata?.title, words: String(doc.metadata?.title).split(' ').length });
    expect(returns[2]).toEqual({ type: 'boolean', value: true });
    // The expression's side effect happened on the page that was captured.
    expect(actions.scrapes[0]!.html).toContain('appended-by-script');
  });
});
