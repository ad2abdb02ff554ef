/**
 * `npm run bench`: every benchmark, each printing our figure beside its baseline from the same
 * run. Benchmarks are not tests: nothing here passes or fails on a number.
 */
import { printCrawlBench, printSyntheticCrawlBench, runCrawlBench, runSyntheticCrawlBench } from './crawl.js';
import { runMarkdownBench, printMarkdownBench } from './markdown.js';
import { printDocsStructureBench, runDocsStructureBench } from './docs-structure.js';
import { printScrapeBench, runScrapeBench } from './scrape-throughput.js';
import { printMonitorBench, runMonitorBench } from './monitor.js';
import { printParseBench, runParseBench } from './parse.js';
import { printBrowserBench, runBrowserBench } from './browser.js';
import { printPatternBench, runPatternBench } from './patterns.js';
import { printIndexBench, printIndexingCrawlBench, runIndexBench, runIndexingCrawlBench } from './search.js';
import { printLlmOfflineBench, runLlmOfflineBench } from './llm-offline.js';
import { printLinkFloodBench, runLinkFloodBench } from './link-flood.js';
import { printLedgerBench, runLedgerBench } from './ledger.js';

const md = await runMarkdownBench();
if (md) printMarkdownBench(md);

printDocsStructureBench(runDocsStructureBench());

const scrape = await runScrapeBench();
if (scrape) printScrapeBench(scrape);

const crawl = await runCrawlBench({ rounds: 3 });
if (crawl) printCrawlBench(crawl);

printSyntheticCrawlBench(await runSyntheticCrawlBench());
printLinkFloodBench(await runLinkFloodBench());

printLedgerBench(await runLedgerBench());

printParseBench(await runParseBench());

printPatternBench(runPatternBench());
const llm = await runLlmOfflineBench();
if (llm) printLlmOfflineBench(llm);

printMonitorBench(await runMonitorBench());

const index = await runIndexBench();
if (index) printIndexBench(index);
for (const latencyMs of [0, 50]) {
  const indexingCrawl = await runIndexingCrawlBench({ latencyMs });
  if (indexingCrawl) printIndexingCrawlBench(indexingCrawl);
}

const browser = await runBrowserBench();
if (browser) printBrowserBench(browser);
