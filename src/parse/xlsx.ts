/** XLSX: each worksheet becomes a heading and a GFM table of its used range (displayed cell text). */
import ExcelJS from 'exceljs';
import { ApiError } from '../errors.js';
import type { Block } from './blocks.js';
import { openPackage } from './office-zip.js';

export async function xlsxBlocks(bytes: Buffer): Promise<Block[]> {
  await openPackage(bytes);
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (e) {
    throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'The XLSX workbook is damaged and cannot be read', cause: e });
  }
  const blocks: Block[] = [];
  for (const sheet of wb.worksheets) {
    if (sheet.state === 'veryHidden') continue;
    blocks.push({ kind: 'heading', level: 2, text: sheet.name });
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row, n) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        cells[col - 1] = cellText(cell);
      });
      rows[n - 1] = Array.from(cells, (c) => c ?? '');
    });
    const table = trim(Array.from(rows, (r) => r ?? []));
    if (table.length) blocks.push({ kind: 'table', rows: table });
  }
  return blocks;
}

function cellText(cell: ExcelJS.Cell): string {
  try {
    return cell.text ?? '';
  } catch {
    return String(cell.value ?? '');
  }
}

/** Drops empty leading/trailing rows and columns, so a sheet's used range is what remains. */
function trim(rows: string[][]): string[][] {
  const filled = (r: string[]) => r.some((c) => c.trim() !== '');
  while (rows.length && !filled(rows[0]!)) rows.shift();
  while (rows.length && !filled(rows.at(-1)!)) rows.pop();
  if (!rows.length) return rows;
  const width = Math.max(...rows.map((r) => r.length));
  const used = (i: number) => rows.some((r) => (r[i] ?? '').trim() !== '');
  let first = 0;
  let last = width - 1;
  while (first < last && !used(first)) first++;
  while (last > first && !used(last)) last--;
  return rows.map((r) => Array.from({ length: last - first + 1 }, (_, i) => r[first + i] ?? ''));
}
