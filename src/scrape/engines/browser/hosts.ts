/** Host, origin and scheme spellings, normalised so the proxy's and the page's views compare. */
import net from 'node:net';

export const stripBrackets = (host: string): string => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** `host:port` as the guard proxy files what it learned about a connection. */
export function hostKey(host: string, port: number): string {
  return `${stripBrackets(host).toLowerCase()}:${port}`;
}

/** The same key for a URL the page sees, so the page's failures find the proxy's causes. */
export function urlHostKey(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    const port = u.port ? Number(u.port) : u.protocol === 'https:' || u.protocol === 'wss:' ? 443 : 80;
    return hostKey(u.hostname, port);
  } catch {
    return undefined;
  }
}

/** `host:port` as a request line or a message spells it: IPv6 literals in brackets. */
export function authority(host: string, port: number): string {
  const bare = stripBrackets(host);
  return net.isIPv6(bare) ? `[${bare}]:${port}` : `${bare}:${port}`;
}

export function originOf(url: string): string | undefined {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? undefined : o;
  } catch {
    return undefined;
  }
}

export function schemeOf(url: string): string {
  const i = url.indexOf(':');
  return i < 0 ? '' : url.slice(0, i + 1).toLowerCase();
}

export const isHttpScheme = (scheme: string): boolean => scheme === 'http:' || scheme === 'https:';
