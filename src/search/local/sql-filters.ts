/** Domain, date and URL-prefix conditions on `search_pages p` for the PostgreSQL index. */
import { sql, type RawBuilder } from 'kysely';
import { escapeLike, type LocalQuery } from './local-index.js';

export function filters(q: LocalQuery): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  if (q.includeDomains?.length) {
    parts.push(sql`AND (${sql.join(q.includeDomains.map((d) => sql`(p.host = ${d} OR p.host LIKE ${'%.' + escapeLike(d)} ESCAPE '\\')`), sql` OR `)})`);
  }
  for (const d of q.excludeDomains ?? []) parts.push(sql`AND NOT (p.host = ${d} OR p.host LIKE ${'%.' + escapeLike(d)} ESCAPE '\\')`);
  if (q.from !== undefined) parts.push(sql`AND COALESCE(p.published_at, p.indexed_at) >= ${q.from}`);
  if (q.to !== undefined) parts.push(sql`AND COALESCE(p.published_at, p.indexed_at) <= ${q.to}`);
  if (q.urlPrefixes?.length) parts.push(prefixFilter(q.urlPrefixes));
  return parts.length ? sql.join(parts, sql` `) : sql``;
}

export function prefixFilter(prefixes: readonly string[]): RawBuilder<unknown> {
  if (!prefixes.length) return sql``;
  return sql`AND (${sql.join(prefixes.map((p) => sql`p.url LIKE ${escapeLike(p) + '%'} ESCAPE '\\'`), sql` OR `)})`;
}
