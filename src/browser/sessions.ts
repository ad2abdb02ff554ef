/**
 * Interactive browser sessions: a context of its own per session in the engine's Chromium,
 * driven by the caller's code through the sandbox, or the very page a `keepAlive` scrape left
 * open. A row per session in the store lets any process list them; the live context belongs to
 * the process that opened it. Sessions end on DELETE, at their ttl, or after activityTtl without
 * an execute; a team has at most `maxPerTeam` open at once (429 beyond). A session with a saving
 * profile writes the profile back when it ends. A session is charged once, when it ends, for
 * the time it lived (`charge`); a row whose process went away is charged by the sweep of another
 * (or the next) process, up to the last activity it recorded.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { ApiError } from '../errors.js';
import type { BrowserEngine, CdpSessionContext, SessionContext } from '../scrape/engines/browser.js';
import type { ProfileHold } from '../scrape/pipeline.js';
import type { UrlGuard } from '../scrape/types.js';
import type { BlobStore } from '../store/blobs.js';
import type { Database } from '../store/schema.js';
import type { CdpConnection } from './cdp-relay.js';
import { runCommands } from './execute/command-runner.js';
import type { BrowserCommand } from './execute/commands.js';
import { bridgeCall, navigationScheme, type BridgeDeps } from './execute/page-bridge.js';
import { prelude } from './execute/prelude.js';
import { runSandboxed, type SandboxResult } from './execute/sandbox.js';
import type { PageAgent } from './page-prompt.js';
import type { ProfileStore } from './profiles.js';

const SWEEP_MS = 1_000;
/**
 * How long after a row was marked ended another process waits before charging it as orphaned:
 * the process that held the session charges it itself within a sweep or two.
 */
const ORPHAN_GRACE_MS = 60_000;
const START_NAV_TIMEOUT_MS = 30_000;

export interface BrowserSessionsOptions {
  engine: BrowserEngine | undefined;
  guard: UrlGuard;
  db: Kysely<Database>;
  profiles: ProfileStore;
  blobs: BlobStore;
  log: Logger;
  maxPerTeam: number;
  executeMemoryBytes: number;
  maxOutputChars: number;
  /** Most characters a value read from a session's page may have before it is refused in the page. */
  maxValueChars: number;
  /** The team's threat protection guard for a session's life; absent or undefined: `guard` alone. */
  teamGuard?: (teamId: string) => Promise<UrlGuard | undefined>;
  /** Charges an ended session once (keyed by its id); answers the credits. Absent: free. */
  charge?: (ended: { teamId: string; sessionId: string; durationMs: number }) => Promise<number>;
}

/** How a session ended: how long it lived and what it was charged. */
export interface SessionEnd {
  durationMs: number;
  creditsUsed: number;
}

interface SessionTimes {
  ttlMs: number;
  activityTtlMs: number;
  /** Set when the session continues a scrape (`interact`): keyed by its scrapeId. */
  scrapeId?: string;
}

export interface CreateSessionOptions extends SessionTimes {
  profile?: { name: string; saveChanges: boolean } | undefined;
  /** Opened right away, through the SSRF guard. */
  startUrl?: string;
  mobile?: boolean;
  /** A Chromium of its own with a CDP endpoint the caller may attach to (`cdpUrl`). */
  cdp?: boolean;
}

/** Who asks to attach over CDP: the session's own secret, or an API key's team. */
export type CdpCredentials = { token: string } | { teamId: string };

export interface CdpTarget {
  endpoint: string;
  guard: UrlGuard;
  /** Hands the relayed connection to the session, which closes it when it ends. */
  track(conn: CdpConnection): void;
}

export interface SessionView {
  id: string;
  status: 'active' | 'destroyed';
  createdAt: string;
  lastActivity: string;
  expiresAt: string;
  /** Secret of the session's CDP endpoint, while it is open in this process. */
  cdpToken?: string;
  /** Charged when the session ends: 0 until then. */
  creditsUsed: number;
}

export interface ExecuteRequest {
  code: string;
  /** `language: "bash"`: commands parsed at the edge, run instead of the code. */
  commands?: readonly BrowserCommand[];
  timeoutMs: number;
  /** Turns a blob path into the absolute URL handed to the client. */
  absoluteUrl(path: string): string;
  /** `prompt`: the model acts on the page instead of code (page-prompt.ts). */
  agent?: PageAgent;
}

interface LiveSession {
  id: string;
  teamId: string;
  scrapeId: string | undefined;
  ctx: SessionContext;
  hold: ProfileHold | undefined;
  createdAt: number;
  expiresAt: number;
  activityTtlMs: number;
  lastActivity: number;
  busy: number;
  /** Executes run one after another in a session. */
  queue: Promise<unknown>;
  ending: Promise<SessionEnd> | undefined;
  cdp: { endpoint: string; token: string; connections: Set<CdpConnection> } | undefined;
  /** What every navigation of the session is checked against: the team's guard, or the installation's. */
  guard: UrlGuard;
}

const digest = (v: string) => createHash('sha256').update(v).digest();

export class BrowserSessions {
  private readonly live = new Map<string, LiveSession>();
  private readonly opening = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;
  /** Lifetimes of sessions that continue a scrape (interact, keepAlive); tests shorten them. */
  interactTtl = { ttlMs: 600_000, activityTtlMs: 300_000 };

  constructor(private readonly o: BrowserSessionsOptions) {
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Sessions open in this process (and contexts they hold), for the bench and tests. */
  openCount(): number {
    return this.live.size;
  }

  async create(teamId: string, opts: CreateSessionOptions): Promise<SessionView> {
    const engine = this.o.engine;
    if (!engine) throw new ApiError('SERVICE_UNAVAILABLE', { message: 'Browser sessions need Chromium, and none is available on this server' });
    const unreserve = this.reserve(teamId);
    const id = randomUUID();
    let hold: ProfileHold | undefined;
    let ctx: SessionContext | undefined;
    try {
      if (opts.profile) hold = await this.o.profiles.hold(teamId, opts.profile.name, opts.profile.saveChanges, id, opts.ttlMs);
      const guard = await this.guardOf(teamId);
      const sessionOpts = {
        guard,
        ...(hold?.state ? { storageState: hold.state } : {}),
        ...(opts.mobile ? { mobile: true } : {}),
      };
      ctx = opts.cdp ? await engine.openCdpSession(sessionOpts) : await engine.openSession(sessionOpts);
      if (opts.startUrl) {
        navigationScheme(opts.startUrl);
        await guard.checkUrl(opts.startUrl);
        await ctx.page.goto(opts.startUrl, { timeout: START_NAV_TIMEOUT_MS, waitUntil: 'load' });
      }
      return await this.register(id, teamId, ctx, hold, opts, opts.profile?.name, guard);
    } catch (e) {
      await ctx?.close();
      await hold?.release(undefined);
      throw e;
    } finally {
      unreserve();
    }
  }

  /**
   * Runs a scrape whose page stays open (`keepAlive`) as a session keyed by the scrape's id,
   * with the interact lifetimes. The team's cap is checked before the scrape does any work (429
   * at the cap) and its slot held while it runs. A page from an attempt that was not the last,
   * or from a scrape that failed after capture, is closed.
   */
  async keepScrape<T extends { metadata: { scrapeId?: string | undefined } }>(
    teamId: string,
    scrape: (keepPage: (page: SessionContext) => void) => Promise<T>,
  ): Promise<T> {
    const unreserve = this.reserve(teamId);
    let kept: SessionContext | undefined;
    try {
      const doc = await scrape((page) => {
        void kept?.close();
        kept = page;
      });
      const scrapeId = doc.metadata.scrapeId;
      if (kept && scrapeId) {
        await this.register(randomUUID(), teamId, kept, undefined, { ...this.interactTtl, scrapeId }, undefined, await this.guardOf(teamId));
        kept = undefined;
      }
      return doc;
    } finally {
      await kept?.close();
      unreserve();
    }
  }

  /** The live session continuing a scrape, if this process holds one. */
  forScrape(teamId: string, scrapeId: string): string | undefined {
    for (const s of this.live.values()) if (s.teamId === teamId && s.scrapeId === scrapeId && !s.ending) return s.id;
    return undefined;
  }

  async execute(teamId: string, id: string, req: ExecuteRequest): Promise<SandboxResult> {
    const s = await this.owned(teamId, id);
    s.busy++;
    s.lastActivity = Date.now();
    const run = s.queue.then(() => this.run(s, req));
    s.queue = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      s.busy--;
      s.lastActivity = Date.now();
      await this.o.db.updateTable('browser_sessions').set({ last_activity: s.lastActivity }).where('id', '=', id).execute();
    }
  }

  /**
   * Where a CDP client of a live session is relayed to. The secret is compared in constant time;
   * a wrong one is refused as a missing key would be, and sessions of other teams are not found.
   */
  cdpTarget(id: string, who: CdpCredentials): CdpTarget {
    const s = this.live.get(id);
    if (!s || s.ending) throw new ApiError('BROWSER_SESSION_NOT_FOUND');
    const cdp = s.cdp;
    if (!cdp) throw new ApiError('FORBIDDEN', { message: 'This browser session has no CDP endpoint' });
    if ('token' in who) {
      if (!timingSafeEqual(digest(who.token), digest(cdp.token))) throw new ApiError('UNAUTHORIZED');
    } else if (who.teamId !== s.teamId) {
      throw new ApiError('BROWSER_SESSION_NOT_FOUND');
    }
    return {
      endpoint: cdp.endpoint,
      guard: s.guard,
      track: (conn) => {
        if (s.ending) return conn.close();
        cdp.connections.add(conn);
        s.lastActivity = Date.now();
        void conn.closed.then(() => {
          cdp.connections.delete(conn);
          s.lastActivity = Date.now();
        });
      },
    };
  }

  /** Ends a session; answers how long it lived and what it cost. */
  async destroy(teamId: string, id: string): Promise<SessionEnd> {
    return this.end(await this.owned(teamId, id));
  }

  async list(teamId: string, status: 'active' | 'destroyed' | undefined): Promise<SessionView[]> {
    let q = this.o.db.selectFrom('browser_sessions').selectAll().where('team_id', '=', teamId);
    if (status) q = q.where('status', '=', status);
    const rows = await q.orderBy('created_at', 'desc').limit(200).execute();
    return rows.map((r) => ({
      ...(r.status === 'active' && this.live.get(r.id)?.cdp ? { cdpToken: this.live.get(r.id)?.cdp?.token } : {}),
      id: r.id,
      status: r.status,
      createdAt: new Date(r.created_at).toISOString(),
      lastActivity: new Date(r.last_activity).toISOString(),
      expiresAt: new Date(r.expires_at).toISOString(),
      creditsUsed: Number(r.credits_used ?? 0),
    }));
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.live.values()].map((s) => this.end(s)));
  }

  /** Holds one of the team's session slots while a session opens; 429 when none is left. */
  private reserve(teamId: string): () => void {
    const inUse = this.countFor(teamId) + (this.opening.get(teamId) ?? 0);
    if (inUse >= this.o.maxPerTeam) {
      throw new ApiError('CONCURRENCY_LIMIT_REACHED', {
        details: { maxConcurrency: this.o.maxPerTeam, active: inUse },
        headers: { 'retry-after': '10' },
      });
    }
    this.opening.set(teamId, (this.opening.get(teamId) ?? 0) + 1);
    return () => this.opening.set(teamId, (this.opening.get(teamId) ?? 1) - 1);
  }

  /** Makes an open context a live session, listed in the store. */
  private async guardOf(teamId: string): Promise<UrlGuard> {
    return (await this.o.teamGuard?.(teamId)) ?? this.o.guard;
  }

  private async register(
    id: string,
    teamId: string,
    ctx: SessionContext,
    hold: ProfileHold | undefined,
    times: SessionTimes,
    profileName: string | undefined,
    guard: UrlGuard,
  ): Promise<SessionView> {
    const now = Date.now();
    const s: LiveSession = {
      id,
      teamId,
      scrapeId: times.scrapeId,
      ctx,
      hold,
      createdAt: now,
      expiresAt: now + times.ttlMs,
      activityTtlMs: times.activityTtlMs,
      lastActivity: now,
      busy: 0,
      queue: Promise.resolve(),
      ending: undefined,
      cdp: cdpOf(ctx),
      guard,
    };
    await this.o.db
      .insertInto('browser_sessions')
      .values({
        id,
        team_id: teamId,
        status: 'active',
        scrape_id: times.scrapeId ?? null,
        profile_name: profileName ?? null,
        created_at: now,
        last_activity: now,
        expires_at: s.expiresAt,
        activity_ttl_ms: times.activityTtlMs,
        destroyed_at: null,
        credits_used: null,
      })
      .execute();
    this.live.set(id, s);
    return view(s, 'active');
  }

  private countFor(teamId: string): number {
    let n = 0;
    for (const s of this.live.values()) if (s.teamId === teamId) n++;
    return n;
  }

  private async owned(teamId: string, id: string): Promise<LiveSession> {
    const s = this.live.get(id);
    if (s && s.teamId === teamId && !s.ending) {
      // Past its ttl a session is over, whether or not the sweep has come round yet.
      if (Date.now() < s.expiresAt) return s;
      void this.end(s).catch(() => undefined);
    }
    throw new ApiError('BROWSER_SESSION_NOT_FOUND');
  }

  private async run(s: LiveSession, req: ExecuteRequest): Promise<SandboxResult> {
    const deadline = Date.now() + req.timeoutMs;
    const page = s.ctx.page;
    const deps: BridgeDeps = {
      page,
      remaining: () => deadline - Date.now(),
      saveFile: async (data, mime) => req.absoluteUrl(this.o.blobs.urlPath(await this.o.blobs.put(s.teamId, data, mime))),
      checkNavigation: async (url) => {
        navigationScheme(url);
        await s.guard.checkUrl(url);
      },
      maxValueChars: this.o.maxValueChars,
    };
    if (req.agent) return req.agent(deps);
    if (req.commands) return runCommands(req.commands, deps, { timeoutMs: req.timeoutMs, maxOutputChars: this.o.maxOutputChars });
    return runSandboxed(
      req.code,
      prelude(page.url()),
      { call: (method, args) => bridgeCall(deps, method, args) },
      { timeoutMs: req.timeoutMs, memoryBytes: this.o.executeMemoryBytes, maxOutputChars: this.o.maxOutputChars },
    );
  }

  private end(s: LiveSession): Promise<SessionEnd> {
    s.ending ??= (async () => {
      let state;
      for (const conn of s.cdp?.connections ?? []) conn.close();
      if (s.hold) state = await s.ctx.context.storageState().catch(() => undefined);
      await s.ctx.close();
      this.live.delete(s.id);
      await s.hold?.release(state).catch((e: unknown) => this.o.log.warn({ err: e, session: s.id }, 'saving a browser profile failed'));
      const now = Date.now();
      const durationMs = now - s.createdAt;
      await this.o.db.updateTable('browser_sessions').set({ status: 'destroyed', destroyed_at: now }).where('id', '=', s.id).execute();
      return { durationMs, creditsUsed: await this.chargeEnded(s.id, s.teamId, durationMs) };
    })();
    return s.ending;
  }

  /** Charges an ended session and notes the credits on its row. */
  private async chargeEnded(id: string, teamId: string, durationMs: number): Promise<number> {
    if (!this.o.charge) return 0;
    const creditsUsed = await this.o.charge({ teamId, sessionId: id, durationMs });
    await this.o.db.updateTable('browser_sessions').set({ credits_used: creditsUsed }).where('id', '=', id).execute();
    return creditsUsed;
  }

  /**
   * Rows ended by a sweep because the process holding them went away: charged from their start
   * to the last activity they recorded, the time they are known to have lived.
   */
  private async chargeOrphans(now: number): Promise<void> {
    if (!this.o.charge) return;
    const rows = await this.o.db
      .selectFrom('browser_sessions')
      .select(['id', 'team_id', 'created_at', 'last_activity'])
      .where('status', '=', 'destroyed')
      .where('credits_used', 'is', null)
      .where('destroyed_at', '<', now - ORPHAN_GRACE_MS)
      .limit(100)
      .execute();
    for (const r of rows) {
      if (this.live.has(r.id)) continue;
      await this.chargeEnded(r.id, r.team_id, Number(r.last_activity) - Number(r.created_at));
    }
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const s of this.live.values()) {
      if (s.ending) continue;
      // The ttl ends a session even mid-execute; inactivity only when nothing runs in it. An
      // attached CDP client is activity in itself: its commands are not execute calls.
      const idle = s.busy === 0 && (s.cdp?.connections.size ?? 0) === 0;
      if (now >= s.expiresAt || (idle && now >= s.lastActivity + s.activityTtlMs)) void this.end(s).catch(() => undefined);
    }
    // Rows of sessions whose process went away end at their ttl all the same.
    await this.o.db
      .updateTable('browser_sessions')
      .set({ status: 'destroyed', destroyed_at: now })
      .where('status', '=', 'active')
      .where('expires_at', '<', now)
      .execute()
      .catch(() => undefined);
    await this.chargeOrphans(now).catch((e: unknown) => this.o.log.warn({ err: e }, 'charging ended browser sessions failed'));
  }
}

function cdpOf(ctx: SessionContext): LiveSession['cdp'] {
  const endpoint = (ctx as Partial<CdpSessionContext>).cdpEndpoint;
  return endpoint ? { endpoint, token: randomBytes(32).toString('base64url'), connections: new Set() } : undefined;
}

function view(s: LiveSession, status: 'active' | 'destroyed'): SessionView {
  return {
    ...(s.cdp ? { cdpToken: s.cdp.token } : {}),
    id: s.id,
    status,
    createdAt: new Date(s.createdAt).toISOString(),
    lastActivity: new Date(s.lastActivity).toISOString(),
    expiresAt: new Date(s.expiresAt).toISOString(),
    creditsUsed: 0,
  };
}
