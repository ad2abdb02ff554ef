/** Table shapes as the database holds them. Times are epoch milliseconds. */
import type { Generated } from 'kysely';

export interface TeamsTable {
  id: string;
  name: string;
  plan: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  team_id: string;
  name: string;
  /** SHA-256 hex of the full key; the key itself is never stored. */
  key_hash: string;
  /** First characters of the key, shown in listings so a person can tell keys apart. */
  prefix: string;
  /** JSON array of scope names. */
  scopes: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

export interface ScrapeCacheTable {
  team_id: string;
  cache_key: string;
  url: string;
  /** JSON of the cached Document. */
  document: string;
  stored_at: number;
}

export interface ScrapesTable {
  id: string;
  team_id: string;
  url: string;
  /** JSON of the returned Document. */
  document: string;
  created_at: number;
}

export interface BlobsTable {
  id: string;
  team_id: string;
  mime: string;
  size: number;
  created_at: number;
  expires_at: number;
}

export interface MigrationsTable {
  id: Generated<number>;
  name: string;
  applied_at: number;
}

export interface Database {
  teams: TeamsTable;
  api_keys: ApiKeysTable;
  scrape_cache: ScrapeCacheTable;
  scrapes: ScrapesTable;
  blobs: BlobsTable;
}
