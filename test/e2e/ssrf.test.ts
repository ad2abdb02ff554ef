/**
 * The SSRF guard with its default policy: private, loopback, link-local and metadata addresses
 * are refused, whether named directly, reached by redirect, or hidden behind a host name.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';

let site: FixtureSite;
let strict: TestGleaner; // nothing private allowed
let narrow: TestGleaner; // only 127.0.0.1 allowed, so the fixture can serve redirects
let fcStrict: Firecrawl;
let fcNarrow: Firecrawl;

beforeAll(async () => {
  site = await startFixtureSite();
  strict = await startGleaner({ embedded: true, env: { ALLOW_PRIVATE_ADDRESSES: '' } });
  narrow = await startGleaner({ embedded: true, env: { ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32' } });
  fcStrict = new Firecrawl({ apiKey: strict.key, apiUrl: strict.url });
  fcNarrow = new Firecrawl({ apiKey: narrow.key, apiUrl: narrow.url });
});
afterAll(async () => {
  await strict?.close();
  await narrow?.close();
  await site?.close();
});

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e as { status?: number; code?: string };
  }
  throw new Error('expected the scrape to be refused');
};

describe('with no private ranges allowed', () => {
  const targets = () => [
    `http://127.0.0.1:${site.port}/article`,
    `http://localhost:${site.port}/article`,
    `http://[::1]:${site.port}/article`,
    `http://[::ffff:127.0.0.1]:${site.port}/article`,
    'http://10.0.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/',
  ];

  it('refuses every private, loopback and metadata target with 403 URL_BLOCKED', async () => {
    for (const url of targets()) {
      const err = await refusal(fcStrict.scrape(url, { maxAge: 0 }));
      expect(err.status, url).toBe(403);
      expect(err.code, url).toBe('URL_BLOCKED');
    }
    expect(site.hits.get('/article') ?? 0).toBe(0);
  });

  it('refuses them in the browser engine too', async () => {
    const err = await refusal(fcStrict.scrape(`http://127.0.0.1:${site.port}/tall`, { formats: ['screenshot'], maxAge: 0 }));
    expect(err.status).toBe(403);
    expect(site.hits.get('/tall') ?? 0).toBe(0);
  });
});

describe('redirects into private space', () => {
  it('refuses a redirect from an allowed host to a private, other-loopback or metadata address', async () => {
    for (const target of ['http://10.0.0.1/', `http://127.0.0.2:${site.port}/article`, 'http://169.254.169.254/latest/meta-data/']) {
      const err = await refusal(fcNarrow.scrape(`${site.url}/redirect-to?url=${encodeURIComponent(target)}`, { maxAge: 0 }));
      expect(err.status, target).toBe(403);
      expect(err.code, target).toBe('URL_BLOCKED');
    }
  });

  it('still lets the allowed range through', async () => {
    const doc = await fcNarrow.scrape(`${site.url}/article`, { maxAge: 0 });
    expect(doc.metadata?.statusCode).toBe(200);
  });
});
