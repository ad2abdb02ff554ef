/**
 * The Crawlee side of the crawl benchmark, run by bench/crawl.ts in a process of its own so its
 * peak RSS is its own: a CheerioCrawler from one start URL over the same host, each page turned
 * into markdown with turndown + GFM (the work Gleaner does per page), storage in memory only.
 * Prints one line `BENCH_RESULT {json}` with pages, seconds and its peak RSS.
 *
 *   node --import tsx bench/crawlee-child.ts --url http://127.0.0.1:PORT/index.html [--pages 1000] [--concurrency 16] [--warmups N]
 *
 * Set CRAWLEE_STORAGE_DIR to a temporary folder: nothing is persisted, but Crawlee resolves it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { CheerioCrawler, Configuration, log } from '@crawlee/cheerio';

interface TurndownLike {
  turndown(html: string): string;
  use(plugin: unknown): void;
}

/** As bench/markdown.ts loads them: turndown ships no type declarations. */
function makeTurndown(): TurndownLike {
  const require = createRequire(import.meta.url);
  const TurndownService = require('turndown') as new (opts: object) => TurndownLike;
  const { gfm } = require('turndown-plugin-gfm') as { gfm: unknown };
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  td.use(gfm);
  return td;
}

/** A `kB` field of /proc/self/status (VmHWM, VmRSS), or undefined off Linux. */
function procStatusKb(field: string): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

const { values } = parseArgs({ options: { url: { type: 'string' }, pages: { type: 'string' }, concurrency: { type: 'string' }, warmups: { type: 'string' } } });
if (!values.url) throw new Error('--url is required');
const maxPages = Number(values.pages ?? 1000);
const concurrency = Number(values.concurrency ?? 16);

log.setLevel(log.LEVELS.WARNING);
const td = makeTurndown();
/** One crawl with a crawler and in-memory storage of its own, so a second run starts empty. */
async function crawlOnce() {
  let pages = 0;
  let failed = 0;
  let markdownChars = 0;
  const crawler = new CheerioCrawler(
    {
      // A fixed pool of 16, like Gleaner's workers; without minConcurrency Crawlee starts at 1 and ramps up.
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestsPerCrawl: maxPages,
      async requestHandler({ body, enqueueLinks }) {
        const html = typeof body === 'string' ? body : body.toString('utf8');
        markdownChars += td.turndown(html).length;
        pages++;
        await enqueueLinks({ strategy: 'same-hostname' });
      },
      failedRequestHandler() {
        failed++;
      },
    },
    new Configuration({ persistStorage: false }),
  );
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await crawler.run([values.url!]);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return { pages, failed, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, markdownChars };
}

// As on the Gleaner side, `--warmups N` crawls the same pages N times first and the next run is
// the one measured; the warm-up runs' figures are reported too.
const warmups = [];
for (let i = 0; i < Number(values.warmups ?? 0); i++) warmups.push(await crawlOnce());
const run = await crawlOnce();

const result = {
  ...run,
  warmups,
  vmHwmKb: procStatusKb('VmHWM'),
  vmRssKb: procStatusKb('VmRSS'),
  maxRssKb: process.resourceUsage().maxRSS,
};
process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
// Crawlee can leave timers (system status, session pool) behind; the figures are out, so leave.
process.exit(0);
