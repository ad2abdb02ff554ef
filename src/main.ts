#!/usr/bin/env node
/**
 * The `gleaner` command: `serve` (API + workers, the default), `api`, `worker`,
 * `keys create|list|revoke`, and `scrape URL` through the same pipeline as the API.
 *
 * The server parts (HTTP app, workers, the full Runtime) are imported inside the commands that
 * run them: loading them took seconds, which every operator command paid for a few queries.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { ApiError } from './errors.js';
import { auditCommand, creditsCommand, operatorEvent, teamsCommand } from './accounts-cli.js';
import { createAccountsRuntime, type AccountsRuntime } from './accounts-runtime.js';
import type { Runtime } from './runtime.js';
import { listenFailure, StartupError } from './startup.js';
import { hashKey, SCOPES } from './store/keys.js';

const USAGE = `Usage: gleaner <command>

  serve                 start the API and the workers in one process (default)
  api                   start the HTTP API only
  worker                start the background workers only
  keys create [--name N] [--team T] [--scopes a,b] [--plan P]
                        create an API key (printed once)
  keys list             list keys (prefixes only)
  keys revoke <id|key>  revoke a key
  teams list            list teams with their plan and credits
  teams create <name> [plan]
  teams set-plan <team> <plan>
                        plans: free, standard, scale, self-hosted
  teams threat-policy <team> [show | key=value ... | '{json}']
                        the team's threat protection policy (README)
  teams zdr <team> [on|off]
                        zero data retention for the team's requests
  credits show <team>   the team's credits this period
  credits grant <team> <n>
                        top up: credits that stay until spent
  credits limit <team> <n|unlimited|plan>
                        set the credits granted per period
  audit enable|disable <team>
                        keep (or stop keeping) the team's audit log
  audit list [team]     audit events as JSON lines
  scrape <url> [--format markdown|html|json]
                        scrape one page and print it
`;

/** Every engine, queue and service: for `scrape`, which runs the API's pipeline. */
async function withRuntime<T>(config: Config, fn: (rt: Runtime) => Promise<T>): Promise<T> {
  const [{ createRuntime }, { createLogger }] = await Promise.all([import('./runtime.js'), import('./log.js')]);
  return closingAfter(await createRuntime(config, createLogger({ logLevel: 'warn' }, 'stderr')), fn);
}

/** The store and the account repositories only: what the operator's commands need. */
async function withAccounts<T>(config: Config, fn: (rt: AccountsRuntime) => Promise<T>): Promise<T> {
  return closingAfter(await createAccountsRuntime(config), fn);
}

async function closingAfter<R extends { close(): Promise<void> }, T>(rt: R, fn: (rt: R) => Promise<T>): Promise<T> {
  try {
    return await fn(rt);
  } finally {
    await rt.close();
  }
}

/** Seconds running tasks get to finish on SIGTERM before they are handed back to the queue. */
const DRAIN_MS = 20_000;

async function serve(config: Config, parts: { api: boolean; workers: boolean }): Promise<void> {
  const [{ createLogger }, { bootstrapKey, createRuntime }, { buildApp }, { startWorkers }] = await Promise.all([
    import('./log.js'),
    import('./runtime.js'),
    import('./http/app.js'),
    import('./workers.js'),
  ]);
  const log = createLogger(config);
  const rt = await createRuntime(config, log);
  const first: { key?: string } = parts.api ? await bootstrapKey(rt) : {};
  if (first.key) {
    process.stdout.write(`\nFirst API key for this installation (shown once, keep it):\n\n  ${first.key}\n\n`);
  }
  const app = parts.api ? await buildApp(rt) : undefined;
  if (app) {
    try {
      await app.listen({ port: config.port, host: config.host });
    } catch (e) {
      // Nothing has started taking jobs yet: let go of the store and queue, then say why.
      await Promise.race([rt.close(), new Promise((r) => setTimeout(r, 5000).unref())]);
      throw listenFailure(e, config.host, config.port);
    }
    process.stdout.write(`Gleaner listening on http://${config.host}:${(app.server.address() as { port: number }).port}\n`);
  }
  // Workers start once the API listens, so a process that cannot serve never takes a job.
  const workers = parts.workers ? startWorkers(rt) : undefined;
  if (workers) process.stdout.write(`Gleaner workers running (${rt.queues.kind} queue, concurrency ${config.workerConcurrency})\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), DRAIN_MS + 15_000);
    force.unref();
    try {
      await app?.close(); // stops accepting, lets in-flight requests finish
      workers?.stop();
      await rt.close(workers ? DRAIN_MS : 0);
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

async function keys(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { name: { type: 'string' }, team: { type: 'string' }, scopes: { type: 'string' }, plan: { type: 'string' } },
  });
  const [action, target] = positionals;
  await withAccounts(config, async (rt) => {
    switch (action) {
      case 'create': {
        const scopes = values.scopes?.split(',').map((s) => s.trim()).filter(Boolean) ?? ['*'];
        const unknown = scopes.filter((s) => s !== '*' && !(SCOPES as readonly string[]).includes(s));
        if (unknown.length) throw new UsageError(`unknown scope(s): ${unknown.join(', ')}; known: ${SCOPES.join(', ')}`);
        const teamId = await rt.keys.ensureTeam(values.team ?? 'default', values.plan);
        if (values.plan) await rt.keys.setPlan(teamId, values.plan);
        const { id, key } = await rt.keys.create({ teamId, name: values.name ?? 'cli', scopes });
        await operatorEvent(rt, teamId, 'keys create', id);
        process.stdout.write(`${key}\n`);
        process.stderr.write(`created key ${id} for team ${values.team ?? 'default'} (scopes: ${scopes.join(',')})\n`);
        return;
      }
      case 'list': {
        for (const k of await rt.keys.list()) {
          const state = k.revokedAt ? `revoked ${new Date(k.revokedAt).toISOString()}` : 'active';
          process.stdout.write(`${k.id}  ${k.prefix}…  team=${k.teamName}  name=${k.name}  scopes=${k.scopes.join(',')}  ${state}\n`);
        }
        return;
      }
      case 'revoke': {
        if (!target) throw new UsageError('keys revoke needs a key id or the key');
        const owner = await rt.store.db
          .selectFrom('api_keys')
          .select(['id', 'team_id as teamId'])
          .where((eb) => eb.or([eb('id', '=', target), eb('key_hash', '=', hashKey(target))]))
          .executeTakeFirst();
        const ok = await rt.keys.revoke(target);
        if (!ok) throw new UsageError(`no active key matches ${target}`);
        if (owner) await operatorEvent(rt, owner.teamId, 'keys revoke', owner.id);
        process.stdout.write('revoked\n');
        return;
      }
      default:
        throw new UsageError(`unknown keys action: ${action ?? '(none)'}`);
    }
  });
}

async function scrapeCommand(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { format: { type: 'string', default: 'markdown' } } });
  const url = positionals[0];
  if (!url) throw new UsageError('scrape needs a URL');
  const format = values.format;
  if (format !== 'markdown' && format !== 'html' && format !== 'json') throw new UsageError('--format is markdown, html or json');
  const { scrapeRequestSchema } = await import('./scrape/options.js');
  const parsed = scrapeRequestSchema.parse({ url, formats: format === 'json' ? ['markdown', 'links'] : [format] });
  const { url: target, ...options } = parsed;
  await withRuntime(config, async (rt) => {
    const teamId = await rt.keys.ensureTeam('cli');
    const doc = await rt.scraper.scrape(target, options, { teamId, absoluteUrl: (p) => `http://${config.host}:${config.port}${p}` });
    const out = format === 'json' ? JSON.stringify(doc, null, 2) : format === 'html' ? doc.html : doc.markdown;
    process.stdout.write(`${out ?? ''}\n`);
  });
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return serve(config, { api: true, workers: true });
    case 'api':
      return serve(config, { api: true, workers: false });
    case 'worker':
      return serve(config, { api: false, workers: true });
    case 'keys':
      return keys(config, rest);
    case 'scrape':
      return scrapeCommand(config, rest);
    case 'teams':
    case 'credits':
    case 'audit': {
      const run = command === 'teams' ? teamsCommand : command === 'credits' ? creditsCommand : auditCommand;
      return withAccounts(config, (rt) => run(rt, rest, (line) => process.stdout.write(`${line}\n`), (m) => new UsageError(m)));
    }
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return;
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof UsageError) process.stderr.write(`gleaner: ${e.message}\n\n${USAGE}`);
  else if (e instanceof ConfigError || e instanceof StartupError) process.stderr.write(`gleaner: ${e.message}\n`);
  else if (e instanceof ApiError) process.stderr.write(`gleaner: ${e.message}${e.code ? ` (${e.code})` : ''}\n`);
  else process.stderr.write(`gleaner: ${(e as Error)?.stack ?? String(e)}\n`);
  // Exit now: timers, sockets or threads of a half-started runtime would keep the process alive.
  process.exit(1);
});
