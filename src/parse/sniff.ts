/**
 * What kind of file a body is, from its bytes first: a declared type or a file name can be wrong
 * (the SDK labels string uploads `text/plain`, servers label PDFs `application/octet-stream`).
 * Names and declared types only decide between the text kinds, which bytes cannot tell apart.
 */
import JSZip from 'jszip';

export type FileKind = 'pdf' | 'docx' | 'xlsx' | 'pptx' | 'image' | 'html' | 'markdown' | 'csv' | 'text';

export interface Sniffed {
  kind: FileKind;
  /** MIME type of the kind found (what metadata.contentType reports for uploads). */
  mime: string;
}

/** Why a body is not something we parse; undefined when it is. */
export type Unsupported = { reason: string };

const MIME: Record<FileKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  image: 'image/png',
  html: 'text/html',
  markdown: 'text/markdown',
  csv: 'text/csv',
  text: 'text/plain',
};

const startsWith = (b: Buffer, sig: number[], at = 0) => sig.every((x, i) => b[at + i] === x);

/** Raster formats tesseract's image reader decodes. */
function imageMime(b: Buffer): string | undefined {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a') return 'image/gif';
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (b.subarray(0, 2).toString('latin1') === 'BM' && b.length > 26) return 'image/bmp';
  return undefined;
}

const isZip = (b: Buffer) => startsWith(b, [0x50, 0x4b, 0x03, 0x04]);
const isOle2 = (b: Buffer) => startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** True when the first bytes look like text: no NUL and few control characters. */
function looksLikeText(b: Buffer): boolean {
  const head = b.subarray(0, 8192);
  if (head.length === 0) return false;
  // UTF-16 with a byte-order mark has NULs but is text.
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) return true;
  let control = 0;
  for (const c of head) {
    if (c === 0) return false;
    if (c < 9 || (c > 13 && c < 32)) control++;
  }
  return control / head.length < 0.02;
}

const extension = (name: string | undefined) => /\.([A-Za-z0-9]{1,8})$/.exec(name ?? '')?.[1]?.toLowerCase();
const baseType = (contentType: string | undefined) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

function textKind(b: Buffer, contentType: string | undefined, name: string | undefined): FileKind {
  const ext = extension(name);
  const type = baseType(contentType);
  if (ext === 'md' || ext === 'markdown' || type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (ext === 'csv' || type === 'text/csv') return 'csv';
  if (ext === 'html' || ext === 'htm' || ext === 'xhtml' || type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  const head = b.subarray(0, 2048).toString('utf8').trimStart().toLowerCase();
  if (/^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/.test(head)) return 'html';
  return 'text';
}

/** Which Office Open XML document a zip holds, from the parts it contains. */
async function officeKind(b: Buffer): Promise<FileKind | Unsupported> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(b);
  } catch {
    return { reason: 'The file is a damaged or unreadable zip archive' };
  }
  if (zip.file('word/document.xml')) return 'docx';
  if (zip.file('xl/workbook.xml')) return 'xlsx';
  if (zip.file('ppt/presentation.xml')) return 'pptx';
  return { reason: 'Zip archives are supported only as DOCX, XLSX or PPTX documents' };
}

export async function sniff(body: Buffer, contentType?: string, name?: string): Promise<Sniffed | Unsupported> {
  const head = body.subarray(0, 1024);
  if (head.includes(Buffer.from('%PDF-'))) return { kind: 'pdf', mime: MIME.pdf };
  const image = imageMime(body);
  if (image) return { kind: 'image', mime: image };
  if (isZip(body)) {
    const kind = await officeKind(body);
    return typeof kind === 'string' ? { kind, mime: MIME[kind] } : kind;
  }
  if (isOle2(body)) return { reason: 'Legacy Office files (.doc, .xls, .ppt) are not supported; save them as DOCX, XLSX or PPTX' };
  if (looksLikeText(body)) {
    const kind = textKind(body, contentType, name);
    return { kind, mime: MIME[kind] };
  }
  const declared = baseType(contentType);
  return { reason: `Unsupported file type${declared && declared !== 'application/octet-stream' ? ` (${declared})` : ''}` };
}

export const isUnsupported = (s: Sniffed | Unsupported): s is Unsupported => 'reason' in s;

