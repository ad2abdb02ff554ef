import { describe, expect, it } from 'vitest';
import { AddressPolicy, SsrfGuard } from './ssrf.js';

describe('address policy', () => {
  const strict = new AddressPolicy();

  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '224.0.0.1', '255.255.255.255'])(
    'refuses %s by default',
    (ip) => expect(strict.isAllowed(ip)).toBe(false),
  );

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('allows public %s', (ip) => expect(strict.isAllowed(ip)).toBe(true));

  it('lets operator ranges through, and only those', () => {
    const p = new AddressPolicy(['127.0.0.0/8', '10.0.0.5']);
    expect(p.isAllowed('127.0.0.2')).toBe(true);
    expect(p.isAllowed('::ffff:127.0.0.1')).toBe(true);
    expect(p.isAllowed('10.0.0.5')).toBe(true);
    expect(p.isAllowed('10.0.0.6')).toBe(false);
  });

  describe('IPv6 forms that carry an IPv4 address are judged by that address', () => {
    const embedding: Array<[string, string]> = [
      ['IPv4-compatible', '::127.0.0.1'],
      ['IPv4-compatible, hex', '::7f00:1'],
      ['IPv4-compatible, private', '::a00:1'],
      ['IPv4-mapped, hex', '::ffff:7f00:1'],
      ['IPv4-mapped, metadata', '::ffff:a9fe:a9fe'],
      ['IPv4-translated', '::ffff:0:7f00:1'],
      ['NAT64 well-known prefix', '64:ff9b::127.0.0.1'],
      ['NAT64 well-known prefix, hex', '64:ff9b::a9fe:a9fe'],
      ['NAT64 local-use prefix', '64:ff9b:1::a00:1'],
      ['6to4', '2002:7f00:1::1'],
      ['6to4, private', '2002:c0a8:1::1'],
      ['6to4, metadata', '2002:a9fe:a9fe::'],
    ];
    it.each(embedding)('refuses %s %s', (_form, ip) => expect(strict.isAllowed(ip)).toBe(false));

    it.each([
      ['IPv4-compatible', '::808:808'],
      ['NAT64 well-known prefix', '64:ff9b::808:808'],
      ['6to4', '2002:808:808::1'],
    ])('allows %s %s, which carries a public address', (_form, ip) => expect(strict.isAllowed(ip)).toBe(true));

    it('applies operator ranges to the carried address', () => {
      const p = new AddressPolicy(['127.0.0.0/8']);
      expect(p.isAllowed('::7f00:1')).toBe(true);
      expect(p.isAllowed('2002:7f00:1::1')).toBe(true);
      expect(p.isAllowed('2002:a00:1::1')).toBe(false);
    });

    it('refuses the bracketed URL forms without resolving', async () => {
      const guard = new SsrfGuard(new AddressPolicy());
      for (const url of ['http://[::127.0.0.1]/', 'http://[::ffff:127.0.0.1]:8080/', 'http://[64:ff9b::169.254.169.254]/', 'http://[2002:7f00:1::1]/']) {
        await expect(guard.checkUrl(url)).rejects.toMatchObject({ key: 'URL_BLOCKED' });
      }
    });
  });

  it('rejects malformed ranges at start-up', () => {
    expect(() => new AddressPolicy(['not-a-range'])).toThrow(/ALLOW_PRIVATE_ADDRESSES/);
  });
});

describe('URL guard', () => {
  const guard = new SsrfGuard(new AddressPolicy());

  it('refuses non-http schemes and private literals without resolving', async () => {
    await expect(guard.checkUrl('file:///etc/passwd')).rejects.toMatchObject({ key: 'URL_BLOCKED' });
    await expect(guard.checkUrl('http://[::1]/')).rejects.toMatchObject({ key: 'URL_BLOCKED' });
    await expect(guard.checkUrl('http://2130706433/')).rejects.toMatchObject({ key: 'URL_BLOCKED' }); // 127.0.0.1 as a number
  });

  it('refuses names that resolve to private addresses', async () => {
    await expect(guard.checkUrl('http://localhost/')).rejects.toMatchObject({ key: 'URL_BLOCKED' });
  });

  it('refuses them in the connector lookup too', async () => {
    const err = await new Promise<unknown>((resolve) => guard.lookup('localhost', {}, (e: unknown) => resolve(e)));
    expect(err).toMatchObject({ key: 'URL_BLOCKED' });
  });
});

describe('URL guard verdict reuse', () => {
  const counting = (answers: Record<string, string[]>) => {
    const calls: string[] = [];
    const resolve = (host: string) => {
      calls.push(host);
      const list = answers[host];
      return list ? Promise.resolve(list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))) : Promise.reject(new Error('ENOTFOUND'));
    };
    return { calls, resolve };
  };

  it('resolves a host that passed once per interval, not once per URL', async () => {
    const { calls, resolve } = counting({ 'site.example': ['93.184.216.34'] });
    const guard = new SsrfGuard(new AddressPolicy(), { resolve, passTtlMs: 60_000 });
    for (let i = 0; i < 5; i++) await guard.checkUrl(`https://site.example/page-${i}`);
    expect(calls).toEqual(['site.example']);
  });

  it('asks again once the interval is over', async () => {
    const { calls, resolve } = counting({ 'site.example': ['93.184.216.34'] });
    const guard = new SsrfGuard(new AddressPolicy(), { resolve, passTtlMs: 0 });
    await guard.checkUrl('https://site.example/a');
    await guard.checkUrl('https://site.example/b');
    expect(calls).toEqual(['site.example', 'site.example']);
  });

  it('never remembers a refusal or a failure', async () => {
    const answers: Record<string, string[]> = { 'inside.example': ['10.0.0.7'] };
    const { calls, resolve } = counting(answers);
    const guard = new SsrfGuard(new AddressPolicy(), { resolve, passTtlMs: 60_000 });
    await expect(guard.checkUrl('https://inside.example/')).rejects.toMatchObject({ key: 'URL_BLOCKED' });
    await expect(guard.checkUrl('https://inside.example/')).rejects.toMatchObject({ key: 'URL_BLOCKED' });
    await expect(guard.checkUrl('https://gone.example/')).rejects.toMatchObject({ key: 'SCRAPE_DNS_RESOLUTION_ERROR' });
    answers['gone.example'] = ['93.184.216.34'];
    await guard.checkUrl('https://gone.example/');
    expect(calls).toEqual(['inside.example', 'inside.example', 'gone.example', 'gone.example']);
  });

  it('keeps at most the configured number of hosts, dropping the oldest', async () => {
    const { calls, resolve } = counting({ 'a.example': ['93.184.216.34'], 'b.example': ['93.184.216.35'], 'c.example': ['93.184.216.36'] });
    const guard = new SsrfGuard(new AddressPolicy(), { resolve, passTtlMs: 60_000, maxHosts: 2 });
    for (const h of ['a', 'b', 'c', 'c', 'b', 'a']) await guard.checkUrl(`https://${h}.example/`);
    expect(calls).toEqual(['a.example', 'b.example', 'c.example', 'a.example']);
  });
});
