/**
 * The markdown writer's GFM tables: rows of cells on one line each, the header row followed by
 * its rule, a cell spanning columns followed by empty ones. What a cell holds is written by the
 * writer; blocks inside a cell (paragraphs, list items, line breaks) are parted by `<br>`, the one
 * line break a GFM cell can hold.
 */
import type { MdMark, TableState } from './markdown-types.js';

/** What a table needs of the writer around it. */
export interface TableHost {
  /** Writes what precedes the table's first row (its separator from the text before). */
  flush(): void;
  /** The prefix of a new line in the containers the table sits in (a list item, a quote). */
  linePrefix(): string;
  /** A row's line is written: what comes next is not at a line's start. */
  rowWritten(): void;
}

/** Parts a cell's blocks from one another. */
export const CELL_BREAK = '<br>';

export class Tables {
  private readonly open: TableState[] = [];
  /** Column spans of the open top-level cells. */
  private readonly spans: number[] = [];

  constructor(
    private readonly out: string[],
    private readonly host: TableHost,
  ) {}

  get current(): TableState | undefined {
    // (Most elements sit in no table: an empty stack is not read past its end, which V8 makes slow.)
    const n = this.open.length;
    return n === 0 ? undefined : this.open[n - 1];
  }

  start(): void {
    this.open.push({ rows: 0, cells: 0, rowOpen: false });
  }

  end(): void {
    this.endRow();
    this.open.pop();
  }

  mark(m: MdMark): void {
    const t = this.current;
    m.cells = t?.cells ?? 0;
    m.rows = t?.rows ?? 0;
    m.rowOpen = t?.rowOpen ?? false;
  }

  restore(m: MdMark): void {
    const t = this.current;
    if (t === undefined) return;
    t.cells = m.cells;
    t.rows = m.rows;
    t.rowOpen = m.rowOpen;
  }

  startRow(): void {
    const t = this.current;
    if (t === undefined) return;
    if (t.rowOpen) this.endRow();
    if (t.rows === 0) this.host.flush();
    else this.out.push('\n' + this.host.linePrefix());
    t.rowOpen = true;
    t.cells = 0;
  }

  endRow(): void {
    const t = this.current;
    if (t === undefined || !t.rowOpen) return;
    t.rowOpen = false;
    if (t.cells === 0) return;
    if (t.rows === 0) this.out.push('\n' + this.host.linePrefix() + '|' + ' --- |'.repeat(t.cells));
    t.rows++;
    this.host.rowWritten();
  }

  /** Opens a top-level cell; false outside a table (the cell's text then flows inline). */
  openCell(colspan: number): boolean {
    const t = this.current;
    if (t === undefined) return false;
    if (!t.rowOpen) this.startRow();
    this.spans.push(colspan);
    this.out.push(t.cells === 0 ? '| ' : ' ');
    return true;
  }

  closeCell(): void {
    const t = this.current;
    if (t === undefined) return;
    // A cell spanning columns is followed by empty ones, so later cells stay under their headers.
    const span = this.spans.pop() ?? 1;
    this.out.push(span > 1 ? ' |' + ' |'.repeat(span - 1) : ' |');
    t.cells += span;
  }
}
