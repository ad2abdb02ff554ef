/**
 * The verdict on a URL: whitelist first, then blacklist (with subdomains) and blocked TLDs, then
 * the classifier against the threshold, and failurePolicy when the classifier cannot answer.
 */
import { describe, expect, it } from 'vitest';
import { ClassifierUnavailable, decide, type UrlClassifier } from './decide.js';
import type { ThreatRules } from './policy.js';

const rules = (r: Partial<ThreatRules> = {}): ThreatRules => ({
  mode: 'normal',
  riskScoreThreshold: 70,
  blacklist: [],
  whitelist: [],
  blockedTlds: [],
  failurePolicy: 'closed',
  ...r,
});

/** A classifier scoring by host; it counts the URLs it is asked about. */
function scoring(scores: Record<string, number>): UrlClassifier & { asked: string[] } {
  const asked: string[] = [];
  return {
    name: 'test classifier',
    asked,
    classify: (url) => {
      asked.push(url);
      return Promise.resolve({ riskScore: scores[new URL(url).hostname] ?? 0, categories: ['test'] });
    },
  };
}

const down: UrlClassifier = { name: 'test classifier', classify: () => Promise.reject(new ClassifierUnavailable('it cannot be reached')) };

describe('lists', () => {
  it('the blacklist blocks the domain and its subdomains, not look-alikes', async () => {
    const r = rules({ blacklist: ['bad.example'], mode: 'manual-only' });
    expect((await decide('https://bad.example/x', r, undefined)).allowed).toBe(false);
    expect((await decide('https://a.b.bad.example/', r, undefined)).allowed).toBe(false);
    expect((await decide('https://notbad.example/', r, undefined)).allowed).toBe(true);
    expect((await decide('https://bad.example.org/', r, undefined)).allowed).toBe(true);
  });

  it('blocked TLDs block every host under them, never an IP address', async () => {
    const r = rules({ blockedTlds: ['zip'], mode: 'manual-only' });
    expect((await decide('http://files.zip/a', r, undefined)).allowed).toBe(false);
    expect((await decide('http://files.zip./a', r, undefined)).allowed).toBe(false);
    expect((await decide('http://zip.example/a', r, undefined)).allowed).toBe(true);
    expect((await decide('http://127.0.0.1/a', r, undefined)).allowed).toBe(true);
  });

  it('the whitelist wins over the blacklist, the TLDs and the classifier', async () => {
    const c = scoring({ 'good.bad.zip': 100 });
    const r = rules({ whitelist: ['good.bad.zip'], blacklist: ['bad.zip'], blockedTlds: ['zip'] });
    const v = await decide('https://good.bad.zip/', r, c);
    expect(v).toEqual({ allowed: true, scanned: false });
    expect(c.asked).toEqual([]);
  });

  it('mode off allows everything; manual-only never asks the classifier', async () => {
    const c = scoring({ 'risky.example': 100 });
    expect((await decide('https://risky.example/', rules({ mode: 'off', blacklist: ['risky.example'] }), c)).allowed).toBe(true);
    expect((await decide('https://risky.example/', rules({ mode: 'manual-only' }), c)).allowed).toBe(true);
    expect(c.asked).toEqual([]);
  });

  it('a list block is decided before, and without, the classifier', async () => {
    const c = scoring({});
    const v = await decide('https://bad.example/', rules({ blacklist: ['bad.example'] }), c);
    expect(v).toMatchObject({ allowed: false, scanned: false });
    expect(c.asked).toEqual([]);
  });
});

describe('the classifier', () => {
  it('blocks at or above the threshold and allows below it; both count as a scan', async () => {
    const c = scoring({ 'at.example': 70, 'below.example': 69 });
    const at = await decide('https://at.example/', rules(), c);
    expect(at).toMatchObject({ allowed: false, scanned: true, categories: ['test'] });
    if (!at.allowed) expect(at.reason).toMatch(/70\/100.*threshold 70/);
    expect(await decide('https://below.example/', rules(), c)).toEqual({ allowed: true, scanned: true });
  });

  it('a threshold of 0 blocks everything the classifier sees', async () => {
    expect((await decide('https://any.example/', rules({ riskScoreThreshold: 0 }), scoring({}))).allowed).toBe(false);
  });

  it('failurePolicy open allows with a warning when the classifier is down', async () => {
    const v = await decide('https://any.example/', rules({ failurePolicy: 'open' }), down);
    expect(v.allowed).toBe(true);
    if (v.allowed) expect(v.warning).toMatch(/could not classify.*failurePolicy is open/);
    expect(v.scanned).toBe(false);
  });

  it('failurePolicy closed blocks when the classifier is down', async () => {
    const v = await decide('https://any.example/', rules({ failurePolicy: 'closed' }), down);
    expect(v.allowed).toBe(false);
    if (!v.allowed) expect(v.reason).toMatch(/cannot be reached.*failurePolicy is closed/);
  });

  it('no classifier configured is treated as one that cannot answer', async () => {
    expect((await decide('https://any.example/', rules({ failurePolicy: 'closed' }), undefined)).allowed).toBe(false);
    expect((await decide('https://any.example/', rules({ failurePolicy: 'open' }), undefined)).allowed).toBe(true);
  });
});
