/** Text kinds: plain text and markdown pass through; CSV becomes a GFM table. */
import type { Block } from './blocks.js';

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF); a tab-only header switches to TSV. */
export function parseCsv(text: string): string[][] {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const sep = !firstLine.includes(',') && firstLine.includes('\t') ? '\t' : firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === sep) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

export const csvBlocks = (text: string): Block[] => {
  const rows = parseCsv(text);
  return rows.length ? [{ kind: 'table', rows }] : [];
};

/** Line endings normalised and a byte-order mark dropped; otherwise the text is the content. */
export const normaliseText = (text: string) => text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').trim();
