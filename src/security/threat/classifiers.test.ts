/**
 * The two classifiers: the HTTP one against a real local server speaking the protocol (and one
 * that is down, slow or wrong), and the domain-list one over an operator's list text.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClassifier } from './classifier-http.js';
import { ListClassifier } from './classifier-lists.js';
import { ClassifierUnavailable } from './decide.js';

describe('the HTTP classifier', () => {
  let server: Server;
  let base: string;
  const seen: unknown[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const { url } = JSON.parse(body) as { url: string };
        seen.push({ method: req.method, type: req.headers['content-type'], url });
        const host = new URL(url).hostname;
        if (req.url === '/slow') return void setTimeout(() => res.end('{"riskScore":1}'), 2_000);
        if (req.url === '/broken') return void res.writeHead(500).end('no');
        if (req.url === '/odd') return void res.end('{"score":5}');
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(host.startsWith('phish') ? { riskScore: 95, categories: ['phishing'] } : { riskScore: 3 }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('POSTs {url} as JSON and reads riskScore and categories', async () => {
    const c = new HttpClassifier(`${base}/classify`, 1_000);
    expect(await c.classify('https://phish.example/login')).toEqual({ riskScore: 95, categories: ['phishing'] });
    expect(await c.classify('https://fine.example/')).toEqual({ riskScore: 3 });
    expect(seen[0]).toEqual({ method: 'POST', type: 'application/json', url: 'https://phish.example/login' });
  });

  it('is unavailable when it times out, fails, answers the wrong shape or cannot be reached', async () => {
    await expect(new HttpClassifier(`${base}/slow`, 100).classify('https://a.example/')).rejects.toThrow(/no answer within 100 ms/);
    await expect(new HttpClassifier(`${base}/broken`, 1_000).classify('https://a.example/')).rejects.toThrow(/HTTP 500/);
    await expect(new HttpClassifier(`${base}/odd`, 1_000).classify('https://a.example/')).rejects.toThrow(/riskScore/);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(new HttpClassifier(`http://127.0.0.1:${port}/`, 1_000).classify('https://a.example/')).rejects.toBeInstanceOf(ClassifierUnavailable);
  });
});

describe('the domain-list classifier', () => {
  const lists = ListClassifier.fromText(
    ['# operator list', '', 'malware.example 100 malware', 'ads.example 40', 'phish.example phishing', 'deep.ads.example 90', 'ADS.example 10  # a lower score does not replace a higher one'].join('\n'),
  );

  it('scores a listed domain and its subdomains; unlisted hosts score 0', async () => {
    expect(await lists.classify('https://malware.example/x')).toEqual({ riskScore: 100, categories: ['malware'] });
    expect(await lists.classify('https://cdn.malware.example/x')).toEqual({ riskScore: 100, categories: ['malware'] });
    expect(await lists.classify('https://ads.example/')).toEqual({ riskScore: 40 });
    expect(await lists.classify('https://clean.example/')).toEqual({ riskScore: 0 });
    expect(await lists.classify('https://notmalware.example/')).toEqual({ riskScore: 0 });
  });

  it('a category without a score means 100; the highest matching entry wins', async () => {
    expect(await lists.classify('https://phish.example/')).toEqual({ riskScore: 100, categories: ['phishing'] });
    expect((await lists.classify('https://x.deep.ads.example/')).riskScore).toBe(90);
  });

  it('names the file and line of an entry it cannot read', () => {
    expect(() => ListClassifier.fromText('good.example 10\nbad domain!! 5', 'ops.txt')).toThrow(/ops.txt:2/);
    expect(() => ListClassifier.fromText('x.example 500', 'ops.txt')).toThrow(/0..100/);
  });
});
