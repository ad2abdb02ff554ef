/**
 * Opening Office Open XML packages safely: a small upload can inflate to gigabytes, so the
 * declared uncompressed sizes are checked before anything is read.
 */
import JSZip from 'jszip';
import { ApiError } from '../errors.js';

/** Total uncompressed bytes a document package may expand to. */
export const MAX_UNZIPPED_BYTES = 512 * 1024 * 1024;

export async function openPackage(bytes: Buffer): Promise<JSZip> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (e) {
    throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'The document is damaged: its zip container cannot be read', cause: e });
  }
  let total = 0;
  zip.forEach((_, file) => {
    // `_data` is JSZip's record of the central directory entry; its size is what inflating yields.
    total += (file as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize ?? 0;
  });
  if (total > MAX_UNZIPPED_BYTES) {
    throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'The document expands to more than 512 MB and is refused' });
  }
  return zip;
}

/** Reads a part as text; a missing or unreadable part is a damaged document. */
export async function readPart(zip: JSZip, name: string): Promise<string | undefined> {
  const file = zip.file(name);
  if (!file) return undefined;
  try {
    return await file.async('string');
  } catch (e) {
    throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: `The document is damaged: part ${name} cannot be read`, cause: e });
  }
}
