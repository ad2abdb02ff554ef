/**
 * PPTX: slides in presentation order (the slide list in presentation.xml, not file names), each
 * as a heading (its title placeholder, else "Slide n"), its text frames and tables, then its
 * speaker notes.
 */
import * as cheerio from 'cheerio';
import type { Element } from 'domhandler';
import path from 'node:path/posix';
import { ApiError } from '../errors.js';
import type { Block } from './blocks.js';
import { openPackage, readPart } from './office-zip.js';

const xml = (s: string) => cheerio.load(s, { xml: true });

/** Relationship id -> part path, resolved against the part the rels file belongs to. */
async function relations(zip: Awaited<ReturnType<typeof openPackage>>, part: string): Promise<Map<string, { target: string; type: string }>> {
  const relsPath = path.join(path.dirname(part), '_rels', `${path.basename(part)}.rels`);
  const text = await readPart(zip, relsPath);
  const out = new Map<string, { target: string; type: string }>();
  if (!text) return out;
  const $ = xml(text);
  $('Relationship').each((_, el) => {
    const id = $(el).attr('Id');
    const target = $(el).attr('Target');
    if (id && target && $(el).attr('TargetMode') !== 'External') {
      out.set(id, { target: path.normalize(path.join(path.dirname(part), target)), type: $(el).attr('Type') ?? '' });
    }
  });
  return out;
}

const paragraphText = ($: cheerio.CheerioAPI, p: Element) =>
  $(p)
    .find('a\\:t, a\\:br')
    .toArray()
    .map((n) => (n.tagName === 'a:br' ? ' ' : $(n).text()))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();

function shapeBlocks($: cheerio.CheerioAPI, root: cheerio.Cheerio<Element>, opts: { skipTitle: boolean; notes: boolean }): Block[] {
  const blocks: Block[] = [];
  root.find('p\\:sp, p\\:graphicFrame').each((_, shape) => {
    const ph = $(shape).find('p\\:nvPr > p\\:ph').first();
    const phType = ph.attr('type') ?? (ph.length ? 'body' : undefined);
    if (opts.skipTitle && (phType === 'title' || phType === 'ctrTitle')) return;
    if (opts.notes && phType !== 'body') return;
    if (phType === 'sldNum' || phType === 'dt' || phType === 'ftr' || phType === 'hdr') return;
    const table = $(shape).find('a\\:tbl').first();
    if (table.length) {
      const rows = table.find('a\\:tr').toArray().map((tr) => $(tr).find('a\\:tc').toArray().map((tc) => $(tc).find('a\\:p').toArray().map((p) => paragraphText($, p)).join(' ').trim()));
      if (rows.length) blocks.push({ kind: 'table', rows });
      return;
    }
    const paras = $(shape).find('p\\:txBody a\\:p').toArray().map((p) => paragraphText($, p)).filter((t) => t.length > 0);
    if (!paras.length) return;
    // Body placeholders hold bullet points; free text boxes hold prose.
    if (phType === 'body' && paras.length > 1 && !opts.notes) blocks.push({ kind: 'list', ordered: false, items: paras });
    else for (const text of paras) blocks.push({ kind: 'paragraph', text });
  });
  return blocks;
}

export async function pptxBlocks(bytes: Buffer): Promise<{ blocks: Block[]; slides: number }> {
  const zip = await openPackage(bytes);
  const presentation = await readPart(zip, 'ppt/presentation.xml');
  if (!presentation) throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'The PPTX presentation is damaged: presentation.xml is missing' });
  const rels = await relations(zip, 'ppt/presentation.xml');
  const $p = xml(presentation);
  const slideParts = $p('p\\:sldIdLst > p\\:sldId')
    .toArray()
    .map((el) => rels.get($p(el).attr('r:id') ?? '')?.target)
    .filter((t): t is string => t !== undefined);

  const blocks: Block[] = [];
  for (const [i, part] of slideParts.entries()) {
    const text = await readPart(zip, part);
    if (!text) continue;
    const $ = xml(text);
    const titleShape = $('p\\:sp')
      .toArray()
      .find((sp) => ['title', 'ctrTitle'].includes($(sp).find('p\\:nvPr > p\\:ph').attr('type') ?? ''));
    const title = titleShape ? $(titleShape).find('a\\:p').toArray().map((p) => paragraphText($, p)).join(' ').trim() : '';
    blocks.push({ kind: 'heading', level: 2, text: title || `Slide ${i + 1}` });
    blocks.push(...shapeBlocks($, $('p\\:cSld').first() as cheerio.Cheerio<Element>, { skipTitle: true, notes: false }));

    const notesPart = [...(await relations(zip, part)).values()].find((r) => r.type.endsWith('/notesSlide'))?.target;
    const notesXml = notesPart ? await readPart(zip, notesPart) : undefined;
    if (notesXml) {
      const $n = xml(notesXml);
      const notes = shapeBlocks($n, $n('p\\:cSld').first() as cheerio.Cheerio<Element>, { skipTitle: true, notes: true });
      if (notes.length) blocks.push({ kind: 'heading', level: 3, text: 'Notes' }, ...notes);
    }
  }
  return { blocks, slides: slideParts.length };
}
