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
import { boundedMemo } from '../memo.js';
import type { UrlGuard } from '../core/url-guard.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

export class AddressPolicy {
  private readonly allowed: Range[];
  /**
   * Verdicts per address string: parsing an address and matching it against ranges costs
   * microseconds, a crawl asks per page, and the policy never changes, so neither do they.
   */
  private readonly verdictOf = boundedMemo((ip: string) => this.judge(ip));

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
    return this.verdictOf(ip);
  }

  private judge(ip: string): boolean {
    if (!ipaddr.isValid(ip)) return false;
    const addr = ipaddr.parse(ip);
    if (this.inAllowedRange(addr)) return true;
    // An IPv6 address that carries an IPv4 one reaches that host (through the kernel, a NAT64
    // gateway or a 6to4 relay): it is judged as that IPv4 address, so a private host cannot be
    // reached under a public-looking IPv6 spelling.
    const carried = addr.kind() === 'ipv6' ? embeddedIPv4(addr as ipaddr.IPv6) : undefined;
    if (carried) return this.inAllowedRange(carried) || carried.range() === 'unicast';
    return addr.range() === 'unicast';
  }

  private inAllowedRange(addr: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    for (const [net, bits] of this.allowed) {
      if (net.kind() === addr.kind() && addr.match(net, bits)) return true;
    }
    return false;
  }
}

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/**
 * The IPv4 address an IPv6 one stands for, where it has one: IPv4-mapped (::ffff:0:0/96),
 * IPv4-compatible (::/96, deprecated but still routed by some stacks), IPv4-translated
 * (::ffff:0:0:0/96), NAT64's well-known prefix (64:ff9b::/96) and 6to4 (2002::/16). Other
 * special ranges (Teredo, NAT64 local-use prefixes) are never unicast, so already refused.
 */
export function embeddedIPv4(a: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = a.parts;
  const zeroUpTo = (n: number) => p.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(5) && p[5] === 0xffff) return v4(p[6]!, p[7]!);
  if (zeroUpTo(6)) return v4(p[6]!, p[7]!);
  if (zeroUpTo(4) && p[4] === 0xffff && p[5] === 0) return v4(p[6]!, p[7]!);
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) return v4(p[6]!, p[7]!);
  if (p[0] === 0x2002) return v4(p[1]!, p[2]!);
  return undefined;
}

const blocked = (url: string, ip?: string) =>
  new ApiError('URL_BLOCKED', {
    details: { url, ...(ip ? { address: ip } : {}) },
  });

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

export interface SsrfGuardOptions {
  /** Resolves a host name to all its addresses (default: the system resolver). */
  resolve?: (host: string) => Promise<dns.LookupAddress[]>;
  /** How long a host whose addresses all passed is taken as passing without resolving again. */
  passTtlMs?: number;
  /** Host names remembered at most; the oldest go first. */
  maxHosts?: number;
}

const systemResolve = (host: string) => dns.promises.lookup(host, { all: true, verbatim: true });

export class SsrfGuard implements UrlGuard {
  private readonly resolve: (host: string) => Promise<dns.LookupAddress[]>;
  private readonly passTtlMs: number;
  private readonly maxHosts: number;
  /**
   * Host names that passed, until when. A crawl asks about the same host for every page; the
   * verdict can be reused for a while because it is not the last word: the connector's lookup
   * and the socket's peer address are checked again on every new connection.
   */
  private readonly passed = new Map<string, number>();

  constructor(
    readonly policy: AddressPolicy,
    opts: SsrfGuardOptions = {},
  ) {
    this.resolve = opts.resolve ?? systemResolve;
    this.passTtlMs = opts.passTtlMs ?? 30_000;
    this.maxHosts = opts.maxHosts ?? 1000;
  }

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
    const until = this.passed.get(host);
    if (until !== undefined && until > Date.now()) return;
    let addresses: dns.LookupAddress[];
    try {
      addresses = await this.resolve(host);
    } catch (e) {
      throw new ApiError('SCRAPE_DNS_RESOLUTION_ERROR', { message: `DNS resolution failed for ${host}`, cause: e });
    }
    for (const a of addresses) if (!this.policy.isAllowed(a.address)) throw blocked(url, a.address);
    this.remember(host);
  }

  private remember(host: string): void {
    this.passed.delete(host);
    if (this.passed.size >= this.maxHosts) this.passed.delete(this.passed.keys().next().value!);
    this.passed.set(host, Date.now() + this.passTtlMs);
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
