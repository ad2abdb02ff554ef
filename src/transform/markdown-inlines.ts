/**
 * The markdown writer's open inline markers (emphasis, code spans, links), written only when
 * content follows them, and the rules that keep their markdown well formed where HTML nests what
 * markdown cannot:
 * - a code span holds nothing but text: emphasis or code inside it adds nothing a reader of the
 *   code sees, and is left out; a link inside it is written as a link around a code span of its
 *   own, the code before and after it as code spans beside it;
 * - two code spans with nothing between them would run their backticks together into one fence
 *   that ends neither: the second one continues the first (HTML shows them as one run of code).
 */
import { ALT, CODE, type Inline, LINK, longestRun } from './markdown-types.js';
import { destination } from './markdown-escape.js';
import { holds } from './html-util.js';

/** A code span that a following one continued: its closer was blanked, and comes back if the continuation is cut. */
interface Merge {
  closeAt: number;
  closer: string;
  at: number;
  opener: string;
}

export class InlineMarks {
  /** Open markers, outermost first. */
  readonly stack: Inline[] = [];
  /** How many of `stack` (from the outermost) have their opener written. */
  flushed = 0;
  /**
   * Chunk indices of each closed inline's opener and closer, pairwise, in closing order: content
   * selection may keep one without the other (see dropUnpaired).
   */
  readonly pairs: number[] = [];
  /** Code spans a link or an image inside them interrupted, innermost last (see suspendCode). */
  private readonly suspended: Inline[] = [];
  /** The code span closed last and its closer's chunk index (see writeOpeners). */
  private lastCode: Inline | undefined;
  private lastCodeClose = -1;
  private readonly merges: Merge[] = [];

  constructor(private readonly out: string[]) {}

  push(kind: number, open: string, url: string): void {
    this.stack.push({ kind, open, url, at: -1, ticks: 0 });
  }

  top(): Inline | undefined {
    // (Most text is outside any marker: an empty stack is not read past its end, which V8 makes slow.)
    const n = this.stack.length;
    return n > 0 ? this.stack[n - 1] : undefined;
  }

  /** Whether text written now would be inside a link's text. */
  inLink(): boolean {
    return this.holds(LINK);
  }

  /** Whether text written now would be inside a code span. */
  inCode(): boolean {
    return this.holds(CODE);
  }

  /** Whether a marker of this kind is open. */
  holds(kind: number): boolean {
    const st = this.stack;
    for (let i = st.length - 1; i >= 0; i--) if (st[i]!.kind === kind) return true;
    return false;
  }

  /** Whether a code span's opener is written and its closer not yet. */
  inWrittenCode(): boolean {
    for (let i = 0; i < this.flushed; i++) if (this.stack[i]!.kind === CODE) return true;
    return false;
  }

  /** Notes code text about to be written in the innermost code span (its longest backtick run sets the fence). */
  noteCode(s: string): void {
    const top = this.top();
    if (top !== undefined && top.kind === CODE && holds(s, '`')) top.ticks = longestRun(s, '`', top.ticks);
  }

  /** Closes the innermost marker, writing its closer when its opener was written. */
  close(): void {
    const f = this.stack.pop();
    if (f === undefined) return;
    if (f.images !== undefined && f.words === true) {
      for (const i of f.images) {
        const c = this.out[i];
        // The image may have gone with a removed element.
        if (c !== undefined && c.startsWith('![')) this.out[i] = c.replace(ALT, '![]');
      }
    }
    if (this.flushed > this.stack.length) {
      this.flushed = this.stack.length;
      this.pairs.push(f.at, this.out.length);
      this.out.push(this.closer(f));
      if (f.kind === CODE) {
        this.lastCode = f;
        this.lastCodeClose = this.out.length - 1;
      }
    }
  }

  /** Ends the open markers (before a separator or a cell's end); they reopen on the next content. */
  closeAll(): void {
    for (let i = this.flushed - 1; i >= 0; i--) {
      const f = this.stack[i]!;
      this.pairs.push(f.at, this.out.length);
      this.out.push(this.closer(f));
      f.at = -1;
    }
    this.flushed = 0;
  }

  /** Writes the openers of the markers not written yet, just before content. */
  writeOpeners(): void {
    for (let i = this.flushed; i < this.stack.length; i++) {
      const f = this.stack[i]!;
      if (f.kind === CODE && this.continues(f)) continue;
      f.at = this.out.length;
      if (f.kind === CODE) f.ticks = 0;
      this.out.push(f.open);
    }
    this.flushed = this.stack.length;
  }

  /**
   * A code span opened right after the one closed last continues it: that one's closer is blanked
   * and `f` takes over its opener.
   */
  private continues(f: Inline): boolean {
    const last = this.lastCode;
    const closeAt = this.lastCodeClose;
    if (last === undefined || closeAt !== this.out.length - 1) return false;
    const n = this.pairs.length;
    if (n < 2 || this.pairs[n - 1] !== closeAt) return false;
    this.pairs.length = n - 2;
    this.merges.push({ closeAt, closer: this.out[closeAt]!, at: last.at, opener: this.out[last.at]! });
    this.out[closeAt] = '';
    f.at = last.at;
    f.ticks = last.ticks;
    this.lastCode = undefined;
    return true;
  }

  /**
   * Ends the innermost code span before something markdown cannot put inside one (a link, an
   * image); resumeCode takes it up again after it.
   */
  suspendCode(): void {
    const f = this.top();
    if (f === undefined || f.kind !== CODE) return;
    this.close();
    this.suspended.push(f);
  }

  /** Takes up the code span suspendCode ended: its opener is written again before its next text. */
  resumeCode(): void {
    const f = this.suspended.pop();
    if (f === undefined) return;
    // `at` stays: if the output is cut back to before the suspension, the span is open as it was.
    this.stack.push(f);
    if (this.flushed > this.stack.length - 1) this.flushed = this.stack.length - 1;
  }

  /** A link inside a code span: the code stops, the link's text is code of its own (see resumeCode). */
  openLinkInCode(url: string): void {
    this.suspendCode();
    this.push(LINK, '[', url);
    this.push(CODE, '`', '');
  }

  closeLinkInCode(): void {
    this.close();
    this.close();
    this.resumeCode();
  }

  /** Back to a point recorded earlier with `flushed` openers written; the output is already cut back. */
  restore(flushed: number): void {
    const out = this.out;
    this.flushed = Math.min(flushed, this.stack.length);
    for (let i = this.flushed; i < this.stack.length; i++) this.stack[i]!.at = -1;
    while (this.pairs.length > 0 && this.pairs[this.pairs.length - 1]! >= out.length) this.pairs.length -= 2;
    // A code span continued by one that was cut is closed again.
    while (this.merges.length > 0 && this.merges[this.merges.length - 1]!.closeAt >= out.length - 1) {
      const m = this.merges.pop()!;
      if (m.closeAt < out.length) {
        out[m.closeAt] = m.closer;
        out[m.at] = m.opener;
        this.pairs.push(m.at, m.closeAt);
      }
    }
    if (this.lastCodeClose >= out.length) this.lastCode = undefined;
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

  private closer(f: Inline): string {
    switch (f.kind) {
      case LINK:
        return `](${destination(f.url)})`;
      case CODE: {
        // CommonMark: a span holding backticks is fenced by a longer run, and padded with a
        // space on each side (which a reader strips) so a backtick at its edge is not the fence.
        if (f.ticks === 0) return '`';
        const d = '`'.repeat(f.ticks + 1);
        this.out[f.at] = d + ' ';
        return ' ' + d;
      }
      default:
        return f.open;
    }
  }
}
