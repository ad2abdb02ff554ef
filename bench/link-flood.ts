/**
 * How long a page with a flood of links holds the server's event loop during a crawl: a Gleaner
 * child crawls a local page of 650,000 links (limit 2), while this process asks `/health` every
 * 20 ms and records the slowest answer. The baseline, in the same run, is a page of 1,000 links.
 *
 * `node --import tsx bench/link-flood.ts [--links N]` runs it alone.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { api, startGleanerChild, type GleanerChild } from './gleaner-child.js';

export interface LinkFloodResult {
  links: number;
  htmlMb: number;
  /** Slowest /health answer while the crawl ran, ms. */
  worstHealthMs: number;
  crawlMs: number;
  peakRssMb: number | undefined;
}

function linkPage(n: number): string {
  // Terse markup, so that 650,000 links fit the default MAX_RESPONSE_BYTES.
  const parts = ['<!doctype html><html><head><title>Index</title></head><body><main><h1>Index</h1><p>'];
  for (let i = 0; i < n; i++) parts.push(`<a href="/${i}">${i}</a> `);
  parts.push('</p></main></body></html>');
  return parts.join('');
}

async function serve(n: number): Promise<{ url: string; bytes: number; close: () => Promise<void> }> {
  const page = Buffer.from(linkPage(n));
  const server = http.createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.length });
      res.end(page);
      return;
    }
    res.writeHead(req.url === '/robots.txt' || req.url?.startsWith('/sitemap') ? 404 : 200, { 'content-type': 'text/html' });
    res.end('<html><body><p>leaf</p></body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, bytes: page.length, close: () => new Promise((r) => server.close(() => r())) };
}

/** Polls /health until `done` resolves; the slowest answer in ms. */
async function worstHealth(g: GleanerChild, done: Promise<unknown>): Promise<number> {
  let finished = false;
  void done.finally(() => (finished = true));
  let worst = 0;
  while (!finished) {
    const t = performance.now();
    await fetch(`${g.url}/health`).then((r) => r.arrayBuffer());
    worst = Math.max(worst, performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  return worst;
}

async function crawlOnce(g: GleanerChild, url: string): Promise<void> {
  const { id } = await api<{ id: string }>(g, 'POST', '/v2/crawl', { url, limit: 2, sitemap: 'skip', scrapeOptions: { formats: ['markdown'] } });
  for (;;) {
    const s = await api<{ status: string }>(g, 'GET', `/v2/crawl/${id}`);
    if (s.status !== 'scraping') return;
    // The SDK's waiter polls every 2 s; each poll here reads the page's large Document back.
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function measure(links: number): Promise<LinkFloodResult> {
  const site = await serve(links);
  const g = await startGleanerChild({ concurrency: 2 });
  try {
    const t = performance.now();
    const crawl = crawlOnce(g, site.url);
    const worstHealthMs = await worstHealth(g, crawl);
    await crawl;
    const crawlMs = performance.now() - t;
    const { peakRssKb } = await g.stop();
    return { links, htmlMb: site.bytes / 1e6, worstHealthMs, crawlMs, peakRssMb: peakRssKb === undefined ? undefined : peakRssKb / 1024 };
  } finally {
    await site.close();
  }
}

export async function runLinkFloodBench(opts: { links?: number } = {}): Promise<LinkFloodResult[]> {
  return [await measure(1_000), await measure(opts.links ?? 650_000)];
}

export function printLinkFloodBench(rows: LinkFloodResult[]): void {
  console.log('\nLink flood: a crawl (limit 2) of a page with many links; slowest /health answer meanwhile');
  console.log('  links      html MB   worst /health ms   crawl ms   peak RSS MB');
  for (const r of rows) {
    console.log(
      `  ${String(r.links).padEnd(10)} ${r.htmlMb.toFixed(1).padStart(7)}   ${r.worstHealthMs.toFixed(0).padStart(16)}   ${r.crawlMs.toFixed(0).padStart(8)}   ${r.peakRssMb?.toFixed(0).padStart(11) ?? 'n/a'}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--links');
  printLinkFloodBench(await runLinkFloodBench(i > 0 ? { links: Number(process.argv[i + 1]) } : {}));
}
