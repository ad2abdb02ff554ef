/** Raster images: one page, OCR'd, laid out like a scanned PDF page. */
import { ApiError } from '../errors.js';
import type { Ocr } from './ocr.js';
import type { PdfPageResult } from './pdf/index.js';
import { blocksOf, linesOf, readingOrder, typeScale } from './pdf/layout.js';

/** Larger images are refused rather than risk the memory of a whole-page decode. */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Pixel size from the header (PNG, GIF, BMP, JPEG); undefined for other formats. */
export function imageSize(b: Buffer): { width: number; height: number } | undefined {
  if (b[0] === 0x89 && b.length >= 24) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.subarray(0, 3).toString('latin1') === 'GIF' && b.length >= 10) return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.subarray(0, 2).toString('latin1') === 'BM' && b.length >= 26) return { width: b.readInt32LE(18), height: Math.abs(b.readInt32LE(22)) };
  if (b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1]!;
      const len = b.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
      }
      i += 2 + len;
    }
  }
  return undefined;
}

export async function parseImage(bytes: Buffer, ocr: Ocr, deadline: number): Promise<PdfPageResult> {
  const size = imageSize(bytes);
  if (size && size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: `The image is too large to OCR (${size.width}x${size.height} pixels)` });
  }
  const { runs } = await ocr.recognize(bytes, deadline);
  const lines = linesOf(runs);
  const scale = typeScale(lines);
  const blocks = blocksOf(readingOrder(lines, scale), scale, true);
  return {
    pageNumber: 1,
    width: size?.width ?? 0,
    height: size?.height ?? 0,
    status: blocks.length ? 'ok' : 'empty',
    source: blocks.length ? 'ocr' : null,
    blocks,
  };
}
