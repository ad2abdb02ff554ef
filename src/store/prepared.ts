/**
 * Queries built and compiled once, then run with fresh values. Kysely builds a tree of frozen
 * nodes and compiles it to SQL on every call, some 8 µs a query; a crawl runs half a dozen on
 * every page, on the thread that also fetches and answers requests. A prepared query is written
 * with the query builder as usual, its values named placeholders; each run puts the values in the
 * compiled parameter list. Only plain values can be placeholders: not lists (`in`), whose length
 * shapes the SQL.
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.js';

/** A named value, filled in when the query runs. */
class Placeholder {
  constructor(readonly name: string) {}
}

export type Runner<V, R> = (values: V, on?: Kysely<Database>) => Promise<QueryResult<R>>;

/**
 * `build(v)` builds the query from `v`'s fields; run it with `(values, on?)`, on the database it
 * was prepared on or on a transaction of it.
 */
export function prepared<V extends Record<string, unknown>, R>(db: Kysely<Database>, build: (v: V) => Compilable<R>): Runner<V, R> {
  let compiled: CompiledQuery<R> | undefined;
  let names: Array<keyof V | undefined> = [];
  return (values, on = db) => {
    if (!compiled) {
      const slots = new Proxy({} as V, { get: (_t, name) => new Placeholder(String(name)) });
      compiled = build(slots).compile();
      names = compiled.parameters.map((p) => (p instanceof Placeholder ? (p.name as keyof V) : undefined));
    }
    const parameters = compiled.parameters.map((p, i) => {
      const name = names[i];
      return name === undefined ? p : values[name];
    });
    return on.executeQuery<R>({ ...compiled, parameters });
  };
}

export const affected = (r: QueryResult<unknown>): number => Number(r.numAffectedRows ?? 0);
