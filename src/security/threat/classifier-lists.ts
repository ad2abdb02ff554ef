/**
 * The offline URL classifier: domain lists the operator provides (`THREAT_DOMAIN_LISTS`, a
 * comma-separated list of files), used in `normal` mode when no THREAT_CLASSIFIER_URL is set.
 * One domain a line, then a risk score (0..100) or a category (which scores 100), or both:
 *
 *   # comments and blank lines are skipped
 *   malware.example 100 malware
 *   ads.example 40
 *   phish.example phishing
 *
 * A listed domain covers its subdomains; a URL's score is the highest over the domains it is in,
 * 0 when none.
 */
import { readFileSync } from 'node:fs';
import { inDomain, hostOf, type Classification, type UrlClassifier } from './decide.js';
import { normaliseDomain } from './policy.js';

interface Entry {
  score: number;
  categories: string[];
}

export class ListClassifier implements UrlClassifier {
  readonly name = 'domain-list classifier';

  constructor(private readonly entries: ReadonlyMap<string, Entry>) {}

  /** Reads the files; a line that does not parse is an error naming the file and line. */
  static fromFiles(paths: string[]): ListClassifier {
    const entries = new Map<string, Entry>();
    for (const p of paths) parseList(readFileSync(p, 'utf8'), p, entries);
    return new ListClassifier(entries);
  }

  static fromText(text: string, name = 'list'): ListClassifier {
    const entries = new Map<string, Entry>();
    parseList(text, name, entries);
    return new ListClassifier(entries);
  }

  get size(): number {
    return this.entries.size;
  }

  classify(url: string): Promise<Classification> {
    const host = hostOf(url) ?? '';
    let best: Entry | undefined;
    // Walk the host's suffixes: a.b.example -> b.example -> example; each is one map lookup.
    for (let d = host; d; d = d.includes('.') ? d.slice(d.indexOf('.') + 1) : '') {
      const e = this.entries.get(d);
      if (e && inDomain(host, d) && (!best || e.score > best.score)) best = e;
    }
    if (!best) return Promise.resolve({ riskScore: 0 });
    return Promise.resolve(best.categories.length ? { riskScore: best.score, categories: best.categories } : { riskScore: best.score });
  }
}

function parseList(text: string, name: string, into: Map<string, Entry>): void {
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) return;
    const [domainText, ...rest] = line.split(/[\s,;]+/);
    const domain = normaliseDomain(domainText!);
    if (!/^[a-z0-9_.-]+$/.test(domain) || domain.startsWith('.')) throw new Error(`${name}:${i + 1}: expected a domain, found "${domainText}"`);
    let score: number | undefined;
    const categories: string[] = [];
    for (const token of rest) {
      if (/^\d+(\.\d+)?$/.test(token)) {
        const n = Number(token);
        if (n > 100) throw new Error(`${name}:${i + 1}: a risk score is 0..100, found ${token}`);
        score = n;
      } else if (/^[a-z][a-z0-9_-]{0,63}$/i.test(token)) {
        categories.push(token.toLowerCase());
      } else {
        throw new Error(`${name}:${i + 1}: expected a risk score (0..100) or a category word, found "${token}"`);
      }
    }
    const entry: Entry = { score: score ?? 100, categories };
    const prior = into.get(domain);
    if (!prior || entry.score >= prior.score) into.set(domain, entry);
  });
}
