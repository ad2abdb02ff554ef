/**
 * SSRF guard. Outbound requests may only reach public unicast addresses, unless the operator
 * lets named CIDR ranges through (`ALLOW_PRIVATE_ADDRESSES`). Checked three times: on the URL
 * (IP literals and every resolved address), in the connector's DNS lookup, and on the socket's
 * actual peer address, so DNS rebinding between check and connect gains nothing.
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../errors.js';
import type { UrlGuard } from '../scrape/types.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

export class AddressPolicy {
  private readonly allowed: Range[];

  constructor(allowedCidrs: string[] = []) {
    this.allowed = allowedCidrs.map((cidr) => {
      try {
        return ipaddr.parseCIDR(cidr.includes('/') ? cidr : `${cidr}/${cidr.includes(':') ? 128 : 32}`);
      } catch {
        throw new Error(`ALLOW_PRIVATE_ADDRESSES: "${cidr}" is not a CIDR range`);
      }
    });
  }

  /** True when the address is public unicast, or inside an operator-allowed range. */
  isAllowed(ip: string): boolean {
    if (!ipaddr.isValid(ip)) return false;
    // process() turns ::ffff:a.b.c.d into the IPv4 address, so mapped forms cannot sneak past.
    const addr = ipaddr.process(ip);
    for (const [net, bits] of this.allowed) {
      if (net.kind() === addr.kind() && addr.match(net, bits)) return true;
    }
    return addr.range() === 'unicast';
  }
}

const blocked = (url: string, ip?: string) =>
  new ApiError('URL_BLOCKED', {
    details: { url, ...(ip ? { address: ip } : {}) },
  });

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

export class SsrfGuard implements UrlGuard {
  constructor(readonly policy: AddressPolicy) {}

  async checkUrl(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ApiError('INVALID_URL', { details: { url } });
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ApiError('URL_BLOCKED', { message: `Scheme ${parsed.protocol} is not allowed`, details: { url } });
    }
    const host = stripBrackets(parsed.hostname);
    if (net.isIP(host)) {
      if (!this.policy.isAllowed(host)) throw blocked(url, host);
      return;
    }
    let addresses: dns.LookupAddress[];
    try {
      addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
    } catch (e) {
      throw new ApiError('SCRAPE_DNS_RESOLUTION_ERROR', { message: `DNS resolution failed for ${host}`, cause: e });
    }
    for (const a of addresses) if (!this.policy.isAllowed(a.address)) throw blocked(url, a.address);
  }

  checkAddress(ip: string, url: string): void {
    if (!this.policy.isAllowed(ip)) throw blocked(url, ip);
  }

  /** A `dns.lookup`-compatible function that refuses names resolving to disallowed addresses. */
  readonly lookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: any[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses: dns.LookupAddress[]) => {
      if (err) return callback(err);
      const bad = addresses.find((a) => !this.policy.isAllowed(a.address));
      if (bad) return callback(blocked(`//${hostname}`, bad.address));
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      callback(null, first.address, first.family);
    });
  }) as unknown as typeof dns.lookup;
}
