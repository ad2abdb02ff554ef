/**
 * Each team's threat protection policy and zero data retention flag, as the operator set them
 * (`gleaner teams threat-policy`, `gleaner teams zdr`). Every request reads them, so a read is
 * reused for a moment; a change made through this process applies at once, one made by another
 * process (the CLI against a running server) within SETTINGS_TTL_MS.
 */
import type { Kysely } from 'kysely';
import { DEFAULT_POLICY, threatPolicySchema, type ThreatPolicy } from './policy.js';

interface PolicyTables {
  team_policies: { team_id: string; threat_policy: string | null; zdr: number; updated_at: number };
}

export interface TeamSettings {
  threat: ThreatPolicy;
  zdr: boolean;
}

export const SETTINGS_TTL_MS = 2_000;
const MAX_CACHED = 10_000;

export class TeamPolicyStore {
  private readonly db: Kysely<PolicyTables>;
  private readonly recent = new Map<string, { settings: TeamSettings; until: number }>();

  constructor(db: Kysely<any>) {
    this.db = db as Kysely<PolicyTables>;
  }

  async settings(teamId: string): Promise<TeamSettings> {
    const now = Date.now();
    const hit = this.recent.get(teamId);
    if (hit && hit.until > now) return hit.settings;
    const row = await this.db.selectFrom('team_policies').select(['threat_policy', 'zdr']).where('team_id', '=', teamId).executeTakeFirst();
    // A stored policy was valid when written; parsing again fills fields added since.
    const threat = row?.threat_policy ? threatPolicySchema.parse(JSON.parse(row.threat_policy)) : DEFAULT_POLICY;
    const settings: TeamSettings = { threat, zdr: row?.zdr === 1 };
    if (this.recent.size >= MAX_CACHED) this.recent.clear();
    this.recent.set(teamId, { settings, until: now + SETTINGS_TTL_MS });
    return settings;
  }

  async setThreatPolicy(teamId: string, policy: ThreatPolicy): Promise<void> {
    await this.upsert(teamId, { threat_policy: JSON.stringify(policy) });
  }

  async setZdr(teamId: string, on: boolean): Promise<void> {
    await this.upsert(teamId, { zdr: on ? 1 : 0 });
  }

  private async upsert(teamId: string, set: { threat_policy?: string; zdr?: number }): Promise<void> {
    const now = Date.now();
    await this.db
      .insertInto('team_policies')
      .values({ team_id: teamId, threat_policy: set.threat_policy ?? null, zdr: set.zdr ?? 0, updated_at: now })
      .onConflict((oc) => oc.column('team_id').doUpdateSet({ ...set, updated_at: now }))
      .execute();
    this.recent.delete(teamId);
  }
}
