/**
 * A team's URL guard for one request: the installation's guard (SSRF) composed with the team's
 * threat rules. Engines already call a request's guard before the first hop, every redirect and
 * every browser sub-request, so handing them this one applies the rules everywhere.
 */
import { ApiError } from '../../errors.js';
import type { UrlGuard } from '../../core/url-guard.js';
import { decide, type UrlClassifier, type Verdict } from './decide.js';
import type { ThreatRules } from './policy.js';

export function urlBlocked(url: string, reason: string, categories?: string[]): ApiError {
  return new ApiError('URL_BLOCKED', {
    message: `This URL is blocked by the team's threat protection: ${reason}`,
    details: { url, reason, ...(categories?.length ? { categories } : {}) },
  });
}

export class TeamGuard implements UrlGuard {
  /** failurePolicy-open notes, for the answer's `warning`. */
  readonly warnings: string[] = [];
  /** Classifier scans not yet charged. */
  private unbilled = 0;
  /** Verdicts by URL for the life of this guard (one request, or one page of a job): a URL is classified, and charged, once. */
  private readonly verdicts = new Map<string, Promise<Verdict>>();
  /** The rules for a page's sub-resources: the lists alone, so an image costs no scan. */
  private readonly listRules: ThreatRules;

  constructor(
    private readonly base: UrlGuard,
    readonly rules: ThreatRules,
    private readonly classifier: UrlClassifier | undefined,
    /** Charges each scan as it happens, for a guard with no single end to settle at (a browser session). */
    private readonly onScan?: () => void,
  ) {
    this.listRules = { ...rules, mode: 'manual-only' };
  }

  async checkUrl(url: string): Promise<void> {
    // Threat rules first: a listed domain is refused without even a DNS lookup.
    const v = await this.verdict(url);
    if (!v.allowed) throw urlBlocked(url, v.reason, v.categories);
    await this.base.checkUrl(url);
  }

  async checkSubresource(url: string): Promise<void> {
    const v = await decide(url, this.listRules, undefined);
    if (!v.allowed) throw urlBlocked(url, v.reason);
    await this.base.checkUrl(url);
  }

  checkAddress(ip: string, url: string): void {
    this.base.checkAddress(ip, url);
  }

  verdict(url: string): Promise<Verdict> {
    const hash = url.indexOf('#');
    const key = hash < 0 ? url : url.slice(0, hash);
    let v = this.verdicts.get(key);
    if (!v) {
      v = decide(url, this.rules, this.classifier).then((out) => {
        if (out.scanned) {
          if (this.onScan) this.onScan();
          else this.unbilled++;
        }
        if (out.allowed && out.warning && !this.warnings.includes(out.warning)) this.warnings.push(out.warning);
        return out;
      });
      this.verdicts.set(key, v);
    }
    return v;
  }

  /** The scans made since the last call; the caller charges them. */
  takeScans(): number {
    const n = this.unbilled;
    this.unbilled = 0;
    return n;
  }
}
