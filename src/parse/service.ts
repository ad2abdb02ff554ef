/**
 * File -> parsed content, for both `POST /v2/parse` and scrapes whose URL serves a document.
 * The kind is sniffed from the bytes, the matching parser runs, and the result is the markdown
 * (and, on request, HTML, per-page markdown and layout blocks) plus what to bill. Each format's
 * reader (pdf.js, ExcelJS, mammoth...) is loaded the first time a file of its kind arrives: together
 * they would be a fifth of an idle server's heap.
 */
import { ApiError } from '../errors.js';
import { decodeBody } from '../core/charset.js';
import { transformPage } from '../transform/index.js';
import type { PageMetadata } from '../core/document.js';
import type { TransformOptions } from '../transform/types.js';
import { blockMarkdown, blocksHtml, blocksMarkdown, type Block } from './blocks.js';
import { parseImage } from './image.js';
import { Ocr } from './ocr.js';
import { DEFAULT_PDF, type ParserSettings, type PdfSettings } from './parsers.js';
import type { PdfPageResult } from './pdf/index.js';
import { PdfThreads } from './pdf/threads.js';
import { isUnsupported, sniff, type FileKind, type Sniffed } from './sniff.js';
import { csvBlocks, normaliseText } from './text.js';
import type { PdfBlockItem, PdfPage, PdfPageBlocks } from './types.js';

export interface ParseInput {
  body: Buffer;
  contentType?: string | undefined;
  filename?: string | undefined;
  /** When the caller already sniffed the body. */
  sniffed?: Sniffed;
}

export interface ParseRequest {
  settings: ParserSettings;
  wants: { markdown: boolean; html: boolean; links: boolean; images: boolean };
  /** For HTML-like sources: the page transform's options. */
  transform: TransformOptions;
  deadline: number;
}

export interface ParsedFile {
  kind: FileKind;
  mime: string;
  markdown: string;
  html?: string;
  links?: string[];
  images?: string[];
  metadata: PageMetadata;
  /** Pages in the file (PDF), 1 for an image. */
  numPages?: number;
  creditsUsed: number;
  pages?: PdfPage[];
  blocks?: PdfPageBlocks[];
}

export class DocumentParser {
  readonly ocr = new Ocr();
  private readonly pdfThreads: PdfThreads | undefined;

  /**
   * `pdfThreads`: page threads for long PDFs, none by default. Each thread loads and warms up its
   * own pdf.js, and on a busy machine the cores are taken anyway (see bench/pdf-structure.ts).
   */
  constructor(options: { pdfThreads?: number } = {}) {
    const threads = options.pdfThreads ?? 0;
    this.pdfThreads = threads > 0 ? new PdfThreads(threads) : undefined;
  }

  /** Sniffs and parses; unsupported or damaged files are 422 SCRAPE_UNSUPPORTED_FILE_ERROR. */
  async parse(input: ParseInput, req: ParseRequest): Promise<ParsedFile> {
    const sniffed = input.sniffed ?? (await sniff(input.body, input.contentType, input.filename));
    if (isUnsupported(sniffed)) {
      throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: sniffed.reason, details: { contentType: input.contentType ?? null } });
    }
    try {
      return await this.parseKind(sniffed, input, req);
    } catch (e) {
      if (e instanceof ApiError) throw e;
      // A library choking on a malformed file is the file's fault, not the server's.
      throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: `The ${sniffed.kind.toUpperCase()} file is damaged and could not be parsed`, cause: e });
    }
  }

  private async parseKind({ kind, mime }: Sniffed, input: ParseInput, req: ParseRequest): Promise<ParsedFile> {
    const base = { kind, mime, creditsUsed: 1, metadata: {} as PageMetadata };
    switch (kind) {
      case 'pdf': {
        if (!req.settings.pdf) return { ...base, markdown: input.body.toString('base64') };
        return { ...base, ...(await this.pdf(input.body, req.settings.pdf, req)) };
      }
      case 'image': {
        if (!req.settings.image) {
          throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'Images are parsed only when the "image" parser is listed in parsers' });
        }
        const page = await parseImage(input.body, this.ocr, req.deadline);
        const { markdown } = assemblePages([page], { ...DEFAULT_PDF, pages: false, blocks: false });
        const html = req.wants.html ? { html: blocksHtml(page.blocks.map((b) => b.block)) } : {};
        return { ...base, markdown, ...html, links: [], images: [], numPages: 1 };
      }
      case 'docx':
        return { ...base, ...fromHtml(await (await import('./docx.js')).docxToHtml(input.body), req, false) };
      case 'html':
        return { ...base, ...fromHtml(decodeBody(input.body, input.contentType ?? 'text/html'), req, req.transform.onlyMainContent) };
      case 'xlsx':
        return { ...base, ...fromBlocks(await (await import('./xlsx.js')).xlsxBlocks(input.body), req) };
      case 'pptx': {
        const { blocks, slides } = await (await import('./pptx.js')).pptxBlocks(input.body);
        return { ...base, ...fromBlocks(blocks, req), numPages: slides };
      }
      case 'csv':
        return { ...base, ...fromBlocks(csvBlocks(decodeBody(input.body, input.contentType ?? 'text/csv')), req) };
      case 'markdown':
      case 'text': {
        const text = normaliseText(decodeBody(input.body, input.contentType ?? 'text/plain'));
        return { ...base, markdown: text, ...(req.wants.html ? { html: `<pre>${escapeHtml(text)}</pre>` } : {}), links: [], images: [] };
      }
    }
  }

  private async pdf(bytes: Buffer, settings: PdfSettings, req: ParseRequest) {
    const result = await (await import('./pdf/index.js')).parsePdf(bytes, settings, this.ocr, req.deadline, this.pdfThreads);
    const assembled = assemblePages(result.pages, settings);
    const metadata: PageMetadata = result.title ? { title: result.title } : {};
    return {
      ...assembled,
      ...(req.wants.html ? { html: blocksHtml(result.pages.flatMap((p) => p.blocks.map((b) => b.block))) } : {}),
      links: [],
      images: [],
      metadata,
      numPages: result.numPages,
      creditsUsed: Math.max(1, result.pages.length),
    };
  }

  async close(): Promise<void> {
    await Promise.all([this.ocr.close(), this.pdfThreads?.close()]);
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function fromHtml(html: string, req: ParseRequest, onlyMainContent: boolean) {
  const t = transformPage(html, { ...req.transform, onlyMainContent }, req.wants);
  return { markdown: t.markdown ?? '', html: t.html, links: t.links ?? [], images: t.images ?? [], metadata: t.metadata };
}

function fromBlocks(blocks: Block[], req: ParseRequest) {
  return { markdown: blocksMarkdown(blocks), ...(req.wants.html ? { html: blocksHtml(blocks) } : {}), links: [], images: [] };
}

const PAGE_BREAK = (n: number) => `\n\n---\n\n<!-- page ${n} -->\n\n`;

/**
 * Joins pages into the document markdown and, as asked, per-page markdown and blocks whose
 * `markdownSpan` points into that document markdown. Consecutive list items on a page are one
 * list (a single newline apart); other blocks are paragraphs apart.
 */
export function assemblePages(pages: PdfPageResult[], settings: PdfSettings): { markdown: string; pages?: PdfPage[]; blocks?: PdfPageBlocks[] } {
  let markdown = '';
  const outPages: PdfPage[] = [];
  const outBlocks: PdfPageBlocks[] = [];
  for (const [index, page] of pages.entries()) {
    if (index > 0) {
      if (settings.pageMarkers) markdown += PAGE_BREAK(page.pageNumber);
      else if (markdown.length && page.blocks.length) markdown += '\n\n';
    }
    const contentStart = markdown.length;
    const items: PdfBlockItem[] = [];
    page.blocks.forEach((b, i) => {
      const md = blockMarkdown(b.block);
      if (i > 0) markdown += b.type === 'list_item' && page.blocks[i - 1]!.type === 'list_item' ? '\n' : '\n\n';
      const start = markdown.length;
      markdown += md;
      const w = page.width;
      const h = page.height;
      items.push({
        id: `p${page.pageNumber}-b${i + 1}`,
        type: b.type,
        label: b.block.kind === 'heading' ? `h${b.block.level}` : null,
        bbox: w > 0 && h > 0 ? [round(b.bbox[0] / w), round(b.bbox[1] / h), round(b.bbox[2] / w), round(b.bbox[3] / h)] : null,
        content: md,
        markdownSpan: [start, markdown.length],
        readingOrder: i,
        source: page.source === 'ocr' ? 'ocr' : 'text_layer',
        confidence: { layout: null, ocr: b.ocrConfidence === null ? null : round(b.ocrConfidence) },
      });
    });
    outPages.push({ pageNumber: page.pageNumber, markdown: markdown.slice(contentStart) });
    outBlocks.push({ pageNumber: page.pageNumber, width: page.width || null, height: page.height || null, status: page.status, items });
  }
  return {
    markdown,
    ...(settings.pages ? { pages: outPages } : {}),
    ...(settings.blocks ? { blocks: outBlocks } : {}),
  };
}

const round = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 10_000) / 10_000;
