/**
 * Date renewals for the PostgreSQL index, sent together: while one batch's UPDATE is on its way,
 * the renewals that arrive wait and go as the next one. A re-crawl's concurrent pages thus share
 * a round trip and a statement instead of taking one each, and a lone renewal waits for nothing.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { RENEW_AFTER_MS } from './local-index.js';

/** Enough for a crawl's concurrent pages; bounds one statement's parameters and locks. */
const MAX_BATCH = 256;

interface Renewal {
  teamId: string;
  url: string;
  sourceHash: string;
  indexedAt: number;
  resolve(renewed: boolean): void;
  reject(err: unknown): void;
}

const keyOf = (teamId: string, url: string, sourceHash: string) => JSON.stringify([teamId, url, sourceHash]);

export class PostgresRenewals {
  private waiting: Renewal[] = [];
  private sending = false;

  constructor(private readonly db: Kysely<Database>) {}

  /** True when the page held that source and its date is renewed. */
  renew(teamId: string, url: string, sourceHash: string, indexedAt: number): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ teamId, url, sourceHash, indexedAt, resolve, reject });
      if (!this.sending) void this.send();
    });
  }

  private async send(): Promise<void> {
    this.sending = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        try {
          const renewed = await this.update(batch);
          for (const r of batch) r.resolve(renewed.has(keyOf(r.teamId, r.url, r.sourceHash)));
        } catch {
          // Two processes renewing the same pages in different orders can deadlock; one page at
          // a time locks one row and cannot.
          for (const r of batch) this.update([r]).then((renewed) => r.resolve(renewed.size > 0), r.reject);
        }
      }
    } finally {
      this.sending = false;
    }
  }

  private async update(batch: Renewal[]): Promise<Set<string>> {
    const res = await sql<{ team_id: string; url: string; source_hash: string }>`UPDATE search_pages p SET indexed_at = CASE WHEN v.at - p.indexed_at < ${sql.lit(RENEW_AFTER_MS)} THEN p.indexed_at ELSE v.at END
      FROM unnest(${batch.map((r) => r.teamId)}::text[], ${batch.map((r) => r.url)}::text[], ${batch.map((r) => r.sourceHash)}::text[],
        ${batch.map((r) => r.indexedAt)}::bigint[]) AS v(team_id, url, source_hash, at)
      WHERE p.team_id = v.team_id AND p.url = v.url AND p.source_hash = v.source_hash
      RETURNING p.team_id, p.url, p.source_hash`.execute(this.db);
    return new Set(res.rows.map((r) => keyOf(r.team_id, r.url, r.source_hash)));
  }
}
