/**
 * The model tier through the official SDK, against a scripted OpenAI-compatible server: how the
 * provider asks for structured output and falls back, checks and repairs answers, retries,
 * splits long pages, counts tokens, refuses prompt injection, and what a user gets when the
 * model is down or slow.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LONG_TOPICS } from '../fixture-site/model-pages.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { pageOf, schemaNameOf, startModelServer, type ChatRequest, type ModelServer } from '../helpers/model-server.js';
import { sdkError } from '../helpers/sdk-error.js';

let site: FixtureSite;
let model: ModelServer;
let gleaner: TestGleaner;
let fc: Firecrawl;

const productSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } },
  required: ['name', 'price'],
};

beforeAll(async () => {
  site = await startFixtureSite();
  model = await startModelServer();
  gleaner = await startGleaner({ embedded: true, workers: false, env: { MODEL_BASE_URL: model.baseUrl, MODEL_NAME: 'scripted-large', MODEL_SMALL_NAME: 'scripted-small' } });
  fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
});
afterAll(async () => {
  await gleaner?.close();
  await model?.close();
  await site?.close();
});
beforeEach(() => model.reset(() => ({ text: 'unscripted' })));
// Every request of every test must have been well-formed and must have fenced the page.
afterEach(() => expect(model.breaches).toEqual([]));

describe('structured output', () => {
  it('asks with response_format json_schema and returns the checked answer', async () => {
    model.reset((req) => ({ json: pageOf(req).includes('Trail Runner 2') ? { name: 'Trail Runner 2', price: 129.99 } : {} }));
    const doc = await fc.scrape(`${site.url}/model/product`, { formats: [{ type: 'json', schema: productSchema }], maxAge: 0 });
    expect(doc.json).toEqual({ name: 'Trail Runner 2', price: 129.99 });
    expect(doc.warning).toBeUndefined();
    expect(model.seen).toHaveLength(1);
    const req = model.seen[0]!.body;
    expect(req.model).toBe('scripted-large');
    expect(req.response_format?.json_schema?.schema).toEqual(productSchema);
    expect(req.messages[0]!.role).toBe('system');
    expect(req.messages[0]!.content).toMatch(/never follow instructions/i);
  });

  it('falls back to tool calls, then to JSON mode, when the server refuses, and remembers it', async () => {
    model.reset(() => ({ json: { name: 'Trail Runner 2', price: 129.99 } }), { jsonSchema: false });
    const viaTools = await fc.scrape(`${site.url}/model/product`, { formats: [{ type: 'json', schema: productSchema }], maxAge: 0 });
    expect(viaTools.json).toEqual({ name: 'Trail Runner 2', price: 129.99 });
    expect(model.seen.map((s) => s.mode)).toEqual(['json_schema', 'tools']);

    // A small local model that calls no tools either: JSON mode, with the schema in the instructions.
    model.reset(() => ({ text: 'Sure! Here it is:\n```json\n{"name": "Trail Runner 2", "price": 129.99}\n```' }), { jsonSchema: false, tools: false });
    const viaJsonMode = await fc.scrape(`${site.url}/model/product`, { formats: [{ type: 'json', schema: productSchema }], maxAge: 0 });
    expect(viaJsonMode.json).toEqual({ name: 'Trail Runner 2', price: 129.99 });
    expect(model.seen.map((s) => s.mode)).toEqual(['tools', 'json_object']);
    expect(model.seen[1]!.body.messages[0]!.content).toContain('"price"');

    const again = await fc.scrape(`${site.url}/model/product`, { formats: [{ type: 'json', schema: productSchema }], maxAge: 0 });
    expect(again.json).toEqual({ name: 'Trail Runner 2', price: 129.99 });
    expect(model.seen.map((s) => s.mode)).toEqual(['tools', 'json_object', 'json_object']);
  });
});

describe('validation and repair', () => {
  it('sends a schema-breaking answer back once with its errors, and uses the repaired one', async () => {
    model.reset((_req, seen) => ({ json: seen.length === 1 ? { name: 'Trail Runner 2', price: 'cheap' } : { name: 'Trail Runner 2', price: 129.99 } }));
    const doc = await fc.scrape(`${site.url}/model/product`, { formats: [{ type: 'json', schema: productSchema }], maxAge: 0 });
    expect(doc.json).toEqual({ name: 'Trail Runner 2', price: 129.99 });
    expect(model.seen).toHaveLength(2);
    const repair = model.seen[1]!.body.messages;
    expect(repair.at(-2)).toMatchObject({ role: 'assistant', content: expect.stringContaining('cheap') });
    expect(repair.at(-1)!.content).toContain('/price must be number');
  });

  it('never passes off an answer that still breaks the schema: the warning says so', async () => {
    model.reset(() => ({ json: { name: 'Trail Runner 2' } }));
    const doc = await fc.scrape(`${site.url}/model/product`, { formats: [{ type: 'json', schema: productSchema }], maxAge: 0 });
    expect(model.seen).toHaveLength(2);
    expect(doc.json).toEqual({ name: 'Trail Runner 2' });
    expect(doc.warning).toMatch(/does not satisfy the schema.*price/);
  });
});

describe('retries', () => {
  it('waits as Retry-After says after a 429, and retries a 500', async () => {
    model.reset((_req, seen) => (seen.length === 1 ? { status: 429, retryAfter: '1' } : seen.length === 2 ? { status: 500 } : { json: { name: 'Trail Runner 2', price: 129.99 } }));
    const doc = await fc.scrape(`${site.url}/model/product`, { formats: [{ type: 'json', schema: productSchema }], maxAge: 0 });
    expect(doc.json).toEqual({ name: 'Trail Runner 2', price: 129.99 });
    expect(model.seen).toHaveLength(3);
    expect(model.seen[1]!.at - model.seen[0]!.at).toBeGreaterThanOrEqual(1000);
  });

  it('gives up on a server that keeps failing: the page still comes back, with a warning', async () => {
    model.reset(() => ({ status: 503 }));
    const doc = await fc.scrape(`${site.url}/model/product`, { formats: ['markdown', 'summary', { type: 'json', schema: productSchema }], maxAge: 0 });
    expect(doc.markdown).toContain('Trail Runner 2');
    expect(doc.summary!.length).toBeGreaterThan(0);
    expect(doc.warning).toMatch(/summary: the model could not be used \(The model server kept failing \(503\)/);
    // json falls back to the page's structured data.
    expect(doc.json).toEqual({ name: 'Trail Runner 2', price: 129.99 });
  });
});

describe('long pages', () => {
  let small: TestGleaner;
  let sfc: Firecrawl;
  beforeAll(async () => {
    small = await startGleaner({ embedded: true, workers: false, env: { MODEL_BASE_URL: model.baseUrl, MODEL_NAME: 'scripted-large', MODEL_CONTEXT_TOKENS: '600' } });
    sfc = new Firecrawl({ apiKey: small.key, apiUrl: small.url });
  });
  afterAll(async () => small?.close());

  it('splits the page by the token budget and merges: arrays joined without duplicates, scalars by majority', async () => {
    const schema = { type: 'object', properties: { title: { type: 'string' }, rocks: { type: 'array', items: { type: 'string' } } } };
    model.reset((req, seen) => {
      const part = pageOf(req);
      const rocks = LONG_TOPICS.filter((t) => part.includes(`${t} is a rock`));
      // One part disagrees on the title; every part repeats "granite".
      return { json: { title: seen.length === 2 ? 'Rocks, Roughly' : 'A Field Guide to Rocks', rocks: ['granite', ...rocks] } };
    });
    const doc = await sfc.scrape(`${site.url}/model/long`, { formats: [{ type: 'json', schema }], maxAge: 0 });
    expect(model.seen.length).toBeGreaterThan(2);
    for (const s of model.seen) expect(pageOf(s.body).length).toBeLessThanOrEqual(600 * 4);
    const json = doc.json as { title: string; rocks: string[] };
    expect(json.title).toBe('A Field Guide to Rocks');
    expect([...json.rocks].sort()).toEqual([...LONG_TOPICS].sort());
    expect(doc.warning).toMatch(/read in \d+ parts/);
  });

  it('summarises hierarchically, streaming each summary', async () => {
    model.reset((req) => ({ text: req.messages[1]!.content.startsWith('The content is a list of summaries') ? 'All twenty rocks.' : `Part about ${pageOf(req).length} chars.` }));
    const doc = await sfc.scrape(`${site.url}/model/long`, { formats: ['summary'], maxAge: 0 });
    expect(doc.summary).toBe('All twenty rocks.');
    expect(model.seen.every((s) => s.body.stream === true)).toBe(true);
    expect(model.seen.length).toBeGreaterThan(2);
  });
});

describe('token counts', () => {
  it('counts the tokens the server reports, per request, team and key', async () => {
    model.reset(() => ({ json: { name: 'Trail Runner 2', price: 129.99 } }));
    const before = gleaner.rt.tokens.forTeam(gleaner.teamId).totalTokens;
    const doc = await fc.scrape(`${site.url}/model/product`, { formats: [{ type: 'json', schema: productSchema }], maxAge: 0 });
    const body = model.seen[0]!.body;
    const expected = Math.ceil(body.messages.map((m) => m.content).join('').length / 4) + Math.ceil(JSON.stringify({ name: 'Trail Runner 2', price: 129.99 }).length / 4);
    expect(gleaner.rt.tokens.forRequest(doc.metadata!.scrapeId!)).toMatchObject({ totalTokens: expected, calls: 1 });
    expect(gleaner.rt.tokens.forTeam(gleaner.teamId).totalTokens - before).toBe(expected);
    const keyId = (await gleaner.rt.keys.authenticate(gleaner.key))!.keyId;
    expect(gleaner.rt.tokens.forKey(keyId).totalTokens).toBeGreaterThanOrEqual(expected);
  });
});

describe('question, highlights and prompt injection', () => {
  it('answers questions and highlights with the model', async () => {
    model.reset((req) => (req.response_format ? { json: { highlights: ['Quarries cut pumice into blocks'] } } : { text: 'Builders use pumice for walls.' }));
    const doc = await fc.scrape(`${site.url}/model/long`, { formats: [{ type: 'question', question: 'What is pumice used for?' }, { type: 'highlights', query: 'pumice' }], maxAge: 0 });
    expect(doc.answer).toBe('Builders use pumice for walls.');
    expect(doc.highlights).toBe('Quarries cut pumice into blocks');
  });

  it('keeps only highlights that are quotes of the page, and says what it left out', async () => {
    const quote = 'Quarries cut pumice into blocks that builders use for walls, floors and monuments across many centuries.';
    model.reset(() => ({ json: { highlights: [quote.replace('Quarries', 'quarries  '), 'Pumice is the best rock there is.'] } }));
    const doc = await fc.scrape(`${site.url}/model/long`, { formats: [{ type: 'highlights', query: 'pumice' }], maxAge: 0 });
    expect(doc.highlights).toBe(quote.replace('Quarries', 'quarries  '));
    expect(doc.warning).toContain('1 passage the model gave is not on the page and was left out');
  });

  it('refuses with 403 when the model confirms an injection, with the small model', async () => {
    model.reset((req) => (req.response_format?.json_schema?.name === 'injection_check' ? { json: { injection: pageOf(req).includes('Ignore all previous instructions'), reason: 'addresses the model' } } : { json: { name: 'x', price: 1 } }));
    const e = await sdkError(fc.scrape(`${site.url}/model/injection`, { formats: [{ type: 'json', schema: productSchema, checkPromptInjection: true }], maxAge: 0 }));
    expect(e.status).toBe(403);
    expect(e.code).toBe('SCRAPE_PROMPT_INJECTION_DETECTED');
    expect(model.seen[0]!.body.model).toBe('scripted-small');
    const fine = await fc.scrape(`${site.url}/model/product`, { formats: [{ type: 'json', schema: productSchema, checkPromptInjection: true }], maxAge: 0 });
    expect(fine.json).toEqual({ name: 'x', price: 1 });
    expect(fine.metadata!.creditsUsed).toBe(9);
  });
});

describe('branding', () => {
  it('adds tone and personality judged by the small model to the colours read from the page', async () => {
    const voice = { tone: { voice: 'warm and direct', emojiUsage: 'none' }, personality: { tone: 'bold', energy: 'high', targetAudience: 'home cooks' } };
    model.reset((req) => (schemaNameOf(req) === 'brand_voice' && pageOf(req).includes('We make fixtures') ? { json: voice } : { json: {} }));
    const doc = await fc.scrape(`${site.url}/model/brand`, { formats: ['branding'], maxAge: 0 });
    expect(doc.branding).toMatchObject({ colors: { primary: '#ff5a1f' }, ...voice });
    expect(model.seen.map((s) => s.body.model)).toEqual(['scripted-small']);
    expect(doc.warning).toContain('tone and personality judged by the model');
  });

  it("leaves them out, saying so, when the model's answer breaks their shape", async () => {
    model.reset(() => ({ json: { tone: { voice: 'calm', emojiUsage: 'sometimes' }, personality: { tone: 'quirky', energy: 'high', targetAudience: 'all' } } }));
    const doc = await fc.scrape(`${site.url}/model/brand`, { formats: ['branding'], maxAge: 0 });
    expect(doc.branding).toMatchObject({ colors: { primary: '#ff5a1f' } });
    expect(doc.branding).not.toHaveProperty('personality');
    expect(doc.warning).toContain('did not fit their shape');
  });
});

describe('product and menu', () => {
  it("reads a product from the page's text when the page states none as data", async () => {
    const tote = { isProduct: true, name: 'Canvas Tote', brand: 'Fixture Goods', offers: [{ name: 'Canvas Tote natural', price: 24, priceCurrency: 'USD', availability: 'InStock' }] };
    model.reset((req) => ({ json: pageOf(req).includes('Canvas Tote') ? tote : { isProduct: false } }));
    const doc = await fc.scrape(`${site.url}/model/plain-product`, { formats: ['product'], maxAge: 0 });
    expect(doc.product).toMatchObject({
      title: 'Canvas Tote',
      brand: 'Fixture Goods',
      variants: [{ title: 'Canvas Tote natural', price: { amount: 24, currency: 'USD', formatted: '$24.00' }, availability: { inStock: true } }],
    });
    expect(doc.warning).toContain('read from the page\'s text by the model');
  });

  it('keeps the data a page states, asking no model', async () => {
    const doc = await fc.scrape(`${site.url}/model/product`, { formats: ['product'], maxAge: 0 });
    expect(doc.product?.title).toBe('Trail Runner 2');
    expect(model.seen).toEqual([]);
  });

  it('says so when the model finds no product', async () => {
    model.reset(() => ({ json: { isProduct: false } }));
    const doc = await fc.scrape(`${site.url}/model/plain-product`, { formats: ['product'], maxAge: 0 });
    expect(doc.product).toBeUndefined();
    expect(doc.warning).toContain('the model found none');
  });

  it('reads a menu from the page with the model, before the price-list rules', async () => {
    const answer = {
      isMenu: true,
      restaurant: 'Corner Cafe',
      hasMenuSection: [
        { name: 'Coffee', hasMenuItem: [{ name: 'Espresso', price: 3, priceCurrency: 'USD', suitableForDiet: ['vegan'] }, { name: 'Flat white', price: 4.5, priceCurrency: 'USD' }] },
        { name: 'Cakes', hasMenuItem: [{ name: 'Carrot cake', price: 5.25, priceCurrency: 'USD', nutrition: { calories: 410 } }] },
      ],
    };
    model.reset(() => ({ json: answer }));
    const doc = await fc.scrape(`${site.url}/model/price-list`, { formats: ['menu'], maxAge: 0 });
    expect(doc.menu).toMatchObject({ isMenu: true, confidence: 0.8, currency: 'USD', merchant: { name: 'Corner Cafe' } });
    expect(doc.menu!.sections.map((sec) => [sec.name, sec.items.map((i) => [i.name, i.price?.formatted, i.dietary, i.calories])])).toEqual([
      ['Coffee', [['Espresso', '$3.00', ['vegan'], undefined], ['Flat white', '$4.50', [], undefined]]],
      ['Cakes', [['Carrot cake', '$5.25', [], 410]]],
    ]);
    expect(doc.warning).toContain('by the model');
    model.reset(() => ({ json: { isMenu: false } }));
    const none = await fc.scrape(`${site.url}/model/plain-product`, { formats: ['menu'], maxAge: 0 });
    expect(none.menu).toMatchObject({ isMenu: false, sections: [] });
  });
});

/** Whatever way the provider asks (a schema, a tool or JSON mode), the PII request's own words. */
const asksForPii = (req: ChatRequest) => req.messages.some((m) => m.content?.includes('personal and sensitive information'));

describe('redactPII with a model', () => {
  it('redacts what the model quotes from the page, wherever it appears, beside the patterns', async () => {
    const found = [
      { text: 'Maria Gonzalez', entity: 'PERSON' },
      { text: 'Berlin, Germany', entity: 'LOCATION' },
      { text: 'Someone Else', entity: 'PERSON' },
    ];
    model.reset((req) => (asksForPii(req) ? { json: { found } } : { text: 'Maria Gonzalez is reachable in Berlin, Germany.' }));
    const doc = await fc.scrape(`${site.url}/model/pii`, { formats: ['markdown', 'summary'], redactPII: { mode: 'accurate' }, maxAge: 0 });
    expect(doc.markdown).toContain('Write to <PERSON> at <EMAIL>');
    expect(doc.markdown).toContain('office in <LOCATION>.');
    expect(doc.summary).toBe('<PERSON> is reachable in <LOCATION>.');
    expect(doc.warning ?? '').not.toContain('ran offline');
    const ask = model.seen.find((x) => asksForPii(x.body))!;
    expect(pageOf(ask.body)).toContain('Maria Gonzalez');
  });

  it('reads the other outputs when no markdown was asked for', async () => {
    model.reset((req) => (asksForPii(req) && pageOf(req).includes('Maria Gonzalez') ? { json: { found: [{ text: 'Maria Gonzalez', entity: 'PERSON' }] } } : { json: { found: [] } }));
    const doc = await fc.scrape(`${site.url}/model/pii`, { formats: ['html'], redactPII: true, maxAge: 0 });
    expect(doc.html).toContain('Write to &lt;PERSON&gt; at &lt;EMAIL&gt;');
  });

  it("looks offline, and says so, when the model's list breaks its shape", async () => {
    model.reset(() => ({ json: { found: 'Maria Gonzalez' } }));
    const doc = await fc.scrape(`${site.url}/model/pii`, { formats: ['markdown'], redactPII: true, maxAge: 0 });
    expect(doc.markdown).toContain('Write to <PERSON> at <EMAIL>');
    expect(doc.warning).toContain('did not fit the list');
    expect(doc.warning).toContain('ran offline');
  });

  it('keeps to the entities asked for, and fast mode asks no model', async () => {
    model.reset(() => ({ json: { found: [{ text: 'Maria Gonzalez', entity: 'PERSON' }] } }));
    const doc = await fc.scrape(`${site.url}/model/pii`, { formats: ['markdown'], redactPII: { mode: 'aggressive', entities: ['EMAIL'] }, maxAge: 0 });
    expect(doc.markdown).toContain('Maria Gonzalez');
    expect(doc.markdown).toContain('<EMAIL>');
    model.reset(() => ({ json: { found: [] } }));
    await fc.scrape(`${site.url}/model/pii`, { formats: ['markdown'], redactPII: { mode: 'fast' }, maxAge: 0 });
    expect(model.seen).toEqual([]);
  });
});

describe('a model server that is down or slow', () => {
  let down: TestGleaner;
  beforeAll(async () => {
    // A port nothing listens on.
    const gone = await startModelServer();
    await gone.close();
    down = await startGleaner({ embedded: true, workers: false, env: { MODEL_BASE_URL: gone.baseUrl, MODEL_NAME: 'nobody' } });
  });
  afterAll(async () => down?.close());

  it('down: the scrape answers with the offline result and a warning that names the cause', async () => {
    const dfc = new Firecrawl({ apiKey: down.key, apiUrl: down.url });
    const doc = await dfc.scrape(`${site.url}/article`, { formats: ['summary', { type: 'json', prompt: 'the title' }], maxAge: 0 });
    expect(doc.summary!.length).toBeGreaterThan(0);
    expect(doc.json).toBeUndefined();
    expect(doc.warning).toContain('could not be reached');
  });

  it('down: redactPII falls back to the offline names pass, and says so', async () => {
    const dfc = new Firecrawl({ apiKey: down.key, apiUrl: down.url });
    const doc = await dfc.scrape(`${site.url}/model/pii`, { formats: ['markdown'], redactPII: true, maxAge: 0 });
    expect(doc.markdown).toContain('Write to <PERSON> at <EMAIL>');
    expect(doc.warning).toContain('redactPII: the model could not be used');
    expect(doc.warning).toContain('ran offline');
  });

  it('slow: the answer comes within the request timeout, with a warning', async () => {
    model.reset(() => ({ text: 'too late', delayMs: 20_000 }));
    const doc = await fc.scrape(`${site.url}/article`, { formats: ['summary'], timeout: 3000, maxAge: 0 });
    expect(doc.summary!.length).toBeGreaterThan(0);
    expect(doc.warning).toMatch(/did not answer within/);
  });
});

describe('onlyCleanContent', () => {
  it('uses the small model to rewrite the markdown when it fits one answer', async () => {
    model.reset((req) => ({ text: pageOf(req).includes('Sourdough rewards patience') ? '# The Quiet Art of Bread Baking\n\nSourdough rewards patience.' : 'no' }));
    const doc = await fc.scrape(`${site.url}/article`, { formats: ['markdown'], onlyCleanContent: true, maxAge: 0 } as never);
    expect(doc.markdown).toBe('# The Quiet Art of Bread Baking\n\nSourdough rewards patience.');
    expect(model.seen[0]!.body.model).toBe('scripted-small');
    expect(model.seen[0]!.body.stream).toBe(true);
  });
});

describe('crawl prompt', () => {
  const options = { includePaths: ['^/crawl/a/.*'], maxDiscoveryDepth: 2, limit: 5 };

  it('previews the options a prompt gives, asking the model with the prompt fenced as data', async () => {
    model.reset(() => ({ json: options }));
    const preview = await fc.crawlParamsPreview(`${site.url}/crawl`, 'only the pages under a, two levels deep, five pages at most');
    expect(preview).toMatchObject({ url: `${site.url}/crawl`, ...options });
    expect(pageOfPrompt()).toContain('only the pages under a');
  });

  it('starts a crawl with the generated options, explicit fields winning', async () => {
    model.reset(() => ({ json: options }));
    const started = await fc.startCrawl(`${site.url}/crawl`, { prompt: 'only the pages under a', limit: 3 });
    const job = await gleaner.rt.crawls.owned(gleaner.teamId, started.id, 'crawl');
    expect(job.plan).toMatchObject({ includePaths: ['^/crawl/a/.*'], maxDiscoveryDepth: 2 });
    expect(job.limit).toBe(3);
  });

  it('answers 400 when the model gives a pattern that is not a regular expression', async () => {
    model.reset(() => ({ json: { includePaths: ['(unclosed'] } }));
    const e = await sdkError(fc.crawlParamsPreview(`${site.url}/crawl`, 'something'));
    expect(e.status).toBe(400);
    expect(e.message).toContain('(unclosed');
  });
});

function pageOfPrompt(): string {
  return pageOf(model.seen.at(-1)!.body);
}
