/**
 * Browser profiles: cookies and localStorage kept per team and name, loaded when a scrape or a
 * session starts and written back when a saving one ends. Only one saving holder per profile at
 * a time, enforced by a lock row with an expiry (so a crashed holder cannot keep it forever); a
 * second saving holder gets 409. Holders with `saveChanges: false` read and never write.
 */
import type { Kysely } from 'kysely';
import { ApiError } from '../errors.js';
import type { ProfileAccess, ProfileHold } from '../scrape/pipeline.js';
import type { BrowserStorageState } from '../scrape/types.js';
import type { Database } from '../store/schema.js';

/** How long a lock outlives the holder's own deadline, for saving the state at the end. */
const LOCK_GRACE_MS = 60_000;
/** A scrape's hold lasts at most its timeout; a session's its ttl. */
const DEFAULT_HOLD_MS = 5 * 60_000;

export class ProfileStore implements ProfileAccess {
  constructor(private readonly db: Kysely<Database>) {}

  async load(teamId: string, name: string): Promise<BrowserStorageState | undefined> {
    const row = await this.db.selectFrom('browser_profiles').select('state').where('team_id', '=', teamId).where('name', '=', name).executeTakeFirst();
    return row?.state ? (JSON.parse(row.state) as BrowserStorageState) : undefined;
  }

  async hold(teamId: string, name: string, saveChanges: boolean, holder: string, holdMs = DEFAULT_HOLD_MS): Promise<ProfileHold> {
    if (saveChanges) await this.lock(teamId, name, holder, holdMs);
    let state: BrowserStorageState | undefined;
    try {
      state = await this.load(teamId, name);
    } catch (e) {
      if (saveChanges) await this.unlock(teamId, name, holder);
      throw e;
    }
    return {
      state,
      release: async (next) => {
        if (!saveChanges) return;
        if (next) await this.save(teamId, name, holder, next);
        await this.unlock(teamId, name, holder);
      },
    };
  }

  private async lock(teamId: string, name: string, holder: string, holdMs: number): Promise<void> {
    const now = Date.now();
    await this.db
      .insertInto('browser_profiles')
      .values({ team_id: teamId, name, state: null, locked_by: null, locked_until: null, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['team_id', 'name']).doNothing())
      .execute();
    const r = await this.db
      .updateTable('browser_profiles')
      .set({ locked_by: holder, locked_until: now + holdMs + LOCK_GRACE_MS })
      .where('team_id', '=', teamId)
      .where('name', '=', name)
      .where((eb) => eb.or([eb('locked_by', 'is', null), eb('locked_until', '<', now), eb('locked_by', '=', holder)]))
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) {
      throw new ApiError('CONFLICT', {
        message: `Conflict: profile '${name}' is in use by another session that saves changes`,
        details: { profile: name },
      });
    }
  }

  private async save(teamId: string, name: string, holder: string, state: BrowserStorageState): Promise<void> {
    await this.db
      .updateTable('browser_profiles')
      .set({ state: JSON.stringify(state), updated_at: Date.now() })
      .where('team_id', '=', teamId)
      .where('name', '=', name)
      .where('locked_by', '=', holder)
      .execute();
  }

  private async unlock(teamId: string, name: string, holder: string): Promise<void> {
    await this.db
      .updateTable('browser_profiles')
      .set({ locked_by: null, locked_until: null })
      .where('team_id', '=', teamId)
      .where('name', '=', name)
      .where('locked_by', '=', holder)
      .execute();
  }
}
