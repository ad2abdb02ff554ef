import { describe, expect, it } from 'vitest';
import { catalog } from '../errors.js';
import { effectiveMaxAge, pendingFeatures, scrapeRequestSchema } from './options.js';
import { proxyAttempts } from './proxy.js';

describe('scrape options', () => {
  it('fills the documented defaults', () => {
    const o = scrapeRequestSchema.parse({ url: 'https://example.com' });
    expect(o).toMatchObject({
      formats: [{ type: 'markdown' }],
      onlyMainContent: true,
      timeout: 60000,
      waitFor: 0,
      mobile: false,
      skipTlsVerification: true,
      removeBase64Images: true,
      blockAds: true,
      proxy: 'auto',
      storeInCache: true,
      lockdown: false,
    });
    expect(effectiveMaxAge(o)).toBe(172800000);
  });

  it('lets lockdown accept two years of cache, unless the caller gives its own maxAge', () => {
    expect(effectiveMaxAge(scrapeRequestSchema.parse({ url: 'x', lockdown: true }))).toBe(2 * 365 * 24 * 3600 * 1000);
    expect(effectiveMaxAge(scrapeRequestSchema.parse({ url: 'x', lockdown: true, maxAge: 60_000 }))).toBe(60_000);
    expect(effectiveMaxAge(scrapeRequestSchema.parse({ url: 'x', lockdown: true, maxAge: 0 }))).toBe(0);
  });

  it('accepts bare and object formats, and the stealth alias', () => {
    const o = scrapeRequestSchema.parse({ url: 'x', formats: ['links', { type: 'screenshot', quality: 50 }], proxy: 'stealth' });
    expect(o.formats).toEqual([{ type: 'links' }, { type: 'screenshot', fullPage: false, quality: 50 }]);
    expect(o.proxy).toBe('enhanced');
  });

  it('keeps unknown keys instead of refusing them', () => {
    expect(scrapeRequestSchema.parse({ url: 'x', origin: 'js-sdk@4', somethingNew: true })).toMatchObject({ somethingNew: true });
  });

  it('enforces bounds', () => {
    for (const bad of [{ timeout: 999 }, { timeout: 300001 }, { waitFor: 60001 }, { maxAge: -1 }, { minAge: 0 }, { location: { country: 'USA' } }, { formats: [{ type: 'screenshot', quality: 101 }] }, { formats: [{ type: 'screenshot', viewport: { width: 8000, height: 10 } }] }]) {
      expect(scrapeRequestSchema.safeParse({ url: 'x', ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('says which field of a redactPII object is wrong', () => {
    const problem = (redactPII: unknown) => {
      const r = scrapeRequestSchema.safeParse({ url: 'x', redactPII });
      return r.success ? undefined : r.error.issues.map((i) => [i.path.join('.'), i.message]);
    };
    expect(problem({ mode: 'careful' })).toEqual([['redactPII', expect.stringMatching(/^mode: .*"fast"/)]]);
    expect(problem({ entities: ['EMAIL', 'SHOE_SIZE'] })).toEqual([['redactPII', expect.stringMatching(/^entities\.1: .*"PERSON"/)]]);
    expect(problem('yes')).toEqual([['redactPII', 'Expected true, false or an object of mode, entities and replaceStyle']]);
    expect(problem({ mode: 'fast', replaceStyle: 'mask' })).toBeUndefined();
  });

  it('lists pending features by path', () => {
    const o = scrapeRequestSchema.parse({ url: 'x', formats: ['markdown', { type: 'json', prompt: 'p' }, 'audio'], redactPII: true, domainTools: true });
    expect(pendingFeatures(o).map((p) => p.path)).toEqual(['domainTools', 'formats.2']);
  });
});

describe('proxy attempts', () => {
  const proxies = { basic: 'http://b', enhanced: 'http://e', countries: { DE: 'socks5://de' } };
  it('orders auto as basic then enhanced, and prefers a country proxy for basic', () => {
    expect(proxyAttempts(proxies, 'auto', undefined)).toEqual([{ tier: 'basic', url: 'http://b' }, { tier: 'enhanced', url: 'http://e' }]);
    expect(proxyAttempts(proxies, 'basic', 'DE')).toEqual([{ tier: 'basic', url: 'socks5://de', country: 'DE' }]);
  });
  it('goes direct when nothing is configured', () => {
    expect(proxyAttempts({ countries: {} }, 'enhanced', undefined)).toEqual([{ tier: 'basic', url: undefined }]);
  });
});

describe('error catalog', () => {
  it('gives every row a status, a message and a retry rule', () => {
    for (const [key, row] of Object.entries(catalog)) {
      expect(row.status, key).toBeGreaterThanOrEqual(400);
      expect(row.error.length, key).toBeGreaterThan(0);
      expect(typeof row.retryable, key).toBe('boolean');
    }
    expect(catalog.UNAUTHORIZED).toMatchObject({ status: 401, error: 'Unauthorized: Invalid token' });
    expect(catalog.SCRAPE_TIMEOUT).toMatchObject({ status: 408, code: 'SCRAPE_TIMEOUT', retryable: true });
  });
});
