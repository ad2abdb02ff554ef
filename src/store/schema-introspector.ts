/**
 * The migrator's view of a PostgreSQL database, limited to the store's own schema.
 *
 * Kysely's own introspector reads every schema's tables and, for each column, looks its table up
 * again by name. When another store drops its schema meanwhile (test runs in parallel, each in a
 * schema of its own), those lookups fail with "schema ... does not exist" and the migration
 * fails with them. The migrator only asks whether its schema and its two bookkeeping tables
 * exist, so this answers exactly that, from the catalog, for one schema.
 */
import { PostgresDialect, sql, type DatabaseIntrospector, type DatabaseMetadata, type Kysely, type PostgresDialectConfig, type SchemaMetadata, type TableMetadata } from 'kysely';

class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`SELECT nspname AS name FROM pg_catalog.pg_namespace WHERE nspname = ${this.schema}`.execute(this.db);
    return rows.map((r) => ({ name: r.name }));
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; kind: string }>`
      SELECT c.relname AS name, c.relkind AS kind
      FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ${this.schema} AND c.relkind IN ('r', 'v', 'p')`.execute(this.db);
    return rows.map((r) => ({ name: r.name, schema: this.schema, isView: r.kind === 'v', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/** PostgreSQL for a store kept in one schema: the migrator looks at that schema only. */
export class SchemaPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly schema: string,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaIntrospector(db, this.schema);
  }
}
