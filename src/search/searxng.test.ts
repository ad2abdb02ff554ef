import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SearxngProvider } from './searxng.js';
import type { ProviderQuery } from './types.js';

const query = (): ProviderQuery => ({
  teamId: 't',
  query: 'white tea',
  source: 'web',
  limit: 1,
  categories: [],
  includeDomains: [],
  excludeDomains: [],
  signal: AbortSignal.timeout(5000),
  now: Date.now(),
});

let server: http.Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** An HTTP server answering /search with the given statuses in turn (the last one repeats). */
async function instance(statuses: number[]): Promise<{ url: string; searches: () => number }> {
  let searches = 0;
  server = http.createServer((req, res) => {
    if (!req.url?.startsWith('/search')) return res.writeHead(404).end();
    const status = statuses[Math.min(searches++, statuses.length - 1)]!;
    if (status !== 200) return res.writeHead(status, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: [{ url: 'https://tea.example/white', title: 'White tea', content: 'Keep it dry.' }] }));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, searches: () => searches };
}

describe('SearXNG answering an error', () => {
  it('tries once more after a 5xx and returns what the second answer holds', async () => {
    const searx = await instance([500, 200]);
    const answer = await new SearxngProvider({ baseUrl: searx.url }).search(query());
    expect(answer.hits.map((h) => h.url)).toEqual(['https://tea.example/white']);
    expect(searx.searches()).toBe(2);
  });

  it('fails with the status when the second answer is an error too', async () => {
    const searx = await instance([502]);
    await expect(new SearxngProvider({ baseUrl: searx.url }).search(query())).rejects.toThrow(/HTTP 502/);
    expect(searx.searches()).toBe(2);
  });
});
