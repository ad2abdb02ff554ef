/**
 * The `parsers` option of scrape and parse. Entries may be bare names or objects; parsing turns
 * the list into one settings object the parsers read. (No imports from the scrape options: they
 * import this.)
 */
import { z } from 'zod';

export const PDF_MODES = ['fast', 'auto', 'ocr'] as const;
export type PdfMode = (typeof PDF_MODES)[number];

// Parser entries allow no other members (the interface says so): a misspelt option is refused.
const pdfParser = z.strictObject({
  type: z.literal('pdf'),
  mode: z.enum(PDF_MODES).default('auto'),
  maxPages: z.number().int().min(1).max(10_000).optional(),
  pages: z.boolean().optional(),
  /** Older name of `pages`, still accepted. */
  pageMarkdown: z.boolean().optional(),
  blocks: z.boolean().default(false),
  pageMarkers: z.boolean().default(false),
});
const imageParser = z.strictObject({ type: z.literal('image') });

const parserEntry = z.preprocess(
  (v) => (typeof v === 'string' ? { type: v } : v),
  z.discriminatedUnion('type', [pdfParser, imageParser], {
    error: (issue) => (issue.code === 'invalid_union' ? 'Unknown parser; expected "pdf" or "image"' : undefined),
  }),
);

export interface PdfSettings {
  mode: PdfMode;
  maxPages: number | undefined;
  pages: boolean;
  blocks: boolean;
  pageMarkers: boolean;
}

export interface ParserSettings {
  /** Null when the caller's list leaves `pdf` out: PDFs then come back base64-encoded. */
  pdf: PdfSettings | null;
  /** Whether raster images are OCR'd (otherwise they are unsupported files). */
  image: boolean;
}

export const DEFAULT_PDF: PdfSettings = { mode: 'auto', maxPages: undefined, pages: false, blocks: false, pageMarkers: false };

export const parsersSchema = z
  .array(parserEntry)
  .max(10)
  .refine((list) => new Set(list.map((p) => p.type)).size === list.length, { message: 'Each parser may appear once' });

export type ParsersOption = z.output<typeof parsersSchema>;

/** Absent `parsers` means both default parsers, as the official SDK documents. */
export function parserSettings(parsers: ParsersOption | undefined): ParserSettings {
  if (parsers === undefined) return { pdf: DEFAULT_PDF, image: true };
  let pdf: PdfSettings | null = null;
  let image = false;
  for (const p of parsers) {
    if (p.type === 'image') image = true;
    else pdf = { mode: p.mode, maxPages: p.maxPages, pages: p.pages ?? p.pageMarkdown ?? false, blocks: p.blocks, pageMarkers: p.pageMarkers };
  }
  return { pdf, image };
}
