/**
 * The store and the account repositories (keys, credits, audit log, team policies): all the
 * operator's commands (`gleaner keys|teams|credits|audit`) run on, and the base the full Runtime
 * builds the engines, queues and services on. It loads nothing that fetches, renders or
 * schedules, so a command that makes a few queries does not pay seconds to start.
 */
import { AuditLog } from './billing/audit.js';
import { CreditLedger } from './billing/ledger.js';
import { DEFAULT_PLAN, plans } from './billing/plans.js';
import type { Config } from './config.js';
import { HttpClassifier } from './security/threat/classifier-http.js';
import { ListClassifier } from './security/threat/classifier-lists.js';
import type { UrlClassifier } from './security/threat/decide.js';
import { TeamPolicyStore } from './security/threat/store.js';
import { ensureWritableDataDir, StartupError, storeFailure } from './startup.js';
import { openStore, type Store } from './store/db.js';
import { KeyRepository } from './store/keys.js';

export interface Accounts {
  keys: KeyRepository;
  /** Credits: every charge and grant, and each team's balance. */
  ledger: CreditLedger;
  /** Audit events of the teams that keep a log. */
  audit: AuditLog;
  /** Each team's threat protection policy and zero data retention flag. */
  teamPolicies: TeamPolicyStore;
}

export interface AccountsRuntime extends Accounts {
  config: Config;
  store: Store;
  close(): Promise<void>;
}

export interface ConfiguredStoreOptions {
  /** PostgreSQL schema (tests use one per run); else the configured one. */
  dbSchema?: string;
}

/**
 * How every process starts: what an operator can get wrong is checked first, each with a
 * StartupError naming the setting, then the store opens (migrated). The threat classifier is
 * built here so that a domain list that does not parse stops any command, not only the server.
 */
export async function openConfiguredStore(config: Config, opts: ConfiguredStoreOptions = {}): Promise<{ store: Store; classifier: UrlClassifier | undefined }> {
  ensureWritableDataDir(config.dataDir);
  const classifier = threatClassifier(config);
  const schema = opts.dbSchema ?? config.databaseSchema;
  const store = await openStore({
    dataDir: config.dataDir,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    ...(schema ? { schema } : {}),
  }).catch((e: unknown) => {
    throw storeFailure(e, config);
  });
  return { store, classifier };
}

export function accountsOn(config: Config, store: Store): Accounts {
  return {
    keys: new KeyRepository(store.db),
    ledger: new CreditLedger(store.db, plans(config.rateLimitPerMinute), DEFAULT_PLAN),
    audit: new AuditLog(store.db),
    teamPolicies: new TeamPolicyStore(store.db),
  };
}

export async function createAccountsRuntime(config: Config, opts: ConfiguredStoreOptions = {}): Promise<AccountsRuntime> {
  const { store } = await openConfiguredStore(config, opts);
  return { config, store, ...accountsOn(config, store), close: () => store.close() };
}

/** The HTTP classifier when configured, else the operator's domain lists, else none. */
function threatClassifier(config: Config): UrlClassifier | undefined {
  if (config.threatClassifierUrl) return new HttpClassifier(config.threatClassifierUrl, config.threatClassifierTimeoutMs);
  if (config.threatDomainLists.length === 0) return undefined;
  try {
    return ListClassifier.fromFiles(config.threatDomainLists);
  } catch (e) {
    throw new StartupError(`cannot read the threat domain lists (${(e as Error).message}): check THREAT_DOMAIN_LISTS`, { cause: e });
  }
}
