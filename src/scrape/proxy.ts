/**
 * Proxy selection. `basic` uses the operator's basic proxy (direct when none), `enhanced` the
 * enhanced one, and `auto` starts basic and escalates to enhanced when the first try is blocked.
 * A per-country proxy, when configured for `location.country`, stands in for the basic tier.
 */
import type { Config } from '../config.js';

export type ProxyTier = 'basic' | 'enhanced';
export type ProxyMode = 'basic' | 'enhanced' | 'auto';

export interface ProxyAttempt {
  tier: ProxyTier;
  url: string | undefined;
}

export function proxyAttempts(proxies: Config['proxies'], mode: ProxyMode, country: string | undefined): ProxyAttempt[] {
  const basic: ProxyAttempt = { tier: 'basic', url: (country && proxies.countries[country]) || proxies.basic };
  const enhanced: ProxyAttempt | undefined = proxies.enhanced ? { tier: 'enhanced', url: proxies.enhanced } : undefined;
  switch (mode) {
    case 'basic':
      return [basic];
    case 'enhanced':
      // Without an enhanced proxy configured the request still goes out, on the basic tier.
      return [enhanced ?? basic];
    case 'auto':
      return enhanced ? [basic, enhanced] : [basic];
  }
}
