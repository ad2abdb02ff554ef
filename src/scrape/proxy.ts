/**
 * Proxy selection. `basic` uses the operator's basic proxy (direct when none), `enhanced` the
 * enhanced one, and `auto` starts basic and escalates to enhanced when the first try is blocked.
 * A per-country proxy (`PROXY_COUNTRIES`), when configured for `location.country`, stands in
 * for the basic tier. What a request asked for and could not get is said in a warning.
 */
import type { Config } from '../config.js';
import { COUNTRIES } from './engines/browser/countries.js';

export type ProxyTier = 'basic' | 'enhanced';
export type ProxyMode = 'basic' | 'enhanced' | 'auto';

export interface ProxyAttempt {
  tier: ProxyTier;
  url: string | undefined;
  /** The country whose proxy this is, when it is a per-country one. */
  country?: string;
}

export function proxyAttempts(proxies: Config['proxies'], mode: ProxyMode, country: string | undefined): ProxyAttempt[] {
  const countryProxy = country ? proxies.countries[country] : undefined;
  const basic: ProxyAttempt = countryProxy ? { tier: 'basic', url: countryProxy, country } : { tier: 'basic', url: proxies.basic };
  const enhanced: ProxyAttempt | undefined = proxies.enhanced ? { tier: 'enhanced', url: proxies.enhanced } : undefined;
  switch (mode) {
    case 'basic':
      return [basic];
    case 'enhanced':
      // Without an enhanced proxy configured the request still goes out, on the basic tier
      // (routingWarnings says so).
      return [enhanced ?? basic];
    case 'auto':
      return enhanced ? [basic, enhanced] : [basic];
  }
}

/**
 * The Accept-Language a location asks for: its languages in order of preference, else the
 * usual language of its country (`de-DE, de;q=0.9`); undefined when neither is known.
 */
export function acceptLanguageFor(location: { country?: string | undefined; languages?: string[] | undefined } | undefined): string | undefined {
  const languages = location?.languages?.length ? location.languages : countryLanguages(location?.country);
  if (!languages?.length) return undefined;
  return languages.map((l, i) => (i === 0 ? l : `${l};q=${Math.max(0.1, 1 - i * 0.1).toFixed(1)}`)).join(', ');
}

function countryLanguages(country: string | undefined): string[] | undefined {
  const locale = country ? COUNTRIES[country]?.locale : undefined;
  if (!locale) return undefined;
  const base = locale.split('-')[0]!;
  return base === locale ? [locale] : [locale, base];
}

/**
 * What the request asked of its route to the site and did not get from the attempt that
 * answered: an enhanced proxy the server does not have, or a country it has no proxy for (the
 * page then came from this server's own address, or another tier's).
 */
export function routingWarnings(
  proxies: Config['proxies'],
  asked: { proxy: ProxyMode; location?: { country?: string | undefined; languages?: string[] | undefined } | undefined },
  answered: ProxyAttempt,
): string[] {
  const out: string[] = [];
  if (asked.proxy === 'enhanced' && !proxies.enhanced) {
    out.push("proxy 'enhanced' was asked for, but this server has no enhanced proxy configured (PROXY_ENHANCED): the page was fetched on the basic tier.");
  }
  const country = asked.location?.country;
  if (country && answered.country !== country) {
    const why = proxies.countries[country]
      ? `the ${answered.tier} proxy answered instead of the one for ${country}`
      : `no proxy for ${country} is configured (PROXY_COUNTRIES)`;
    const language = acceptLanguageFor(asked.location) ? ' Its language was still asked for (Accept-Language).' : '';
    out.push(`location.country ${country} could not be honoured for the address the page was fetched from: ${why}.${language}`);
  }
  return out;
}
