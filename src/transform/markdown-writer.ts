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
import { BLOCK, BREAK, CELL, CODE, type Container, DEFINITION, DEFLIST, EMPH, HEADING, IMAGE, IMAGE_FILE, isSpace, ITEM, KINDS, LINK, LIST, type ListState, longestRun, type MdMark, type MdOpen, NBSP, PRE, QUOTE, ROW, RULE, SPACE_RUN, STRIKE, STRONG, TABLE, TERM } from './markdown-types.js';
import { BRACKETS, clean, destination, escapeInline, escapeLineStart, MAY_NEED_ESCAPE } from './markdown-escape.js';
import { codeAt, decodeText, holds } from './html-util.js';
import { InlineMarks } from './markdown-inlines.js';
import { CELL_BREAK, Tables } from './markdown-table.js';

/** The writer's own kind for a link inside a code span (see InlineMarks.openLinkInCode). */
const LINK_IN_CODE = -1;


export class MarkdownWriter {
  /** Containers, outermost first; those from index `fresh` on have written nothing yet. */
  private readonly containers: Container[] = [{ cont: '', marker: undefined }];
  private fresh = 0;
  private readonly marks: InlineMarks;
  private readonly lists: ListState[] = [];
  private readonly tables: Tables;
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
  /** A block inside a cell ended or began: its next content is parted from the cell's earlier content. */
  private cellBreak = false;
  /**
   * A line break waiting for the next content. Written only then, it comes after the closers of
   * emphasis that ends with the break (a closer at a line's start closes nothing in markdown),
   * and a break that ends its block is left out (there it would be a stray backslash).
   */
  private lineBreak = false;
  private inPre = 0;
  private preStart = false;
  private preFence = -1;
  private preTicks = 0;
  private preEndsWithNewline = true;

  /** Chunk indices of images with alt text outside links, in order (see blankLooseAlts). */
  readonly loose: number[] = [];

  constructor(private readonly out: string[]) {
    this.marks = new InlineMarks(out);
    this.tables = new Tables(out, {
      flush: () => this.flush(),
      linePrefix: () => this.linePrefix(),
      rowWritten: () => {
        this.lineStart = false;
      },
    });
  }

  /** Records the state into `m` (frames reuse their record, so marking allocates nothing). */
  mark(m: MdMark): void {
    m.sep = this.sep;
    m.sepPrefix = this.sepPrefix;
    m.space = this.space;
    m.lineStart = this.lineStart;
    m.fresh = this.fresh;
    m.flushed = this.marks.flushed;
    this.tables.mark(m);
    m.heading = this.heading;
    m.cellBreak = this.cellBreak;
    m.lineBreak = this.lineBreak;
  }

  restore(m: MdMark): void {
    this.sep = m.sep;
    this.sepPrefix = m.sepPrefix;
    this.space = m.space;
    this.lineStart = m.lineStart;
    this.fresh = Math.min(m.fresh, this.containers.length);
    this.marks.restore(m.flushed);
    this.tables.restore(m);
    this.heading = m.heading;
    this.cellBreak = m.cellBreak;
    this.lineBreak = m.lineBreak;
    while (this.loose.length > 0 && this.loose[this.loose.length - 1]! >= this.out.length) this.loose.length--;
  }

  /** See InlineMarks.dropUnpaired. */
  dropUnpaired(ranges: ReadonlyArray<readonly [number, number]>): void {
    this.marks.dropUnpaired(ranges);
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
          this.block(2);
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
          this.block(1);
          return;
        }
        this.block(1);
        const list = this.lists.length > 0 ? this.lists[this.lists.length - 1] : undefined;
        const marker = list?.ordered ? `${list.next++}. ` : '- ';
        this.push({ cont: ' '.repeat(marker.length), marker });
        return;
      }
      case QUOTE:
        if (this.inCell > 0 || this.inHeading > 0) {
          this.block(2);
          return;
        }
        this.block(2);
        this.push({ cont: '> ', marker: undefined });
        return;
      case TERM:
        this.block(2);
        this.marks.push(STRONG, '**', '');
        return;
      case DEFINITION:
        this.block(1);
        this.push({ cont: '', marker: undefined });
        return;
      case PRE:
        if (this.inCell > 0 || this.inHeading > 0) {
          this.block(2);
          this.inline(CODE, '`');
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
        // A table inside a cell is a block of the cell (see Tables).
        this.block(2);
        if (this.inCell === 0) this.tables.start();
        return;
      case ROW:
        if (this.inCell === 0) this.tables.startRow();
        else this.block(1);
        return;
      case CELL:
        if (this.inCell === 0 && this.tables.openCell(info?.colspan ?? 1)) {
          this.space = false;
          this.lineStart = true;
          this.cellBreak = false;
        } else this.space = true;
        this.inCell++;
        return;
      case STRONG:
        this.inline(STRONG, '**');
        return;
      case EMPH:
        this.inline(EMPH, '*');
        return;
      case STRIKE:
        this.inline(STRIKE, '~~');
        return;
      case CODE:
        this.inline(CODE, '`');
        return;
      case LINK:
        // A link inside a link (invalid HTML, which browsers split) is not one in markdown either:
        // a reader would show the outer link's brackets and target as text. Its text stays.
        if (info?.url === undefined || this.marks.inLink()) this.kinds[this.kinds.length - 1] = 0;
        else if (this.marks.inCode()) {
          this.marks.openLinkInCode(info.url);
          this.kinds[this.kinds.length - 1] = LINK_IN_CODE;
        } else this.marks.push(LINK, '[', info.url);
        return;
      case IMAGE:
        if (info?.url !== undefined) {
          // Markdown shows no picture inside a code span: the span stops for it.
          const inCode = this.marks.inCode();
          if (inCode) this.marks.suspendCode();
          this.flush();
          let alt = info.alt === undefined ? '' : clean(decodeText(info.alt)).replace(BRACKETS, '\\$&');
          if (alt !== '') {
            let linked = false;
            for (let i = this.marks.stack.length - 1; i >= 0; i--) {
              const f = this.marks.stack[i]!;
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
          if (inCode) this.marks.resumeCode();
        }
        return;
      case BREAK:
        // A line break in a link's text is a space: many readers take a link's text line by line.
        // In code it is one too: a code span is one line.
        if (this.inHeading > 0 || this.marks.inLink() || this.marks.inCode()) this.space = true;
        else if (this.inCell > 0) this.cellBreak = true;
        else if (!this.lineStart && this.sep === 0 && this.fresh >= this.containers.length) this.lineBreak = true;
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
        if (this.inHeading === 0) {
          if (this.inCell === 0) this.heading = '';
          this.block(2);
        }
        return;
      case LIST:
        if (this.inCell > 0 || this.inHeading > 0) {
          this.block(1);
          return;
        }
        this.lists.pop();
        this.block(this.inItem() ? 1 : 2);
        return;
      case ITEM:
      case QUOTE:
        // Inside a cell or heading neither opened a container (see open), so there is none to end.
        if (this.inCell > 0 || this.inHeading > 0) {
          this.block(kind === ITEM ? 1 : 2);
          return;
        }
        this.pop();
        this.block(kind === ITEM ? 1 : 2);
        return;
      case TERM:
        this.marks.close();
        this.block(1);
        return;
      case DEFINITION:
        this.pop();
        this.block(2);
        return;
      case PRE:
        if (this.inPre === 0) {
          this.marks.close();
          this.block(2);
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
        if (this.inCell === 0) this.tables.end();
        this.block(2);
        return;
      case ROW:
        if (this.inCell === 0) this.tables.endRow();
        else this.block(1);
        return;
      case CELL:
        this.inCell--;
        if (this.inCell > 0 || this.tables.current === undefined) {
          this.space = true;
          return;
        }
        this.marks.closeAll();
        this.tables.closeCell();
        this.space = false;
        this.cellBreak = false;
        return;
      case STRONG:
      case EMPH:
      case STRIKE:
      case CODE:
      case LINK:
        this.marks.close();
        return;
      case LINK_IN_CODE:
        this.marks.closeLinkInCode();
        return;
    }
  }

  /** Raw (entity-encoded) text. */
  text(raw: string): void {
    let s = holds(raw, '&') ? decodeText(raw) : raw;
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
    if (holds(s, '\u00a0')) s = s.replace(NBSP, ' ');
    s = s.replace(SPACE_RUN, ' ');
    if (start > 0) this.space = true;
    const inlines = this.marks.stack;
    const top = this.marks.top();
    let inLink = false;
    if (top !== undefined) {
      for (let i = inlines.length - 1; i >= 0; i--) {
        const f = inlines[i]!;
        if (f.kind === LINK) {
          f.words = true;
          inLink = true;
          // A bracket in a link's text would end it early (an unbalanced one always), and so would
          // a backslash before the closing one: escaped, as in alt text. Not in code, where they
          // are the code's own.
          if (top.kind !== CODE && (holds(s, '[') || holds(s, ']') || holds(s, '\\'))) s = s.replace(BRACKETS, '\\$&');
          break;
        }
      }
    }
    // Text is text: marks that a markdown reader would take for syntax are escaped, code aside.
    if (top?.kind !== CODE) {
      if (MAY_NEED_ESCAPE.test(s)) s = escapeInline(s, !inLink);
      if (inlines.length === 0 && this.inCell === 0 && this.heading === '' && (this.lineStart || this.sep > 0 || this.lineBreak)) s = escapeLineStart(s);
    }
    // A pipe splits a table's cell wherever it stands, inside a link, emphasis or code too.
    if (this.inCell > 0 && holds(s, '|')) s = s.replace(/\|/g, '\\|');
    this.flush();
    // After the openers: a code span opened now starts its backtick count afresh (see InlineMarks).
    if (top?.kind === CODE) this.marks.noteCode(s);
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
    if (this.inCell > 0) {
      this.cellBreak = true;
      return;
    }
    if (this.inHeading > 0) {
      this.space = true;
      return;
    }
    if (this.fresh < this.containers.length) return;
    if (this.sep === 0) this.sepPrefix = this.linePrefix();
    if (n > this.sep) this.sep = n;
  }

  /**
   * Opens an inline marker. Inside a code span, where markdown has none, the element adds nothing;
   * so does emphasis inside emphasis of its kind (a bold word in a bold term): HTML shows no
   * change, and markdown would run the markers together (`****`).
   */
  private inline(kind: number, open: string): void {
    if (this.marks.inCode() || (kind !== CODE && this.marks.holds(kind))) this.kinds[this.kinds.length - 1] = 0;
    else this.marks.push(kind, open, '');
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
      if (this.marks.flushed > 0) this.marks.closeAll();
      if (this.out.length > 0 && !this.atDocumentStart()) {
        const blank = this.sep === 2 ? '\n' + this.sepPrefix.trimEnd() : '';
        this.out.push(blank + '\n');
      }
      this.sep = 0;
      this.lineStart = true;
      this.space = false;
    } else if (this.lineBreak) {
      this.out.push('\\\n');
      this.lineStart = true;
    }
    this.lineBreak = false;
    if (this.lineStart) {
      const p = this.linePrefix();
      if (p !== '' && this.inCell === 0) this.out.push(p);
      this.fresh = this.containers.length;
      if (this.heading !== '') {
        this.out.push(this.heading);
        this.heading = '';
      }
    } else if (this.cellBreak && this.inCell > 0) {
      // A code span is one line: there a block's end is a space.
      this.out.push(this.marks.inWrittenCode() ? ' ' : CELL_BREAK);
    } else if (this.space) {
      this.out.push(' ');
    }
    this.space = false;
    this.cellBreak = false;
    this.fresh = this.containers.length;
    this.marks.writeOpeners();
  }

  /** Nothing visible written yet (the chunks so far, if any, are whitespace). */
  private atDocumentStart(): boolean {
    return this.out.length === 0;
  }
}
