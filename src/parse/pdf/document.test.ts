import { describe, expect, it } from 'vitest';
import { closePdf, openPdf } from './document.js';

/** A one-page PDF built by hand; `encrypt` adds a standard security handler whose password is not empty. */
function tinyPdf(encrypt: boolean): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    ...(encrypt ? [`<< /Filter /Standard /V 1 /R 2 /O <${'11'.repeat(32)}> /U <${'22'.repeat(32)}> /P -4 >>`] : []),
  ];
  let out = '%PDF-1.4\n';
  const offsets = objects.map((o, k) => {
    const at = out.length;
    out += `${k + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  const id = '<00112233445566778899aabbccddeeff>';
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${encrypt ? ` /Encrypt 4 0 R /ID [${id}${id}]` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

describe('openPdf', () => {
  it('opens a document and closes it with its worker half', async () => {
    const doc = await openPdf(tinyPdf(false));
    expect(doc.numPages).toBe(1);
    await closePdf(doc);
  });

  it('names an encrypted document and a damaged one apart', async () => {
    await expect(openPdf(tinyPdf(true))).rejects.toMatchObject({ code: 'SCRAPE_UNSUPPORTED_FILE_ERROR', message: expect.stringMatching(/encrypted/) });
    await expect(openPdf(Buffer.from('%PDF-1.4\nnot a document\n'))).rejects.toMatchObject({ code: 'SCRAPE_UNSUPPORTED_FILE_ERROR', message: expect.stringMatching(/damaged/) });
  });
});
