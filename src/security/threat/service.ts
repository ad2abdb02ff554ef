/**
 * Threat protection for a team's requests: resolves the rules (team policy and the request's
 * override), builds the guard every fetch goes through, screens URL lists (map links, search
 * results) and charges classifier scans.
 */
import { randomUUID } from 'node:crypto';
import type { UrlGuard } from '../../core/url-guard.js';
import type { UrlClassifier } from './decide.js';
import { TeamGuard } from './guard.js';
import { effectiveRules, type ThreatOverride, type ThreatRules } from './policy.js';
import type { TeamPolicyStore } from './store.js';

export interface ScanCharger {
  charge(c: { teamId: string; keyId?: string | null; cause: string; credits: number }): Promise<number>;
}

export interface ThreatProtectionDeps {
  policies: TeamPolicyStore;
  /** The installation's guard (SSRF), which every team guard wraps. */
  base: UrlGuard;
  /** The HTTP classifier, else the domain-list one, else none (`normal` then falls to failurePolicy). */
  classifier: UrlClassifier | undefined;
  ledger?: ScanCharger;
  /** Credits per classifier scan (the cost table's threatScan). */
  scanCredits: number;
}

export interface Screened {
  allowed: string[];
  blocked: { url: string; reason: string }[];
  warnings: string[];
  /** Credits charged for classifier scans. */
  credits: number;
}

/** Screening asks the classifier about this many hosts at once. */
const SCREEN_CONCURRENCY = 8;

export class ThreatProtection {
  constructor(private readonly deps: ThreatProtectionDeps) {}

  get scanCredits(): number {
    return this.deps.scanCredits;
  }

  async zdr(teamId: string): Promise<boolean> {
    return (await this.deps.policies.settings(teamId)).zdr;
  }

  /** The rules a team's request runs under (undefined: none); 403 for an override the policy refuses. */
  async rulesFor(teamId: string, override: ThreatOverride | null | undefined): Promise<ThreatRules | undefined> {
    return effectiveRules((await this.deps.policies.settings(teamId)).threat, override);
  }

  /** What a scrape needs of the team's settings, in one read. */
  async forScrape(teamId: string, override: ThreatOverride | null | undefined): Promise<{ zdr: boolean; guard: TeamGuard | undefined }> {
    const settings = await this.deps.policies.settings(teamId);
    const rules = effectiveRules(settings.threat, override);
    return { zdr: settings.zdr, guard: rules ? new TeamGuard(this.deps.base, rules, this.deps.classifier) : undefined };
  }

  /** A guard for one request or job page, or undefined when the team's rules check nothing. */
  async guardFor(teamId: string, override: ThreatOverride | null | undefined): Promise<TeamGuard | undefined> {
    const rules = await this.rulesFor(teamId, override);
    return rules ? new TeamGuard(this.deps.base, rules, this.deps.classifier) : undefined;
  }

  /**
   * The guard of a browser session for its whole life (no override: sessions take none). A
   * session has no one moment to settle at, so each scan is charged as it is made.
   */
  async sessionGuard(teamId: string, keyId: string | undefined): Promise<TeamGuard | undefined> {
    const rules = await this.rulesFor(teamId, undefined);
    if (!rules) return undefined;
    const ledger = this.deps.ledger;
    const charge = () => {
      void ledger?.charge({ teamId, keyId: keyId ?? null, cause: `threat-scan:${randomUUID()}`, credits: this.deps.scanCredits }).catch(() => undefined);
    };
    return new TeamGuard(this.deps.base, rules, this.deps.classifier, charge);
  }

  /**
   * Charges a guard's scans not yet charged; answers the credits. `cause` names the work they were
   * made for when it can run again (a job's page), so a replay does not charge them twice.
   */
  async settle(guard: TeamGuard, teamId: string, keyId: string | undefined, cause?: string): Promise<number> {
    const scans = guard.takeScans();
    if (scans === 0 || !this.deps.ledger) return 0;
    return this.deps.ledger.charge({ teamId, keyId: keyId ?? null, cause: `threat-scan:${cause ?? randomUUID()}`, credits: scans * this.deps.scanCredits });
  }

  /** Splits URLs into those the guard's rules allow and those they block, and charges the scans. */
  async screen(guard: TeamGuard, teamId: string, keyId: string | undefined, urls: string[]): Promise<Screened> {
    const verdicts = new Array<Awaited<ReturnType<TeamGuard['verdict']>>>(urls.length);
    let next = 0;
    const worker = async () => {
      while (next < urls.length) {
        const i = next++;
        verdicts[i] = await guard.verdict(urls[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SCREEN_CONCURRENCY, urls.length) }, worker));
    const out: Screened = { allowed: [], blocked: [], warnings: [...guard.warnings], credits: 0 };
    urls.forEach((url, i) => {
      const v = verdicts[i]!;
      if (v.allowed) out.allowed.push(url);
      else out.blocked.push({ url, reason: v.reason });
    });
    out.credits = await this.settle(guard, teamId, keyId);
    return out;
  }
}
