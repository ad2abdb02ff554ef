/**
 * A Gleaner server for bench/ledger.ts: the same assembly as `gleaner serve`, run from source,
 * with the credit ledger either as it is or, with BENCH_LEDGER=off, replaced by one that admits
 * every request and writes nothing. Both sides of the comparison run this file, so they differ
 * in the ledger alone. The key's team gets a large metered balance, so the ledger's checks run
 * the path of a paying team rather than the self-hosted shortcut.
 */
import { loadConfig } from '../src/config.js';
import type { Charge, CreditLedger } from '../src/billing/ledger.js';
import { buildApp } from '../src/http/app.js';
import { createLogger } from '../src/log.js';
import { bootstrapKey, createRuntime } from '../src/runtime.js';
import { startWorkers } from '../src/workers.js';

/** The ledger a build without billing would have had: everyone can pay, nothing is written. */
function disable(ledger: CreditLedger): void {
  Object.assign(ledger, {
    canPay: async () => true,
    charge: async (c: Charge) => c.credits,
  });
}

const config = loadConfig(process.env);
const rt = await createRuntime(config, createLogger(config, 'stderr'));
await bootstrapKey(rt);
await rt.ledger.setPeriodCredits(await rt.keys.ensureTeam('default'), 1_000_000_000);
if (process.env.BENCH_LEDGER === 'off') disable(rt.ledger);
const app = await buildApp(rt);
await app.listen({ port: config.port, host: config.host });
process.stdout.write(`Gleaner listening on http://${config.host}:${(app.server.address() as { port: number }).port}\n`);
const workers = startWorkers(rt);

process.on('SIGTERM', () => {
  void (async () => {
    await app.close();
    workers.stop();
    await rt.close();
    process.exit(0);
  })();
});
