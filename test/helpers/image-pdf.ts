/**
 * A minimal PDF writer for image-only documents: each page is one JPEG drawn over the whole page,
 * as a scanner writes them. No text layer, so readers must OCR.
 */

export interface ScanPage {
  /** Baseline JPEG bytes. */
  jpeg: Buffer;
  /** Pixel size of the JPEG. */
  width: number;
  height: number;
  /** Page size in points (1/72 inch). */
  pageWidth: number;
  pageHeight: number;
  /** Colour components of the JPEG: 1 for grey, 3 for RGB. */
  components?: 1 | 3;
}

export function jpegPagesToPdf(pages: ScanPage[]): Buffer {
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    chunks.push(buf);
    length += buf.length;
  };
  const object = (id: number, body: (Buffer | string)[]) => {
    offsets[id] = length;
    push(`${id} 0 obj\n`);
    for (const part of body) push(part);
    push('\nendobj\n');
  };
  push('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  // Objects: 1 catalog, 2 page tree, then per page: page, contents, image.
  const pageIds = pages.map((_, i) => 3 + i * 3);
  object(1, ['<< /Type /Catalog /Pages 2 0 R >>']);
  object(2, [`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`]);
  pages.forEach((p, i) => {
    const [pageId, contentId, imageId] = [pageIds[i]!, pageIds[i]! + 1, pageIds[i]! + 2];
    object(pageId, [
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${p.pageWidth} ${p.pageHeight}] /Resources << /XObject << /Im0 ${imageId} 0 R >> >> /Contents ${contentId} 0 R >>`,
    ]);
    const draw = `q ${p.pageWidth} 0 0 ${p.pageHeight} 0 0 cm /Im0 Do Q`;
    object(contentId, [`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`]);
    const colour = (p.components ?? 1) === 1 ? '/DeviceGray' : '/DeviceRGB';
    object(imageId, [
      `<< /Type /XObject /Subtype /Image /Width ${p.width} /Height ${p.height} /ColorSpace ${colour} /BitsPerComponent 8 /Filter /DCTDecode /Length ${p.jpeg.length} >>\nstream\n`,
      p.jpeg,
      '\nendstream',
    ]);
  });
  const xref = length;
  const count = 3 + pages.length * 3;
  push(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let id = 1; id < count; id++) push(`${String(offsets[id]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(chunks);
}

/** Pixel size from a JPEG's start-of-frame marker. */
export function jpegSize(b: Buffer): { width: number; height: number; components: 1 | 3 } {
  let i = 2;
  while (i + 9 < b.length) {
    const marker = b[i + 1]!;
    const len = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7), components: b[i + 9] === 1 ? 1 : 3 };
    }
    i += 2 + len;
  }
  throw new Error('not a JPEG');
}
