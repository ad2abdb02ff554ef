/**
 * A small search engine on the fixture site for a real searx to call (its `json_engine`):
 * `/search-engine/{web,news,images}.json?q=..&page=N` answer ten results a page from a corpus of
 * library pages (`/library/<slug>`, real pages a search can go on to scrape), `/fail.json`
 * answers 500 and `/slow.json` answers only after `ms` milliseconds.
 */
import type http from 'node:http';

export interface LibraryPage {
  slug: string;
  title: string;
  text: string;
}

const TOPICS = ['green tea', 'black tea', 'oolong tea', 'white tea', 'herbal tea', 'matcha', 'chai', 'rooibos'];
const ASPECTS = ['brewing', 'history', 'storage'];

/** 24 pages (every tea topic from three aspects), and two for ranking: a word in a title beats it repeated in a text. */
export const LIBRARY: LibraryPage[] = [
  ...TOPICS.flatMap((topic) =>
    ASPECTS.map((aspect) => ({
      slug: `${topic.replace(/\s+/g, '-')}-${aspect}`,
      title: `${topic[0]!.toUpperCase()}${topic.slice(1)} ${aspect}`,
      text: `A guide to ${aspect} ${topic}. Everything about ${topic} ${aspect}, written for the fixture library.`,
    })),
  ),
  { slug: 'kettle-thermometer', title: 'Kettle thermometer', text: 'How hot is hot enough? A thermometer clipped to the kettle answers.' },
  { slug: 'water-notes', title: 'Water notes', text: 'Soft water, hard water. A kettle thermometer is handy; the kettle, the kettle, always the kettle.' },
];

/** Results beyond the site, for domain and category filters (never scraped). */
const ELSEWHERE = [
  { url: 'https://github.com/example/tea-timer', title: 'tea-timer: a brewing timer for green tea', content: 'Source code of a green tea brewing timer.' },
  { url: 'https://arxiv.org/abs/2401.00001', title: 'Catechins in green tea brewing', content: 'A study of green tea brewing temperature.' },
  { url: 'https://papers.example.org/green-tea-brewing.pdf', title: 'Green tea brewing (PDF)', content: 'A printable green tea brewing chart.' },
  // A private address: a server's SSRF guard refuses to scrape it.
  { url: 'http://10.1.2.3/intranet/tea-rota', title: 'Intranet tea rota', content: 'Who makes the tea this week (intranet only).' },
];

const PAGE_SIZE = 10;

const libraryHtml = (p: LibraryPage) =>
  `<!doctype html><html><head><title>${p.title}</title><meta name="description" content="${p.text}"></head>` +
  `<body><main><h1>${p.title}</h1><p>${p.text}</p><h2>Notes</h2><p>Steep, taste, repeat: ${p.title.toLowerCase()} rewards patience.</p></main></body></html>`;

/** The words of a query, without the operators engines may be sent (`site:`, `filetype:`). */
const wordsOf = (q: string) =>
  q
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w && !/^-?(site|filetype):/.test(w))
    .flatMap((w) => w.split(/[^a-z0-9]+/))
    .filter(Boolean);

function results(base: string, q: string) {
  const words = wordsOf(q);
  const all = [
    ...LIBRARY.map((p) => ({ url: `${base}/library/${p.slug}`, title: p.title, content: p.text })),
    ...ELSEWHERE,
  ];
  return all.filter((r) => words.every((w) => `${r.title} ${r.content}`.toLowerCase().includes(w)));
}

export function serveSearchEngine(url: URL, base: string, res: http.ServerResponse): boolean {
  const path = url.pathname;
  const lib = /^\/library\/([a-z0-9-]+)$/.exec(path);
  if (lib) {
    const page = LIBRARY.find((p) => p.slug === lib[1]);
    if (!page) return false;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(libraryHtml(page));
    return true;
  }
  // An instance's refusals (403: JSON output off; 429: its limiter) as `/refusing/<status>` answers
  // them; everything else about the protocol is tested against a real searx.
  const refusing = /^\/refusing\/(\d{3})\/(search|config)$/.exec(path);
  if (refusing) {
    res.writeHead(Number(refusing[1]), { 'content-type': 'text/html' });
    res.end(`<html><body>${refusing[1]}</body></html>`);
    return true;
  }
  if (!path.startsWith('/search-engine/')) return false;
  const json = (body: unknown, status = 200) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const q = url.searchParams.get('q') ?? '';
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  const paged = <T>(list: T[]) => list.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  switch (path) {
    case '/search-engine/web.json':
      json({ results: paged(results(base, q)) });
      return true;
    case '/search-engine/news.json':
      json({ results: paged(results(base, q).map((r) => ({ ...r, title: `News: ${r.title}` }))) });
      return true;
    case '/search-engine/images.json':
      json({ results: paged(results(base, q).map((r, i) => ({ url: `${base}/image.png?n=${i}`, title: `Picture of ${r.title}`, content: '' }))) });
      return true;
    case '/search-engine/fail.json':
      json({ error: 'engine exploded' }, 500);
      return true;
    case '/search-engine/slow.json': {
      const ms = Math.min(Number(url.searchParams.get('ms') ?? 3000), 30_000);
      const timer = setTimeout(() => json({ results: results(base, q).slice(0, 3) }), ms);
      res.on('close', () => clearTimeout(timer));
      return true;
    }
    default:
      return false;
  }
}
