/** DOCX to HTML with mammoth (headings, lists, tables, links kept); the page transform makes the markdown. */
import mammoth from 'mammoth';
import { ApiError } from '../errors.js';
import { openPackage } from './office-zip.js';

export async function docxToHtml(bytes: Buffer): Promise<string> {
  await openPackage(bytes);
  try {
    // externalFileAccess off: a document must not make the server read its own files.
    const result = await mammoth.convertToHtml({ buffer: bytes }, { externalFileAccess: false });
    return `<html><body>${result.value}</body></html>`;
  } catch (e) {
    throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'The DOCX document is damaged and cannot be read', cause: e });
  }
}
