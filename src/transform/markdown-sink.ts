/** The content sink of markdown: the kept elements handed to the streaming markdown writer. */
import type { ContentSink } from './content-sink.js';
import type { Frame } from './frame.js';
import { blankAlts, blankCaptionAlt, blankLooseAlts } from './markdown-alts.js';
import type { MdMark, MdOpen } from './markdown-types.js';
import { MarkdownWriter } from './markdown-writer.js';
import { withoutRepeatedImages, withoutRepeatedText } from './markdown-repeats.js';
import type { AttrView } from './stream.js';
import type { Resolver } from './url.js';
import { imageTarget, linkTarget } from './url-targets.js';

export class MarkdownSink implements ContentSink {
  readonly markdown = true;
  private readonly writer: MarkdownWriter;

  constructor(
    private readonly out: string[],
    private readonly resolve: Resolver,
  ) {
    this.writer = new MarkdownWriter(out);
  }

  mark(into: MdMark): void {
    this.writer.mark(into);
  }

  restore(from: MdMark): void {
    this.writer.restore(from);
  }

  open(name: string, attrs: AttrView, lang: string | undefined): void {
    this.writer.open(name, this.info(name, attrs, lang));
  }

  text(data: string): void {
    this.writer.text(data);
  }

  close(_name: string, _frame: Frame, _text: number): void {
    this.writer.close();
  }

  blankAlts(start: number, end: number): void {
    blankAlts(this.out, start, end);
  }

  blankLooseAlts(start: number, end: number): void {
    blankLooseAlts(this.out, this.writer.loose, start, end);
  }

  blankCaptionAlt(start: number): void {
    blankCaptionAlt(this.out, this.writer.loose, start);
  }

  dropUnpaired(ranges: ReadonlyArray<readonly [number, number]>): void {
    this.writer.dropUnpaired(ranges);
  }

  /** A cell chosen on its own loses its pipes. */
  standalone(md: string, root: string): string {
    return root === 'td' || root === 'th' ? md.replace(/^\| /, '').replace(/ \|$/, '') : md;
  }

  /**
   * Templates render some text twice (a slider's cloned slides, a tab and its accordion twin),
   * and galleries a picture twice (its thumbnail strip): the markdown says it once.
   */
  tidy(md: string, keep?: ReadonlyArray<readonly [number, number]>): string {
    return withoutRepeatedImages(withoutRepeatedText(md, keep));
  }

  title(text: string): string {
    return MarkdownWriter.title(text);
  }

  /** What the markdown writer needs to know about an element being opened. */
  private info(name: string, attrs: AttrView, lang: string | undefined): MdOpen | undefined {
    switch (name) {
      case 'a': {
        const href = attrs.get('href');
        return { url: href === undefined ? undefined : linkTarget(this.resolve, href) };
      }
      case 'img':
        return { url: imageTarget(this.resolve, attrs), alt: attrs.get('alt') };
      case 'pre':
      case 'code':
        return { lang };
      case 'ol': {
        const start = attrs.get('start');
        const n = start === undefined ? NaN : parseInt(start, 10);
        return Number.isFinite(n) ? { start: n } : undefined;
      }
      case 'td':
      case 'th': {
        const span = attrs.get('colspan');
        const n = span === undefined ? NaN : parseInt(span, 10);
        return n > 1 ? { colspan: Math.min(n, 64) } : undefined;
      }
      default:
        return undefined;
    }
  }
}
