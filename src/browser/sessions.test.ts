/**
 * A session whose process went away is charged all the same: once its row has been marked
 * ended for a while (the holder charges its own sessions within a sweep), a sweep charges it
 * from its start to the last activity it recorded, once, and notes the credits on the row.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { scratchStore, type ScratchStore } from '../../test/helpers/scratch-store.js';
import type { Store } from '../store/db.js';
import { BrowserSessions } from './sessions.js';

describe('sessions of a process that went away', () => {
  let scratch: ScratchStore;
  let store: Store;
  let sessions: BrowserSessions;
  const charged: Array<{ teamId: string; sessionId: string; durationMs: number }> = [];

  beforeAll(async () => {
    scratch = scratchStore('sessions', undefined);
    store = await scratch.open();
    sessions = new BrowserSessions({
      engine: undefined,
      guard: { checkUrl: async () => undefined } as never,
      db: store.db,
      profiles: {} as never,
      blobs: {} as never,
      log: pino({ level: 'silent' }),
      maxPerTeam: 1,
      executeMemoryBytes: 0,
      maxOutputChars: 0,
      maxValueChars: 0,
      charge: async (ended) => {
        charged.push(ended);
        return 4;
      },
    });
  });
  afterAll(async () => {
    await sessions?.close();
    await store?.close();
    await scratch?.remove();
  });

  const row = (id: string, destroyedAgoMs: number, creditsUsed: number | null) => {
    const now = Date.now();
    const created = now - 10 * 60_000;
    return {
      id,
      team_id: 'team-a',
      status: 'destroyed' as const,
      scrape_id: null,
      profile_name: null,
      created_at: created,
      last_activity: created + 90_000,
      expires_at: now - destroyedAgoMs,
      activity_ttl_ms: 60_000,
      destroyed_at: now - destroyedAgoMs,
      credits_used: creditsUsed,
    };
  };

  it('charges an orphaned row once, up to its last activity, and leaves recent and charged rows alone', async () => {
    await store.db
      .insertInto('browser_sessions')
      .values([row('orphan', 5 * 60_000, null), row('just-ended', 1_000, null), row('already-charged', 5 * 60_000, 2)])
      .execute();
    await vi.waitFor(() => expect(charged.length).toBeGreaterThan(0), { timeout: 5_000 });
    // Two more sweeps find nothing more to charge.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(charged).toEqual([{ teamId: 'team-a', sessionId: 'orphan', durationMs: 90_000 }]);
    const rows = await store.db.selectFrom('browser_sessions').select(['id', 'credits_used']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'already-charged', credits_used: 2 },
      { id: 'just-ended', credits_used: null },
      { id: 'orphan', credits_used: 4 },
    ]);
  });
});
