import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../errors.js';
import type { FetchRequest } from '../../types.js';
import { COUNTRIES } from './countries.js';
import { acceptLanguage, contextOptions, languagesOf, planEmulation } from './emulation.js';
import { playwright } from './playwright.js';
import { permissive } from './testing/site.js';

// Contexts are made for a running browser, which has loaded Playwright; these tests have none.
beforeAll(() => playwright());

const req = (over: Partial<FetchRequest> = {}): FetchRequest => ({
  url: 'https://example.com/',
  headers: {},
  timeoutMs: 10_000,
  skipTlsVerification: false,
  mobile: false,
  waitForMs: 0,
  guard: permissive,
  ...over,
});

describe('the country table', () => {
  it('names real time zones, canonical locales and coordinates on the globe', () => {
    for (const [country, p] of Object.entries(COUNTRIES)) {
      expect(country).toMatch(/^[A-Z]{2}$/);
      expect(() => new Intl.DateTimeFormat('en', { timeZone: p.timezone })).not.toThrow();
      expect(Intl.getCanonicalLocales(p.locale)).toEqual([p.locale]);
      expect(Math.abs(p.lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(p.lon)).toBeLessThanOrEqual(180);
    }
  });
});

describe('planEmulation', () => {
  it('takes time zone, locale and geolocation from the country', () => {
    const em = planEmulation(req({ location: { country: ' de ' } }));
    expect(em).toMatchObject({ timezoneId: 'Europe/Berlin', locale: 'de-DE', geolocation: { latitude: 52.52, longitude: 13.405, accuracy: 100 } });
  });

  it('prefers the first valid language over the country locale', () => {
    expect(planEmulation(req({ location: { country: 'DE', languages: ['en_US', ' fr-CA ', 'en'] } })).locale).toBe('fr-CA');
    expect(languagesOf({ languages: ['*', 'de', 'x-toolongsubtag1'] })).toEqual(['de']);
  });

  it('leaves place and language alone for unknown or absent countries', () => {
    expect(planEmulation(req({ location: { country: 'ZZ' } }))).toMatchObject({ timezoneId: undefined, locale: undefined, geolocation: undefined });
    expect(planEmulation(req())).toMatchObject({ timezoneId: undefined, locale: undefined, userAgent: undefined, upstream: undefined });
  });

  it('reads the user agent from the headers, whatever their case', () => {
    expect(planEmulation(req({ headers: { 'USER-AGENT': 'Bot/1' } })).userAgent).toBe('Bot/1');
    expect(planEmulation(req({ headers: { 'user-agent': '' } })).userAgent).toBeUndefined();
  });

  it('keys contexts by everything a context is created with', () => {
    const base = planEmulation(req()).key;
    expect(planEmulation(req()).key).toBe(base);
    expect(planEmulation(req({ headers: { 'x-other': '1' } })).key).toBe(base);
    const variants = [
      req({ mobile: true }),
      req({ skipTlsVerification: true }),
      req({ headers: { 'user-agent': 'Bot/1' } }),
      req({ location: { country: 'FR' } }),
      req({ location: { languages: ['fr'] } }),
      req({ proxyUrl: 'http://proxy.test:8080' }),
    ];
    const keys = new Set(variants.map((r) => planEmulation(r).key));
    expect(keys.size).toBe(variants.length);
    expect(keys.has(base)).toBe(false);
  });

  it('refuses proxy URLs the browser engine cannot chain to', () => {
    expect(() => planEmulation(req({ proxyUrl: 'not a url' }))).toThrow(ApiError);
    expect(() => planEmulation(req({ proxyUrl: 'ftp://proxy.test' }))).toThrow(/ftp: is not supported/);
    expect(planEmulation(req({ proxyUrl: 'socks5h://proxy.test' })).upstream?.href).toBe('socks5h://proxy.test');
  });
});

describe('acceptLanguage', () => {
  it('lists the languages in the caller’s order with falling weights', () => {
    expect(acceptLanguage([])).toBeUndefined();
    expect(acceptLanguage(['de-DE', 'en'])).toBe('de-DE,en;q=0.9');
    const many = acceptLanguage(Array.from({ length: 12 }, (_, i) => `l${i}`)) ?? '';
    expect(many.split(',').at(-1)).toBe('l11;q=0.1');
  });
});

describe('contextOptions', () => {
  const version = '131.0.6778.204';

  it('presents a desktop Chrome of the running version, not a headless one', () => {
    const opts = contextOptions(planEmulation(req()), 'http://127.0.0.1:1', version);
    expect(opts.viewport).toEqual({ width: 1920, height: 1080 });
    expect(opts.userAgent).toContain('Chrome/131.0.0.0');
    expect(opts.userAgent).not.toContain('Headless');
    expect(opts).toMatchObject({ proxy: { server: 'http://127.0.0.1:1' }, serviceWorkers: 'block', acceptDownloads: true, ignoreHTTPSErrors: false });
    expect(opts.isMobile).toBeUndefined();
  });

  it('emulates a Pixel 7 that claims the running Chrome version', () => {
    const opts = contextOptions(planEmulation(req({ mobile: true })), 'http://127.0.0.1:1', version);
    expect(opts).toMatchObject({ isMobile: true, hasTouch: true, viewport: { width: 412 } });
    expect(opts.userAgent).toMatch(/Android.*Chrome\/131\.0\.0\.0 Mobile/);
  });

  it('keeps the caller’s user agent and grants geolocation only with a place', () => {
    const opts = contextOptions(planEmulation(req({ mobile: true, headers: { 'user-agent': 'Bot/1' }, location: { country: 'JP' } })), 'http://x', version);
    expect(opts).toMatchObject({ userAgent: 'Bot/1', locale: 'ja-JP', timezoneId: 'Asia/Tokyo', permissions: ['geolocation'] });
    expect(contextOptions(planEmulation(req()), 'http://x', version).permissions).toBeUndefined();
  });
});
