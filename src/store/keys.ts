/** Teams and their API keys. Keys are random, shown once, and stored only as a SHA-256 hash. */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export const SCOPES = ['scrape', 'crawl', 'map', 'search', 'parse', 'browser', 'monitor', 'agent', 'team'] as const;
export type Scope = (typeof SCOPES)[number];
/** A key with this scope may call every endpoint. */
export const ALL_SCOPES = '*';

export interface Principal {
  keyId: string;
  teamId: string;
  plan: string;
  scopes: string[];
}

export interface KeyInfo {
  id: string;
  teamId: string;
  teamName: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');
export const generateKey = (): string => `fc-${randomBytes(24).toString('hex')}`;

export function hasScope(p: Pick<Principal, 'scopes'>, scope: Scope): boolean {
  return p.scopes.includes(ALL_SCOPES) || p.scopes.includes(scope);
}

/**
 * How long a successful key lookup is reused. Every request authenticates, and the lookup was a
 * tenth of a small scrape's main-thread time; a revocation or plan change made through this
 * process takes effect at once, one made by another process within this window.
 */
export const KEY_CACHE_TTL_MS = 2_000;
const KEY_CACHE_MAX = 10_000;

export class KeyRepository {
  private readonly recent = new Map<string, { principal: Principal; until: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly cacheTtlMs = KEY_CACHE_TTL_MS,
  ) {}

  async ensureTeam(name: string, plan = 'standard'): Promise<string> {
    const existing = await this.db.selectFrom('teams').select('id').where('name', '=', name).executeTakeFirst();
    if (existing) return existing.id;
    const id = randomUUID();
    await this.db.insertInto('teams').values({ id, name, plan, created_at: Date.now() }).execute();
    return id;
  }

  async planOf(teamId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('teams').select('plan').where('id', '=', teamId).executeTakeFirst();
    return row?.plan;
  }

  async setPlan(teamId: string, plan: string): Promise<void> {
    await this.db.updateTable('teams').set({ plan }).where('id', '=', teamId).execute();
    this.recent.clear();
  }

  /** Stores a key for a team. Pass `key` to adopt a known secret (bootstrap from the environment). */
  async create(opts: { teamId: string; name: string; scopes?: string[]; key?: string }): Promise<{ id: string; key: string }> {
    const key = opts.key ?? generateKey();
    const id = randomUUID();
    await this.db
      .insertInto('api_keys')
      .values({
        id,
        team_id: opts.teamId,
        name: opts.name,
        key_hash: hashKey(key),
        prefix: key.slice(0, 7),
        scopes: JSON.stringify(opts.scopes ?? [ALL_SCOPES]),
        created_at: Date.now(),
        revoked_at: null,
        last_used_at: null,
      })
      .execute();
    return { id, key };
  }

  async authenticate(key: string): Promise<Principal | undefined> {
    const hash = hashKey(key);
    const now = Date.now();
    const hit = this.recent.get(hash);
    if (hit && hit.until > now) return hit.principal;
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('teams', 'teams.id', 'api_keys.team_id')
      .select(['api_keys.id as keyId', 'api_keys.team_id as teamId', 'teams.plan as plan', 'api_keys.scopes as scopes'])
      .where('api_keys.key_hash', '=', hash)
      .where('api_keys.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) {
      this.recent.delete(hash);
      return undefined;
    }
    const principal: Principal = { keyId: row.keyId, teamId: row.teamId, plan: row.plan, scopes: JSON.parse(row.scopes) as string[] };
    if (this.cacheTtlMs > 0) {
      if (this.recent.size >= KEY_CACHE_MAX) this.recent.clear();
      this.recent.set(hash, { principal, until: now + this.cacheTtlMs });
    }
    return principal;
  }

  async list(): Promise<KeyInfo[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .innerJoin('teams', 'teams.id', 'api_keys.team_id')
      .selectAll('api_keys')
      .select('teams.name as team_name')
      .orderBy('api_keys.created_at')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      teamId: r.team_id,
      teamName: r.team_name,
      name: r.name,
      prefix: r.prefix,
      scopes: JSON.parse(r.scopes) as string[],
      createdAt: r.created_at,
      revokedAt: r.revoked_at,
      lastUsedAt: r.last_used_at,
    }));
  }

  /** Revokes by key id or by the full key. Returns whether a live key was revoked. */
  async revoke(idOrKey: string): Promise<boolean> {
    const res = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: Date.now() })
      .where((eb) => eb.or([eb('id', '=', idOrKey), eb('key_hash', '=', hashKey(idOrKey))]))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    this.recent.clear();
    return Number(res.numUpdatedRows) > 0;
  }

  async count(): Promise<number> {
    const r = await this.db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
