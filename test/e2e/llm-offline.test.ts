/**
 * The formats that read a page's meaning, with no model configured (the default): every answer
 * comes from an algorithm over the page itself, and the `warning` says which.
 */
import { describe, expect, it } from 'vitest';
import { useE2eServer } from '../helpers/e2e-server.js';
import { sdkError } from '../helpers/sdk-error.js';

const e2e = useE2eServer({ embedded: true, workers: false });

describe('json from structured data', () => {
  it('fills a schema from JSON-LD and labelled tables, coerced to its types, and names what it did not find', async () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        price: { type: 'number' },
        currency: { type: 'string' },
        brand: { type: 'string' },
        rating: { type: 'number' },
        weight: { type: 'string' },
        waterproof: { type: 'boolean' },
        warrantyYears: { type: 'integer' },
      },
    };
    const doc = await e2e.fc.scrape(`${e2e.site.url}/model/product`, { formats: [{ type: 'json', schema }], maxAge: 0 });
    expect(doc.json).toEqual({
      name: 'Trail Runner 2',
      price: 129.99,
      currency: 'USD',
      brand: 'Fixture Outfitters',
      rating: 4.6,
      weight: '280 g',
      waterproof: true,
    });
    expect(doc.warning).toContain('without a model');
    expect(doc.warning).toContain('warrantyYears');
    expect(doc.metadata?.creditsUsed).toBe(5);
  });

  it('reads microdata, nested items and definition lists', async () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, author: { type: 'object', properties: { name: { type: 'string' } } }, isbn: { type: 'string' }, price: { type: 'number' }, pages: { type: 'integer' }, publisher: { type: 'string' } },
    };
    const doc = await e2e.fc.scrape(`${e2e.site.url}/model/microdata`, { formats: [{ type: 'json', schema }], maxAge: 0 });
    expect(doc.json).toEqual({ name: 'The Lantern Book', author: { name: 'Ada Fairweather' }, isbn: '978-3-16-148410-0', price: 18.5, pages: 312, publisher: 'Harbour Press' });
  });

  it('refuses a prompt without a schema, naming the missing setting', async () => {
    const e = await sdkError(e2e.fc.scrape(`${e2e.site.url}/model/product`, { formats: [{ type: 'json', prompt: 'the price' }] }));
    expect(e.status).toBe(400);
    expect(e.code).toBe('MODEL_NOT_CONFIGURED');
    expect(e.message).toContain('MODEL_BASE_URL');
  });

  it('refuses a schema that is not a JSON Schema, naming it', async () => {
    const e = await sdkError(e2e.fc.scrape(`${e2e.site.url}/model/product`, { formats: [{ type: 'json', schema: { type: 'object', properties: { a: { type: 'no-such-type' } } } }] }));
    expect(e.status).toBe(400);
    expect(JSON.stringify(e.details)).toContain('schema');
    expect(e.message + JSON.stringify(e.details)).toMatch(/not a valid JSON Schema/);
  });
});

describe('product and menu', () => {
  it('gives the SDK ProductProfile from schema.org Product data', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/model/product`, { formats: ['product'], maxAge: 0 });
    expect(doc.product).toMatchObject({ title: 'Trail Runner 2', brand: 'Fixture Outfitters', category: 'Shoes > Running' });
    expect(doc.product!.variants).toEqual([
      expect.objectContaining({ sku: 'TR2-001-42', price: { amount: 129.99, currency: 'USD', formatted: '$129.99' }, availability: { inStock: true, text: 'InStock' } }),
      expect.objectContaining({ sku: 'TR2-001-45', availability: { inStock: false, text: 'OutOfStock' } }),
    ]);
  });

  it('leaves product out with a warning on a page that states none', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/article`, { formats: ['product'], maxAge: 0 });
    expect(doc.product).toBeUndefined();
    expect(doc.warning).toContain('product');
  });

  it('gives the SDK MenuProfile from schema.org Menu data, and from a plain price list', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/model/menu`, { formats: ['menu'], maxAge: 0 });
    expect(doc.menu).toMatchObject({ isMenu: true, merchant: { name: 'Casa Fixture', type: 'Restaurant' }, currency: 'EUR' });
    expect(doc.menu!.sections.map((s) => [s.name, s.items.map((i) => i.name)])).toEqual([
      ['Starters', ['Bruschetta', 'Burrata']],
      ['Pasta', ['Cacio e pepe']],
    ]);
    expect(doc.menu!.sections[0]!.items[1]).toMatchObject({ price: { amount: 11, currency: 'EUR' }, dietary: ['vegetarian'], calories: 420 });
    const list = await e2e.fc.scrape(`${e2e.site.url}/model/price-list`, { formats: ['menu'], maxAge: 0 });
    expect(list.menu!.isMenu).toBe(true);
    expect(list.menu!.sections.map((s) => s.items.map((i) => [i.name, i.price?.amount]))).toEqual([
      [['Espresso', 3], ['Flat white', 4.5]],
      [['Carrot cake', 5.25], ['Lemon tart', 5.75]],
    ]);
    expect(list.warning).toContain('price list');
  });
});

describe('summary, highlights and question', () => {
  it('summarises with sentences of the page itself', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/article`, { formats: ['markdown', 'summary'], maxAge: 0 });
    expect(doc.summary!.length).toBeGreaterThan(40);
    const page = doc.markdown!.replace(/\*\*|__/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\s+/g, ' ');
    for (const sentence of doc.summary!.split(/(?<=[.!?])\s+/)) expect(page).toContain(sentence);
    expect(doc.warning).toContain('extractive');
  });

  it('highlights the passages about the query, verbatim', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/model/long`, { formats: ['markdown', { type: 'highlights', query: 'obsidian quarries' }], maxAge: 0 });
    const first = doc.highlights!.split('\n\n')[0]!;
    expect(first).toContain('obsidian');
    expect(doc.markdown).toContain(first.split(' ').slice(0, 8).join(' '));
  });

  it('answers a question with the best supporting passage, stated as an extract', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/model/long`, { formats: [{ type: 'question', question: 'What do builders use pumice for?' }], maxAge: 0 });
    expect(doc.answer).toContain('pumice');
    expect(doc.warning).toContain('extract');
    expect(doc.markdown).toBeUndefined();
  });

  it('refuses a question or query over 10,000 characters', async () => {
    const long = 'x'.repeat(10_001);
    expect((await sdkError(e2e.fc.scrape(`${e2e.site.url}/article`, { formats: [{ type: 'question', question: long }] }))).status).toBe(400);
    expect((await sdkError(e2e.fc.scrape(`${e2e.site.url}/article`, { formats: [{ type: 'highlights', query: long }] }))).status).toBe(400);
  });
});

describe('branding', () => {
  it('reads colours, fonts, logo and icons from the CSS and markup', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/model/brand`, { formats: ['branding'], maxAge: 0 });
    expect(doc.branding).toMatchObject({
      brandName: 'Fixture Brand Co',
      colorScheme: 'light',
      colors: { primary: '#ff5a1f', accent: '#1f8fff', background: '#ffffff', textPrimary: '#222222', link: '#1f8fff' },
      typography: { fontFamilies: { primary: 'Inter', heading: 'Playfair Display', code: 'JetBrains Mono' } },
      images: { logo: `${e2e.site.url}/logo.svg`, favicon: `${e2e.site.url}/favicon.ico`, ogImage: `${e2e.site.url}/og.png` },
    });
    expect(doc.warning).toContain('tone and personality');
  });
});

describe('redactPII', () => {
  const url = () => `${e2e.site.url}/model/pii`;

  it('fast: replaces emails, phones, Luhn-valid cards, IBANs and secrets with tags, in every text output', async () => {
    const doc = await e2e.fc.scrape(url(), { formats: ['markdown', 'html', 'summary'], redactPII: { mode: 'fast' }, maxAge: 0 });
    for (const text of [doc.markdown!, doc.html!]) {
      expect(text).not.toContain('maria.gonzalez@example.com');
      expect(text).not.toContain('555 0132');
      expect(text).not.toContain('4111 1111 1111 1111');
      expect(text).not.toContain('DE89 3704');
      expect(text).not.toContain('AKIAIOSFODNN7EXAMPLE');
      expect(text).not.toContain('ghp_abcdef');
      expect(text).not.toContain('MIIBOgIBAAJBAKj34');
      // Not a valid card number: left alone. Names are not looked for in fast mode.
      expect(text).toContain('1234 5678 9012 3456');
      expect(text).toContain('Maria Gonzalez');
    }
    expect(doc.markdown).toContain('<EMAIL>');
    expect(doc.markdown).toContain('<PHONE>');
    expect(doc.markdown).toContain('<FINANCIAL>');
    expect(doc.markdown).toContain('<SECRET>');
    expect(doc.html).toContain('&lt;EMAIL&gt;');
    expect(doc.summary).not.toContain('maria.gonzalez@example.com');
    // The page's own metadata is page text too; what the service says of the fetch is not.
    expect(doc.metadata?.description).toBe('Reach <EMAIL> for bookings');
    expect(doc.metadata?.sourceURL).toBe(url());
  });

  it('accurate without a model: names and places too, with a warning; mask and remove styles; entity filter', async () => {
    const doc = await e2e.fc.scrape(url(), { formats: ['markdown'], redactPII: true, maxAge: 0 });
    expect(doc.markdown).not.toContain('Maria Gonzalez');
    expect(doc.markdown).not.toContain('Berlin');
    expect(doc.markdown).toContain('<PERSON>');
    expect(doc.markdown).toContain('<LOCATION>');
    expect(doc.warning).toContain('offline');
    const masked = await e2e.fc.scrape(url(), { formats: ['markdown'], redactPII: { mode: 'fast', entities: ['EMAIL'], replaceStyle: 'mask' }, maxAge: 0 });
    expect(masked.markdown).toContain('*'.repeat('maria.gonzalez@example.com'.length));
    expect(masked.markdown).toContain('AKIAIOSFODNN7EXAMPLE');
    const removed = await e2e.fc.scrape(url(), { formats: ['markdown'], redactPII: { mode: 'fast', entities: ['EMAIL'], replaceStyle: 'remove' }, maxAge: 0 });
    expect(removed.markdown).toContain('Write to Maria Gonzalez at  or call');
  });

  it("reads phone numbers without a country code as dialled in the request's location", async () => {
    const de = await e2e.fc.scrape(`${e2e.site.url}/model/pii-de`, { formats: ['markdown'], redactPII: { mode: 'fast' }, location: { country: 'DE' }, maxAge: 0 });
    expect(de.markdown).toContain('Rufen Sie uns an: <PHONE> oder <PHONE>.');
    const us = await e2e.fc.scrape(`${e2e.site.url}/model/pii-de`, { formats: ['markdown'], redactPII: { mode: 'fast' }, maxAge: 0 });
    expect(us.markdown).toContain('030 901820');
  });

  it('redacts the json answer too', async () => {
    const schema = { type: 'object', properties: { description: { type: 'string' } } };
    const doc = await e2e.fc.scrape(`${e2e.site.url}/model/pii`, { formats: [{ type: 'json', schema }], redactPII: { mode: 'fast' }, maxAge: 0 });
    expect(JSON.stringify(doc.json ?? {})).not.toContain('@example.com');
  });
});

describe('onlyCleanContent and checkPromptInjection', () => {
  it('removes leftover boilerplate by rule, with a warning', async () => {
    const plain = await e2e.fc.scrape(`${e2e.site.url}/article`, { formats: ['markdown'], onlyMainContent: false, maxAge: 0 });
    const clean = await e2e.fc.scrape(`${e2e.site.url}/article`, { formats: ['markdown'], onlyMainContent: false, onlyCleanContent: true, maxAge: 0 } as never);
    expect(plain.markdown).toMatch(/all rights reserved/i);
    expect(clean.markdown).not.toMatch(/all rights reserved/i);
    expect(clean.markdown).toContain('Sourdough rewards patience');
    expect(clean.warning).toContain('onlyCleanContent');
  });

  it('is not served a cached page scraped without it', async () => {
    const url = `${e2e.site.url}/article?cached-clean`;
    const plain = await e2e.fc.scrape(url, { formats: ['markdown'], onlyMainContent: false });
    const clean = await e2e.fc.scrape(url, { formats: ['markdown'], onlyMainContent: false, onlyCleanContent: true } as never);
    expect(plain.markdown).toMatch(/all rights reserved/i);
    expect(clean.markdown).not.toMatch(/all rights reserved/i);
  });

  it('refuses a page that tries prompt injection with 403', async () => {
    const schema = { type: 'object', properties: { title: { type: 'string' } } };
    const e = await sdkError(e2e.fc.scrape(`${e2e.site.url}/model/injection`, { formats: [{ type: 'json', schema, checkPromptInjection: true }], maxAge: 0 }));
    expect(e.status).toBe(403);
    expect(e.code).toBe('SCRAPE_PROMPT_INJECTION_DETECTED');
    const fine = await e2e.fc.scrape(`${e2e.site.url}/model/product`, { formats: [{ type: 'json', schema, checkPromptInjection: true }], maxAge: 0 });
    expect(fine.json).toEqual({ title: 'Trail Runner 2' });
  });
});

describe('the formats table', () => {
  it('is what the OpenAPI document shows: each format with its needs', async () => {
    const doc = JSON.stringify(await (await fetch(`${e2e.gleaner.url}/v2/openapi.json`)).json());
    expect(doc).toContain('Needs: html, markdown, model (optional).');
    expect(doc).toContain('(not supported yet by this server)');
  });
});

describe('what needs a model', () => {
  it('refuses changeTracking json mode, naming the missing setting', async () => {
    const e = await sdkError(e2e.fc.scrape(`${e2e.site.url}/article`, { formats: ['markdown', { type: 'changeTracking', modes: ['json'] }] }));
    expect(e.status).toBe(400);
    expect(e.code).toBe('MODEL_NOT_CONFIGURED');
    expect(e.message).toContain('MODEL_BASE_URL');
  });

  it('refuses a monitor goal to judge, naming the missing setting; a goal without judging is kept', async () => {
    const target = { type: 'scrape' as const, urls: [`${e2e.site.url}/article`] };
    const e = await sdkError(e2e.fc.createMonitor({ name: 'judged', schedule: { cron: '0 * * * *' }, goal: 'price drops', targets: [target] }));
    expect(e.status).toBe(400);
    expect(e.code).toBe('MODEL_NOT_CONFIGURED');
    expect(e.message).toContain('MODEL_BASE_URL');
    const kept = await e2e.fc.createMonitor({ name: 'kept', schedule: { cron: '0 * * * *' }, goal: 'price drops', judgeEnabled: false, targets: [target] });
    expect(kept.goal).toBe('price drops');
  });

  it('refuses a crawl prompt, its preview and an interact prompt, naming the missing setting', async () => {
    const crawl = await sdkError(e2e.fc.startCrawl(`${e2e.site.url}/crawl`, { prompt: 'only the blog' }));
    expect(crawl.status).toBe(400);
    expect(crawl.code).toBe('MODEL_NOT_CONFIGURED');
    const preview = await sdkError(e2e.fc.crawlParamsPreview(`${e2e.site.url}/crawl`, 'only the blog'));
    expect(preview.status).toBe(400);
    expect(preview.message).toContain('MODEL_BASE_URL');
    const interact = await sdkError(e2e.fc.interact('00000000-0000-4000-8000-000000000000', { prompt: 'click the first link' }));
    expect(interact.status).toBe(400);
    expect(interact.message).toContain('MODEL_BASE_URL');
  });

  it('refuses a crawl, batch or monitor whose pages would need a model, before accepting it', async () => {
    const jsonByPrompt = { type: 'json' as const, prompt: 'the product name' };
    const crawl = await sdkError(e2e.fc.startCrawl(`${e2e.site.url}/crawl`, { scrapeOptions: { formats: [jsonByPrompt] } }));
    expect(crawl.status).toBe(400);
    expect(crawl.code).toBe('MODEL_NOT_CONFIGURED');
    expect((crawl.details as Array<{ path: unknown }>)[0]!.path).toBe('scrapeOptions.formats.0.prompt');
    const batch = await sdkError(e2e.fc.startBatchScrape([`${e2e.site.url}/article`], { options: { formats: [jsonByPrompt] } }));
    expect(batch.status).toBe(400);
    expect(batch.code).toBe('MODEL_NOT_CONFIGURED');
    const monitor = await sdkError(
      e2e.fc.createMonitor({ name: 'json', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: [`${e2e.site.url}/article`], scrapeOptions: { formats: [jsonByPrompt] } }] }),
    );
    expect(monitor.status).toBe(400);
    expect(monitor.code).toBe('MODEL_NOT_CONFIGURED');
    expect((monitor.details as Array<{ path: unknown }>)[0]!.path).toBe('targets.0.scrapeOptions.formats.0.prompt');
  });
});
