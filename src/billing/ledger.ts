/**
 * The credit ledger: every charge and grant is a row keyed by its cause, unique per team, and
 * the team's balance moves in the same transaction as the row is written. Writing a cause that
 * is already there changes nothing and answers the credits first charged for it, so a retried
 * scrape, a replayed job page or a worker that dies after the write never charges twice, and a
 * worker that dies before it has charged nothing for work it did not hand over.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Plan } from './plans.js';

interface CreditLedgerTable {
  team_id: string;
  cause: string;
  /** charge | grant | plan */
  kind: string;
  key_id: string | null;
  credits: number;
  period: string;
  created_at: number;
}

interface CreditAccountsTable {
  team_id: string;
  balance: number;
  period_credits: number | null;
  updated_at: number;
}

interface TokenLedgerTable {
  team_id: string;
  cause: string;
  key_id: string | null;
  tokens: number;
  period: string;
  created_at: number;
}

export interface BillingTables {
  credit_ledger: CreditLedgerTable;
  credit_accounts: CreditAccountsTable;
  token_ledger: TokenLedgerTable;
  teams: { id: string; name: string; plan: string; created_at: number };
}

/** A database handle or an open transaction of any schema that holds the billing tables. */
export type AnyDb = Kysely<any>;

/** `period_credits` value meaning the operator lifted the limit. */
export const UNLIMITED = -1;

export interface Charge {
  teamId: string;
  keyId?: string | null;
  /** What caused it, e.g. `scrape:<id>` or `crawl:<id>:<urlKey>`; a cause is charged once. */
  cause: string;
  credits: number;
}

export interface Period {
  /** UTC 'YYYY-MM'. */
  id: string;
  start: Date;
  end: Date;
}

export function periodOf(at: number): Period {
  const d = new Date(at);
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const end = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  return { id: start.toISOString().slice(0, 7), start, end };
}

export interface Account {
  teamId: string;
  plan: string;
  /** Credits granted per period; null when the team is never blocked. */
  periodCredits: number | null;
  /** Grants (plan and top-ups) less charges, over the team's life. */
  balance: number;
  period: Period;
}

export interface UsagePeriod {
  startDate: string | null;
  endDate: string | null;
  apiKey?: string;
  amount: number;
}

export class InsufficientCredits extends Error {}

export class CreditLedger {
  private readonly db: Kysely<BillingTables>;
  /** Teams whose grant for the current period is known to be written, by `team|period`. */
  private readonly granted = new Set<string>();

  constructor(
    db: AnyDb,
    private readonly plans: Record<string, Plan>,
    private readonly defaultPlan: string,
    private readonly now: () => number = Date.now,
  ) {
    this.db = db as Kysely<BillingTables>;
  }

  /**
   * Charges a cause once. Pass the caller's transaction to make the charge part of the work it
   * pays for (a crawl page's result and its charge commit together). Answers the credits charged
   * for this cause, now or earlier.
   */
  async charge(c: Charge, trx?: AnyDb): Promise<number> {
    if (trx) return this.entry(trx as Kysely<BillingTables>, c, 'charge');
    return this.db.transaction().execute((t) => this.entry(t, c, 'charge'));
  }

  /** A top-up: credits that stay until spent. */
  async grant(teamId: string, credits: number, cause = `grant:${randomUUID()}`): Promise<number> {
    return this.db.transaction().execute((t) => this.entry(t, { teamId, cause, credits }, 'grant'));
  }

  /** Model tokens, once per cause; read back by the token-usage endpoints. */
  async recordTokens(c: { teamId: string; keyId?: string | null; cause: string; tokens: number }): Promise<void> {
    const now = this.now();
    await this.db
      .insertInto('token_ledger')
      .values({ team_id: c.teamId, cause: c.cause, key_id: c.keyId ?? null, tokens: c.tokens, period: periodOf(now).id, created_at: now })
      .onConflict((oc) => oc.columns(['team_id', 'cause']).doNothing())
      .execute();
  }

  async account(teamId: string): Promise<Account> {
    const period = periodOf(this.now());
    // One read for the plan and the account: every billable request and crawl page asks this.
    const joined = await this.db
      .selectFrom('teams')
      .leftJoin('credit_accounts', 'credit_accounts.team_id', 'teams.id')
      .select(['teams.plan', 'credit_accounts.balance', 'credit_accounts.period_credits'])
      .where('teams.id', '=', teamId)
      .executeTakeFirst();
    const plan = joined?.plan ?? this.defaultPlan;
    let row = joined ? { balance: joined.balance, period_credits: joined.period_credits } : await this.readAccount(teamId);
    const periodCredits = this.periodCredits(plan, row?.period_credits ?? null);
    if (periodCredits !== null && !this.granted.has(`${teamId}|${period.id}`)) {
      // The period's plan credits are a grant like any other, written the first time the team is
      // looked at in the period; its cause makes every process write it once. Read the balance
      // again after: another process may have written the grant since the first read.
      await this.db.transaction().execute((t) => this.entry(t, { teamId, cause: `plan:${period.id}`, credits: periodCredits }, 'plan', true));
      this.granted.add(`${teamId}|${period.id}`);
      row = await this.readAccount(teamId);
    }
    return { teamId, plan, periodCredits, balance: Number(row?.balance ?? 0), period };
  }

  private readAccount(teamId: string) {
    return this.db.selectFrom('credit_accounts').select(['balance', 'period_credits']).where('team_id', '=', teamId).executeTakeFirst();
  }

  /** Whether the team may start work costing `credits`; teams without a limit always may. */
  async canPay(teamId: string, credits: number): Promise<boolean> {
    const a = await this.account(teamId);
    return a.periodCredits === null || a.balance >= credits;
  }

  /** Sets (a number), lifts (UNLIMITED) or resets to the plan's (null) a team's credits per period. */
  async setPeriodCredits(teamId: string, credits: number | null): Promise<void> {
    const now = this.now();
    await this.db
      .insertInto('credit_accounts')
      .values({ team_id: teamId, balance: 0, period_credits: credits, updated_at: now })
      .onConflict((oc) => oc.column('team_id').doUpdateSet({ period_credits: credits, updated_at: now }))
      .execute();
  }

  /** Charged credits per period, newest first, optionally per key. */
  async creditHistory(teamId: string, byKey: boolean): Promise<UsagePeriod[]> {
    let q = this.db
      .selectFrom('credit_ledger')
      .select(['period', (eb) => eb.fn.sum<number>('credits').as('amount')])
      .where('team_id', '=', teamId)
      .where('kind', '=', 'charge')
      .groupBy('period');
    if (byKey) q = q.select('key_id').groupBy('key_id');
    const rows = (await q.orderBy('period', 'desc').execute()) as Array<{ period: string; amount: number | string; key_id?: string | null }>;
    return rows.map((r) => toUsage(r, byKey));
  }

  async tokenHistory(teamId: string, byKey: boolean): Promise<UsagePeriod[]> {
    let q = this.db
      .selectFrom('token_ledger')
      .select(['period', (eb) => eb.fn.sum<number>('tokens').as('amount')])
      .where('team_id', '=', teamId)
      .groupBy('period');
    if (byKey) q = q.select('key_id').groupBy('key_id');
    const rows = (await q.orderBy('period', 'desc').execute()) as Array<{ period: string; amount: number | string; key_id?: string | null }>;
    return rows.map((r) => toUsage(r, byKey));
  }

  async tokensInPeriod(teamId: string): Promise<number> {
    const r = await this.db
      .selectFrom('token_ledger')
      .select((eb) => eb.fn.sum<number>('tokens').as('n'))
      .where('team_id', '=', teamId)
      .where('period', '=', periodOf(this.now()).id)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** A plan by name, the default plan when the name is unknown. */
  plan(name: string): Plan {
    return this.plans[name] ?? this.plans[this.defaultPlan]!;
  }

  private periodCredits(plan: string, override: number | null): number | null {
    if (override !== null) return Number(override) === UNLIMITED ? null : Number(override);
    return (this.plans[plan] ?? this.plans[this.defaultPlan])?.creditsPerPeriod ?? null;
  }

  /** Writes one entry and moves the balance, unless the cause is already there. */
  private async entry(t: Kysely<BillingTables>, c: Charge, kind: 'charge' | 'grant' | 'plan', quietRepeat = false): Promise<number> {
    const now = this.now();
    const inserted = await t
      .insertInto('credit_ledger')
      .values({ team_id: c.teamId, cause: c.cause, kind, key_id: c.keyId ?? null, credits: c.credits, period: periodOf(now).id, created_at: now })
      .onConflict((oc) => oc.columns(['team_id', 'cause']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      if (quietRepeat) return 0;
      const earlier = await t.selectFrom('credit_ledger').select('credits').where('team_id', '=', c.teamId).where('cause', '=', c.cause).executeTakeFirst();
      return Number(earlier?.credits ?? 0);
    }
    const delta = kind === 'charge' ? -c.credits : c.credits;
    await t
      .insertInto('credit_accounts')
      .values({ team_id: c.teamId, balance: delta, period_credits: null, updated_at: now })
      .onConflict((oc) => oc.column('team_id').doUpdateSet({ balance: sql`credit_accounts.balance + ${delta}`, updated_at: now }))
      .execute();
    return c.credits;
  }
}

function toUsage(r: { period: string; amount: number | string; key_id?: string | null }, byKey: boolean): UsagePeriod {
  const p = periodOf(Date.parse(`${r.period}-01T00:00:00Z`));
  const out: UsagePeriod = { startDate: p.start.toISOString(), endDate: p.end.toISOString(), amount: Number(r.amount) };
  if (byKey) out.apiKey = r.key_id ?? '';
  return out;
}
