/**
 * The verdict on one URL under a request's rules. Order: the whitelist wins over everything;
 * then the blacklist (a domain and its subdomains) and blockedTlds block; then, in `normal`
 * mode, the classifier's risk score blocks at or above the threshold. When the classifier cannot
 * answer, `failurePolicy` decides: open allows with a warning, closed blocks.
 */
import type { ThreatRules } from './policy.js';

export interface Classification {
  /** 0 (harmless) to 100 (certainly malicious). */
  riskScore: number;
  categories?: string[];
}

/** Thrown by a classifier that could not give a verdict (down, timed out, malformed answer). */
export class ClassifierUnavailable extends Error {}

export interface UrlClassifier {
  /** Named in warnings and block reasons. */
  readonly name: string;
  classify(url: string): Promise<Classification>;
}

export type Verdict =
  | { allowed: true; scanned: boolean; warning?: string }
  | { allowed: false; scanned: boolean; reason: string; categories?: string[] };

/** The host of a URL, lower case, without brackets or a trailing dot; undefined when unparseable. */
export function hostOf(url: string): string | undefined {
  try {
    const h = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
    return h.startsWith('[') ? h.slice(1, -1) : h;
  } catch {
    return undefined;
  }
}

/** Whether `host` is `domain` or one of its subdomains. */
export const inDomain = (host: string, domain: string): boolean => host === domain || host.endsWith('.' + domain);

const isIpHost = (host: string) => /^[0-9.]+$/.test(host) || host.includes(':');

export async function decide(url: string, rules: ThreatRules, classifier: UrlClassifier | undefined): Promise<Verdict> {
  if (rules.mode === 'off') return { allowed: true, scanned: false };
  const host = hostOf(url);
  if (host === undefined) return { allowed: false, scanned: false, reason: 'the URL cannot be parsed' };
  if (rules.whitelist.some((d) => inDomain(host, d))) return { allowed: true, scanned: false };
  const listed = rules.blacklist.find((d) => inDomain(host, d));
  if (listed) return { allowed: false, scanned: false, reason: `${host} is on the blacklist (${listed})` };
  if (!isIpHost(host)) {
    const tld = host.slice(host.lastIndexOf('.') + 1);
    if (rules.blockedTlds.includes(tld)) return { allowed: false, scanned: false, reason: `the top-level domain .${tld} is blocked` };
  }
  if (rules.mode === 'manual-only') return { allowed: true, scanned: false };
  if (!classifier) return unavailable(rules, 'no URL classifier is configured (THREAT_CLASSIFIER_URL or THREAT_DOMAIN_LISTS)', false);
  let c: Classification;
  try {
    c = await classifier.classify(url);
  } catch (e) {
    return unavailable(rules, `the ${classifier.name} could not classify ${host}: ${e instanceof Error ? e.message : String(e)}`, false);
  }
  if (c.riskScore >= rules.riskScoreThreshold) {
    const cats = c.categories?.length ? ` (${c.categories.join(', ')})` : '';
    return {
      allowed: false,
      scanned: true,
      reason: `the ${classifier.name} rates ${host} ${c.riskScore}/100${cats}, at or above the threshold ${rules.riskScoreThreshold}`,
      ...(c.categories?.length ? { categories: c.categories } : {}),
    };
  }
  return { allowed: true, scanned: true };
}

function unavailable(rules: ThreatRules, why: string, scanned: boolean): Verdict {
  return rules.failurePolicy === 'open'
    ? { allowed: true, scanned, warning: `Threat protection: ${why}; allowed because failurePolicy is open` }
    : { allowed: false, scanned, reason: `${why}, and failurePolicy is closed` };
}
