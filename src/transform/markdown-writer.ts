/**
 * Streaming HTML → markdown. The content pass (clean-html.ts) calls open/text/close for the
 * elements it keeps, and the writer appends markdown to the pass's chunk array, so content
 * selection slices markdown by the same chunk indices it would slice HTML by, and no second
 * parse of the page is needed.
 *
 * Markdown needs some context HTML does not: a list item's continuation lines are indented, a
 * quote's lines are prefixed, a table's header row is followed by a rule. The writer keeps that
 * context as a stack of containers and resolves separators lazily: a block asks for a blank line
 * (or a newline), and the request is honoured when the next visible content arrives, with the
 * prefixes of the containers it lands in. Inline markers (`**`, `[`) are likewise written only
 * when content follows them, so empty emphasis and empty links vanish.
 */
import { ALT, BLOCK, BREAK, CELL, CODE, type Container, DEFINITION, DEFLIST, EMPH, HEADING, IMAGE, IMAGE_FILE, type Inline, isSpace, ITEM, KINDS, LINK, LIST, type ListState, longestRun, type MdMark, type MdOpen, NBSP, PRE, QUOTE, ROW, RULE, SPACE_RUN, STRIKE, STRONG, TABLE, type TableState, TERM } from './markdown-types.js';
import { BRACKETS, clean, destination, escapeInline, escapeLineStart, MAY_NEED_ESCAPE } from './markdown-escape.js';
import { codeAt, decodeText } from './html-util.js';


export class MarkdownWriter {
  /** Containers, outermost first; those from index `fresh` on have written nothing yet. */
  private readonly containers: Container[] = [{ cont: '', marker: undefined }];
  private fresh = 0;
  private readonly inlines: Inline[] = [];
  /** How many of `inlines` (from the outermost) have their opener written. */
  private flushed = 0;
  private readonly lists: ListState[] = [];
  private readonly tables: TableState[] = [];
  /** Column spans of the open top-level cells. */
  private readonly spans: number[] = [];
  /** Element kinds of the open elements the writer handles, to close them in order. */
  private readonly kinds: number[] = [];
  /** Pending separator: 0 none, 1 newline, 2 blank line; and the prefix of that blank line. */
  private sep = 0;
  private sepPrefix = '';
  private space = false;
  private lineStart = true;
  /** Heading marker waiting for the heading's first content. */
  private heading = '';
  private inHeading = 0;
  private inCell = 0;
  private inPre = 0;
  private preStart = false;
  private preFence = -1;
  private preTicks = 0;
  private preEndsWithNewline = true;

  /**
   * Chunk indices of each closed inline's opener and closer, pairwise, in closing order: content
   * selection may keep one without the other (see dropUnpaired).
   */
  private readonly pairs: number[] = [];

  /** Chunk indices of images with alt text outside links, in order (see blankLooseAlts). */
  readonly loose: number[] = [];

  constructor(private readonly out: string[]) {}

  /** Records the state into `m` (frames reuse their record, so marking allocates nothing). */
  mark(m: MdMark): void {
    const t = this.tables[this.tables.length - 1];
    m.sep = this.sep;
    m.sepPrefix = this.sepPrefix;
    m.space = this.space;
    m.lineStart = this.lineStart;
    m.fresh = this.fresh;
    m.flushed = this.flushed;
    m.cells = t?.cells ?? 0;
    m.rows = t?.rows ?? 0;
    m.rowOpen = t?.rowOpen ?? false;
    m.heading = this.heading;
  }

  restore(m: MdMark): void {
    this.sep = m.sep;
    this.sepPrefix = m.sepPrefix;
    this.space = m.space;
    this.lineStart = m.lineStart;
    this.fresh = Math.min(m.fresh, this.containers.length);
    this.flushed = Math.min(m.flushed, this.inlines.length);
    for (let i = this.flushed; i < this.inlines.length; i++) this.inlines[i]!.at = -1;
    const t = this.tables[this.tables.length - 1];
    if (t !== undefined) {
      t.cells = m.cells;
      t.rows = m.rows;
      t.rowOpen = m.rowOpen;
    }
    this.heading = m.heading;
    while (this.pairs.length > 0 && this.pairs[this.pairs.length - 1]! >= this.out.length) this.pairs.length -= 2;
    while (this.loose.length > 0 && this.loose[this.loose.length - 1]! >= this.out.length) this.loose.length--;
  }

  /**
   * Blanks the opener or closer of an inline (a link's "[" or its "](url)", emphasis) whose other
   * half falls outside the kept chunk ranges (sorted, disjoint): a block cut from inside a link
   * takes the link's opening bracket with it, and a link around the kept block leaves its closer
   * outside.
   */
  dropUnpaired(ranges: ReadonlyArray<readonly [number, number]>): void {
    const kept = (i: number): boolean => {
      let lo = 0;
      let hi = ranges.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const r = ranges[mid]!;
        if (i < r[0]) hi = mid - 1;
        else if (i >= r[1]) lo = mid + 1;
        else return true;
      }
      return false;
    };
    for (let k = 0; k < this.pairs.length; k += 2) {
      const open = this.pairs[k]!;
      const close = this.pairs[k + 1]!;
      const o = kept(open);
      if (o !== kept(close)) this.out[o ? open : close] = '';
    }
  }

  open(name: string, info: MdOpen | undefined): void {
    const kind = KINDS.get(name) ?? 0;
    this.kinds.push(kind);
    if (kind === 0) return;
    if (this.inPre > 0) {
      if (kind === BREAK) this.preText('\n');
      // <pre><code class="language-x">: the language is on the code element inside.
      else if (kind === CODE && info?.lang !== undefined && this.out[this.preFence] === '```') this.out[this.preFence] += info.lang;
      return;
    }
    switch (kind) {
      case BLOCK:
      case DEFLIST:
        this.block(2);
        return;
      case HEADING:
        if (this.inCell > 0 || this.inHeading > 0) {
          this.space = true;
        } else {
          this.block(2);
          this.heading = '#'.repeat(name.charCodeAt(1) - 48) + ' ';
        }
        this.inHeading++;
        return;
      case LIST:
        this.block(this.inItem() ? 1 : 2);
        this.lists.push({ ordered: name === 'ol', next: info?.start ?? 1 });
        return;
      case ITEM: {
        if (this.inCell > 0 || this.inHeading > 0) {
          this.space = true;
          return;
        }
        this.block(1);
        const list = this.lists[this.lists.length - 1];
        const marker = list?.ordered ? `${list.next++}. ` : '- ';
        this.push({ cont: ' '.repeat(marker.length), marker });
        return;
      }
      case QUOTE:
        if (this.inCell > 0 || this.inHeading > 0) {
          this.space = true;
          return;
        }
        this.block(2);
        this.push({ cont: '> ', marker: undefined });
        return;
      case TERM:
        this.block(2);
        this.inline(STRONG, '**', '');
        return;
      case DEFINITION:
        this.block(1);
        this.push({ cont: '', marker: undefined });
        return;
      case PRE:
        if (this.inCell > 0 || this.inHeading > 0) {
          this.inline(CODE, '`', '');
          return;
        }
        this.block(2);
        this.flush();
        this.preFence = this.out.length;
        this.preTicks = 0;
        this.out.push('```' + (info?.lang ?? ''));
        this.out.push('\n' + this.linePrefix());
        this.inPre++;
        this.preStart = true;
        this.preEndsWithNewline = true;
        return;
      case TABLE:
        if (this.inCell > 0) {
          this.space = true;
          return;
        }
        this.block(2);
        this.tables.push({ rows: 0, cells: 0, rowOpen: false });
        return;
      case ROW:
        if (this.inCell === 0) this.startRow();
        else this.space = true;
        return;
      case CELL: {
        if (this.inCell > 0) {
          this.space = true;
          this.inCell++;
          return;
        }
        const t = this.tables[this.tables.length - 1];
        if (t === undefined) {
          this.space = true;
          this.inCell++;
          return;
        }
        if (!t.rowOpen) this.startRow();
        this.spans.push(info?.colspan ?? 1);
        this.out.push(t.cells === 0 ? '| ' : ' ');
        this.space = false;
        this.lineStart = true;
        this.inCell++;
        return;
      }
      case STRONG:
        this.inline(STRONG, '**', '');
        return;
      case EMPH:
        this.inline(EMPH, '*', '');
        return;
      case STRIKE:
        this.inline(STRIKE, '~~', '');
        return;
      case CODE:
        this.inline(CODE, '`', '');
        return;
      case LINK:
        // A link inside a link (invalid HTML, which browsers split) is not one in markdown either:
        // a reader would show the outer link's brackets and target as text. Its text stays.
        if (info?.url !== undefined && !this.inLink()) this.inline(LINK, '[', info.url);
        else this.kinds[this.kinds.length - 1] = 0;
        return;
      case IMAGE:
        if (info?.url !== undefined) {
          this.flush();
          let alt = info.alt === undefined ? '' : clean(decodeText(info.alt)).replace(BRACKETS, '\\$&');
          if (alt !== '') {
            let linked = false;
            for (let i = this.inlines.length - 1; i >= 0; i--) {
              const f = this.inlines[i]!;
              if (f.kind !== LINK) continue;
              linked = true;
              // A picture that links to another page (a teaser's photo, a card's image, a partner's
              // badge) shows that page, not this one: its alt text is not this page's text. One
              // that links to a larger copy of itself is this page's picture, and keeps its alt,
              // unless the link names its target in words too.
              if (!IMAGE_FILE.test(f.url)) alt = '';
              else (f.images ??= []).push(this.out.length);
              break;
            }
            if (!linked) this.loose.push(this.out.length);
          }
          this.out.push(`![${alt}](${destination(info.url)})`);
          this.lineStart = false;
        }
        return;
      case BREAK:
        // A line break in a link's text is a space: many readers take a link's text line by line.
        if (this.inCell > 0 || this.inHeading > 0 || this.inLink()) this.space = true;
        else if (!this.lineStart && this.sep === 0 && this.fresh >= this.containers.length) {
          this.out.push('\\\n' + this.linePrefix());
          this.space = false;
          this.lineStart = true;
        }
        return;
      case RULE:
        if (this.inCell > 0 || this.inHeading > 0) return;
        this.block(2);
        this.flush();
        this.out.push('---');
        this.lineStart = false;
        this.block(2);
        return;
    }
  }

  close(): void {
    const kind = this.kinds.pop() ?? 0;
    if (kind === 0) return;
    if (this.inPre > 0 && kind !== PRE) return;
    switch (kind) {
      case BLOCK:
      case DEFLIST:
        this.block(2);
        return;
      case HEADING:
        this.inHeading--;
        if (this.inHeading === 0 && this.inCell === 0) {
          this.heading = '';
          this.block(2);
        }
        return;
      case LIST:
        if (this.inCell > 0 || this.inHeading > 0) return;
        this.lists.pop();
        this.block(this.inItem() ? 1 : 2);
        return;
      case ITEM:
      case QUOTE:
        // Inside a cell or heading neither opened a container (see open), so there is none to end.
        if (this.inCell > 0 || this.inHeading > 0) {
          this.space = true;
          return;
        }
        this.pop();
        this.block(kind === ITEM ? 1 : 2);
        return;
      case TERM:
        this.closeInline();
        this.block(1);
        return;
      case DEFINITION:
        this.pop();
        this.block(2);
        return;
      case PRE:
        if (this.inPre === 0) {
          this.closeInline();
          return;
        }
        this.inPre--;
        if (!this.preEndsWithNewline) this.out.push('\n' + this.linePrefix());
        if (this.preTicks >= 3) {
          const fence = '`'.repeat(this.preTicks + 1);
          this.out[this.preFence] = fence + this.out[this.preFence]!.slice(3);
          this.out.push(fence);
        } else this.out.push('```');
        this.lineStart = false;
        this.space = false;
        this.block(2);
        return;
      case TABLE:
        if (this.inCell > 0) {
          this.space = true;
          return;
        }
        this.endRow();
        this.tables.pop();
        this.block(2);
        return;
      case ROW:
        if (this.inCell === 0) this.endRow();
        else this.space = true;
        return;
      case CELL: {
        this.inCell--;
        if (this.inCell > 0) {
          this.space = true;
          return;
        }
        const t = this.tables[this.tables.length - 1];
        if (t === undefined) return;
        this.closeAllInlines();
        // A cell spanning columns is followed by empty ones, so later cells stay under their headers.
        const span = this.spans.pop() ?? 1;
        this.out.push(span > 1 ? ' |' + ' |'.repeat(span - 1) : ' |');
        t.cells += span;
        this.space = false;
        return;
      }
      case STRONG:
      case EMPH:
      case STRIKE:
      case CODE:
      case LINK:
        this.closeInline();
        return;
    }
  }

  /** Raw (entity-encoded) text. */
  text(raw: string): void {
    let s = raw.includes('&') ? decodeText(raw) : raw;
    if (this.inPre > 0) {
      this.preText(s);
      return;
    }
    const n = s.length;
    let start = 0;
    while (start < n && isSpace(codeAt(s, start))) start++;
    if (start === n) {
      if (n > 0) this.space = true;
      return;
    }
    let end = n;
    while (isSpace(codeAt(s, end - 1))) end--;
    if (start > 0 || end < n) s = s.slice(start, end);
    if (s.includes('\u00a0')) s = s.replace(NBSP, ' ');
    s = s.replace(SPACE_RUN, ' ');
    if (start > 0) this.space = true;
    const top = this.inlines[this.inlines.length - 1];
    let inLink = false;
    if (top !== undefined) {
      if (top.kind === CODE) top.ticks = longestRun(s, '`', top.ticks);
      for (let i = this.inlines.length - 1; i >= 0; i--) {
        const f = this.inlines[i]!;
        if (f.kind === LINK) {
          f.words = true;
          inLink = true;
          // A bracket in a link's text would end it early (an unbalanced one always), and so would
          // a backslash before the closing one: escaped, as in alt text. Not in code, where they
          // are the code's own.
          if (top.kind !== CODE && (s.includes('[') || s.includes(']') || s.includes('\\'))) s = s.replace(BRACKETS, '\\$&');
          break;
        }
      }
    }
    // Text is text: marks that a markdown reader would take for syntax are escaped, code aside.
    if (top?.kind !== CODE) {
      if (MAY_NEED_ESCAPE.test(s)) s = escapeInline(s, !inLink);
      if (this.inlines.length === 0 && this.inCell === 0 && this.heading === '' && (this.lineStart || this.sep > 0)) s = escapeLineStart(s);
    }
    // A pipe splits a table's cell wherever it stands, inside a link, emphasis or code too.
    if (this.inCell > 0 && s.includes('|')) s = s.replace(/\|/g, '\\|');
    this.flush();
    this.out.push(s);
    this.lineStart = false;
    if (end < n) this.space = true;
  }

  /** The markdown of the title heading put in front of selected content. */
  static title(text: string): string {
    return `# ${text}\n\n`;
  }

  private preText(s: string): void {
    if (this.preStart) {
      // A newline right after <pre> is not part of its content.
      this.preStart = false;
      if (s.charCodeAt(0) === 10) s = s.slice(1);
      else if (s.startsWith('\r\n')) s = s.slice(2);
    }
    if (s.length === 0) return;
    if (s.includes('\r')) s = s.replace(/\r\n?/g, '\n');
    if (s.includes('`')) this.preTicks = longestRun(s, '`', this.preTicks);
    const prefix = this.linePrefix();
    this.out.push(prefix === '' ? s : s.replace(/\n/g, '\n' + prefix));
    this.preEndsWithNewline = s.charCodeAt(s.length - 1) === 10;
  }

  /** Whether text written now would be inside a link's text. */
  private inLink(): boolean {
    return this.inlines.some((f) => f.kind === LINK);
  }

  private inItem(): boolean {
    return this.containers.length > 1 && this.containers[this.containers.length - 1]!.marker !== undefined;
  }

  private push(c: Container): void {
    this.containers.push(c);
  }

  private pop(): void {
    if (this.containers.length <= 1) return;
    this.containers.pop();
    if (this.fresh > this.containers.length) this.fresh = this.containers.length;
  }

  /** Asks for a separator before the next content; ignored at the very start of a container. */
  private block(n: number): void {
    if (this.inCell > 0 || this.inHeading > 0) {
      this.space = true;
      return;
    }
    if (this.fresh < this.containers.length) return;
    if (this.sep === 0) this.sepPrefix = this.linePrefix();
    if (n > this.sep) this.sep = n;
  }

  private inline(kind: number, open: string, url: string): void {
    this.inlines.push({ kind, open, url, at: -1, ticks: 0 });
  }

  private closeInline(): void {
    const f = this.inlines.pop();
    if (f === undefined) return;
    if (f.images !== undefined && f.words === true) {
      for (const i of f.images) {
        const c = this.out[i];
        // The image may have gone with a removed element.
        if (c !== undefined && c.startsWith('![')) this.out[i] = c.replace(ALT, '![]');
      }
    }
    if (this.flushed > this.inlines.length) {
      this.flushed = this.inlines.length;
      this.pairs.push(f.at, this.out.length);
      this.out.push(this.closer(f));
    }
  }

  /** Ends the open inline markers (before a separator or a cell's end); they reopen on the next content. */
  private closeAllInlines(): void {
    for (let i = this.flushed - 1; i >= 0; i--) {
      const f = this.inlines[i]!;
      this.pairs.push(f.at, this.out.length);
      this.out.push(this.closer(f));
      f.at = -1;
    }
    this.flushed = 0;
  }

  private closer(f: Inline): string {
    switch (f.kind) {
      case LINK:
        return `](${destination(f.url)})`;
      case CODE: {
        if (f.ticks === 0) return '`';
        const d = '`'.repeat(f.ticks + 1);
        this.out[f.at] = d + ' ';
        return ' ' + d;
      }
      default:
        return f.open;
    }
  }

  /** The prefix of a new line in the current containers; list markers of fresh items included. */
  private linePrefix(): string {
    const cs = this.containers;
    if (cs.length === 1) return '';
    let p = '';
    for (let i = 1; i < cs.length; i++) {
      const c = cs[i]!;
      p += i >= this.fresh && c.marker !== undefined ? c.marker : c.cont;
    }
    return p;
  }

  /** Writes what must precede visible content: separator, line prefix, space, inline openers. */
  private flush(): void {
    if (this.sep > 0) {
      if (this.flushed > 0) this.closeAllInlines();
      if (this.out.length > 0 && !this.atDocumentStart()) {
        const blank = this.sep === 2 ? '\n' + this.sepPrefix.trimEnd() : '';
        this.out.push(blank + '\n');
      }
      this.sep = 0;
      this.lineStart = true;
      this.space = false;
    }
    if (this.lineStart) {
      const p = this.linePrefix();
      if (p !== '' && this.inCell === 0) this.out.push(p);
      this.fresh = this.containers.length;
      if (this.heading !== '') {
        this.out.push(this.heading);
        this.heading = '';
      }
    } else if (this.space) {
      this.out.push(' ');
    }
    this.space = false;
    this.fresh = this.containers.length;
    for (let i = this.flushed; i < this.inlines.length; i++) {
      const f = this.inlines[i]!;
      f.at = this.out.length;
      this.out.push(f.open);
    }
    this.flushed = this.inlines.length;
  }

  /** Nothing visible written yet (the chunks so far, if any, are whitespace). */
  private atDocumentStart(): boolean {
    return this.out.length === 0;
  }

  private startRow(): void {
    const t = this.tables[this.tables.length - 1];
    if (t === undefined) return;
    if (t.rowOpen) this.endRow();
    if (t.rows === 0) {
      this.flush();
    } else {
      this.out.push('\n' + this.linePrefix());
    }
    t.rowOpen = true;
    t.cells = 0;
  }

  private endRow(): void {
    const t = this.tables[this.tables.length - 1];
    if (t === undefined || !t.rowOpen) return;
    t.rowOpen = false;
    if (t.cells === 0) return;
    if (t.rows === 0) this.out.push('\n' + this.linePrefix() + '|' + ' --- |'.repeat(t.cells));
    t.rows++;
    this.lineStart = false;
  }
}
