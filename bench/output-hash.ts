/**
 * One hash over everything the transform produces on every dataset page and every page of the
 * PostgreSQL manual, with onlyMainContent on and off: a refactor of the transform that keeps the
 * hash keeps every output byte for byte.
 *
 *   GLEANER_DATASETS=<datasets dir> node --import tsx bench/output-hash.ts [--pages FILE] [--src PATH]
 *
 * --pages FILE writes one line per page and mode (name, hash) so that two runs can be diffed to
 * find the pages that moved. --src PATH takes transformPage from another checkout's
 * src/transform/index.ts (to compare trees in one go).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import type { TransformOptions, TransformResult, TransformWants } from '../src/scrape/types.js';
import { pgDocsDir } from './corpus.js';

type TransformPage = (html: string, opts: TransformOptions, wants: TransformWants) => TransformResult;

interface Page {
  name: string;
  url: string;
  html: () => string;
}

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function gz(file: string): () => string {
  return () => zlib.gunzipSync(fs.readFileSync(file)).toString('utf8');
}

function datasetPages(root: string): Page[] {
  const pages: Page[] = [];
  const wcxb = path.join(root, 'wcxb-dev', 'dev');
  const gtDir = path.join(wcxb, 'ground-truth');
  for (const f of fs.readdirSync(gtDir).filter((n) => n.endsWith('.json')).sort()) {
    const id = f.slice(0, -5);
    const file = path.join(wcxb, 'html', `${id}.html.gz`);
    if (!fs.existsSync(file)) continue;
    const gt = JSON.parse(fs.readFileSync(path.join(gtDir, f), 'utf8')) as { url?: string };
    pages.push({ name: `wcxb/${id}`, url: gt.url ?? 'https://example.invalid/', html: gz(file) });
  }
  const sh = path.join(root, 'article-extraction-benchmark');
  const gt = JSON.parse(fs.readFileSync(path.join(sh, 'ground-truth.json'), 'utf8')) as Record<string, { url?: string }>;
  for (const id of Object.keys(gt).sort()) {
    const file = path.join(sh, 'html', `${id}.html.gz`);
    if (!fs.existsSync(file)) continue;
    pages.push({ name: `scrapinghub/${id}`, url: gt[id]?.url ?? 'https://example.invalid/', html: gz(file) });
  }
  return pages;
}

function manualPages(dir: string): Page[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((f) => ({
      name: `pgdocs/${f}`,
      url: `https://www.postgresql.org/docs/15/${f}`,
      html: () => fs.readFileSync(path.join(dir, f), 'utf8'),
    }));
}

async function main(): Promise<void> {
  const root = process.env.GLEANER_DATASETS;
  if (!root) {
    console.error('Set GLEANER_DATASETS to the datasets folder (wcxb-dev/, article-extraction-benchmark/).');
    process.exit(2);
  }
  const src = argValue('--src');
  const mod = (await import(
    src ? pathToFileURL(path.resolve(src)).href : '../src/transform/index.js'
  )) as { transformPage: TransformPage };
  const pages = datasetPages(root);
  const docs = pgDocsDir();
  if (docs) pages.push(...manualPages(docs));

  // Markdown and html both wanted: each sink is written (the markdown one on a second pass).
  const wants: TransformWants = { markdown: true, html: true, links: true, images: true };
  const total = createHash('sha256');
  const lines: string[] = [];
  for (const page of pages) {
    const html = page.html();
    for (const onlyMainContent of [true, false]) {
      const opts: TransformOptions = {
        baseUrl: page.url,
        onlyMainContent,
        includeTags: [],
        excludeTags: [],
        removeBase64Images: true,
      };
      const out = JSON.stringify(mod.transformPage(html, opts, wants));
      const h = createHash('sha256').update(out).digest('hex');
      total.update(`${page.name}\t${onlyMainContent}\t${h}\n`);
      lines.push(`${page.name}\t${onlyMainContent ? 'main' : 'all'}\t${h}`);
    }
  }
  const pagesFile = argValue('--pages');
  if (pagesFile) fs.writeFileSync(pagesFile, `${lines.join('\n')}\n`);
  console.log(`${pages.length} pages x 2 modes: ${total.digest('hex')}`);
}

await main();
