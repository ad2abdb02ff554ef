import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { isUnsupported, sniff } from './sniff.js';
import { parseCsv } from './text.js';

const kindOf = async (body: Buffer | string, type?: string, name?: string) => {
  const s = await sniff(Buffer.from(body), type, name);
  return isUnsupported(s) ? 'unsupported' : s.kind;
};

describe('file type from content', () => {
  it('trusts the bytes over the declared type and name', async () => {
    expect(await kindOf('%PDF-1.7\n...', 'text/plain', 'a.txt')).toBe('pdf');
    expect(await kindOf(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'application/octet-stream')).toBe('image');
    expect(await kindOf('<!doctype html><html><body>x</body></html>', 'text/plain; charset=utf-8', 'upload')).toBe('html');
  });

  it('tells Office documents apart by their parts, and refuses other zips', async () => {
    const zip = async (part: string) => {
      const z = new JSZip();
      z.file(part, '<x/>');
      return z.generateAsync({ type: 'nodebuffer' });
    };
    expect(await kindOf(await zip('word/document.xml'))).toBe('docx');
    expect(await kindOf(await zip('xl/workbook.xml'))).toBe('xlsx');
    expect(await kindOf(await zip('ppt/presentation.xml'))).toBe('pptx');
    expect(await kindOf(await zip('notes.txt'))).toBe('unsupported');
  });

  it('uses the name or declared type only among text kinds', async () => {
    expect(await kindOf('a,b\n1,2', 'text/plain', 'x.csv')).toBe('csv');
    expect(await kindOf('# Hi', undefined, 'README.md')).toBe('markdown');
    expect(await kindOf('just words', 'application/pdf')).toBe('text');
    expect(await kindOf(Buffer.from([0, 1, 2, 3, 200, 201]), 'text/plain')).toBe('unsupported');
  });
});

describe('CSV', () => {
  it('handles quoted separators, doubled quotes, CRLF and a semicolon dialect', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\r\n')).toEqual([['a', 'b'], ['x, y', 'say "hi"']]);
    expect(parseCsv('a;b\n1;2')).toEqual([['a', 'b'], ['1', '2']]);
  });
});
