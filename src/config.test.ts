import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3002, host: '127.0.0.1', databaseUrl: undefined, redisUrl: undefined, allowPrivateRanges: [] });
    expect(c.dataDir.endsWith('data')).toBe(true);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('parses lists, numbers and per-country proxies', () => {
    const c = loadConfig({ PORT: '8080', ALLOW_PRIVATE_ADDRESSES: '127.0.0.0/8, ::1/128', PROXY_COUNTRIES: 'de=socks5://p:1080,FR=http://q:3128' });
    expect(c.port).toBe(8080);
    expect(c.allowPrivateRanges).toEqual(['127.0.0.0/8', '::1/128']);
    expect(c.proxies.countries).toEqual({ DE: 'socks5://p:1080', FR: 'http://q:3128' });
  });

  it('names every bad setting at once', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url' });
      throw new Error('expected ConfigError');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).issues.join('\n')).toMatch(/PORT[\s\S]*DATABASE_URL/);
    }
  });
});
