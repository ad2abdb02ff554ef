/**
 * The credit ledger and each team's account. The ledger is append-only: one row per billable
 * cause, unique per team, so writing the same cause twice (a retried task, a replayed job page)
 * changes nothing. The account row holds the running balance the ledger adds up to, so a
 * request's credit check is one primary-key read rather than a sum.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('credit_ledger')
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('cause', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text')
      .addColumn('credits', 'integer', (c) => c.notNull())
      // The billing period (UTC 'YYYY-MM') the entry falls in, so usage sums group by a column.
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('credit_ledger_pk', ['team_id', 'cause'])
      .execute();
    await db.schema.createIndex('credit_ledger_team_period').on('credit_ledger').columns(['team_id', 'period']).execute();
    // Model tokens, written by the model layer under the same once-per-cause rule.
    await db.schema
      .createTable('token_ledger')
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('cause', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text')
      .addColumn('tokens', 'integer', (c) => c.notNull())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('token_ledger_pk', ['team_id', 'cause'])
      .execute();
    await db.schema
      .createTable('credit_accounts')
      .addColumn('team_id', 'text', (c) => c.primaryKey())
      .addColumn('balance', 'bigint', (c) => c.notNull())
      // The operator's override of the plan's credits per period: null the plan's, -1 unlimited.
      .addColumn('period_credits', 'bigint')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
