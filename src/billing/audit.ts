/**
 * The audit log. For a team that keeps one, every API request carrying `auditMetadata`, every
 * change to its monitors through the API, and every operator change to its keys, plan, credits
 * or audit setting becomes an append-only event: time, team, key id, username, action, target
 * URLs, outcome and credits charged. Request and page content are never written.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AnyDb } from './ledger.js';

interface AuditTables {
  audit_events: {
    id: string;
    team_id: string;
    key_id: string | null;
    username: string | null;
    action: string;
    target_urls: string;
    outcome: string;
    credits: number;
    at: number;
  };
  audit_settings: { team_id: string; enabled: number; updated_at: number };
}

export interface AuditEvent {
  id: string;
  at: string;
  teamId: string;
  keyId: string | null;
  username: string | null;
  /** `POST /v2/scrape`, or an operator command such as `credits grant`. */
  action: string;
  targetUrls: string[];
  /** The HTTP status of a request, or `ok` for an operator change. */
  outcome: string;
  credits: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Credits charged while serving this request, for its audit event. */
    creditsCharged?: number;
  }
}

/** How long a team's audit setting is reused before it is read again. */
const SETTING_TTL_MS = 2_000;

export class AuditLog {
  private readonly db: Kysely<AuditTables>;
  private readonly settings = new Map<string, { enabled: boolean; until: number }>();

  constructor(db: AnyDb) {
    this.db = db as Kysely<AuditTables>;
  }

  async enabled(teamId: string): Promise<boolean> {
    const now = Date.now();
    const hit = this.settings.get(teamId);
    if (hit && hit.until > now) return hit.enabled;
    const row = await this.db.selectFrom('audit_settings').select('enabled').where('team_id', '=', teamId).executeTakeFirst();
    const enabled = row?.enabled === 1;
    this.settings.set(teamId, { enabled, until: now + SETTING_TTL_MS });
    return enabled;
  }

  async setEnabled(teamId: string, enabled: boolean): Promise<void> {
    const now = Date.now();
    const value = enabled ? 1 : 0;
    await this.db
      .insertInto('audit_settings')
      .values({ team_id: teamId, enabled: value, updated_at: now })
      .onConflict((oc) => oc.column('team_id').doUpdateSet({ enabled: value, updated_at: now }))
      .execute();
    this.settings.delete(teamId);
  }

  /** Writes the event when the team keeps a log (`force` writes it regardless: turning the log off). */
  async record(e: Omit<AuditEvent, 'id' | 'at'>, force = false): Promise<void> {
    if (!force && !(await this.enabled(e.teamId))) return;
    await this.db
      .insertInto('audit_events')
      .values({
        id: randomUUID(),
        team_id: e.teamId,
        key_id: e.keyId,
        username: e.username,
        action: e.action,
        target_urls: JSON.stringify(e.targetUrls),
        outcome: e.outcome,
        credits: e.credits,
        at: Date.now(),
      })
      .execute();
  }

  async list(filter: { teamId?: string; since?: number } = {}): Promise<AuditEvent[]> {
    let q = this.db.selectFrom('audit_events').selectAll();
    if (filter.teamId) q = q.where('team_id', '=', filter.teamId);
    if (filter.since !== undefined) q = q.where('at', '>=', filter.since);
    const rows = await q.orderBy('at').orderBy('id').execute();
    return rows.map((r) => ({
      id: r.id,
      at: new Date(Number(r.at)).toISOString(),
      teamId: r.team_id,
      keyId: r.key_id,
      username: r.username,
      action: r.action,
      targetUrls: JSON.parse(r.target_urls) as string[],
      outcome: r.outcome,
      credits: Number(r.credits),
    }));
  }
}
