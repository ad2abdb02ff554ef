/**
 * Where the content filter writes what it keeps: cleaned HTML (the html format) or markdown
 * written as the page streams past. Both append to the filter's chunk list, which the filter
 * cuts back and narrows to the main block; the sink keeps what it needs to be cut back with it.
 */
import type { Frame } from './frame.js';
import type { MdMark } from './markdown-types.js';
import type { AttrView } from './stream.js';

export interface ContentSink {
  /** Markdown: inline wrappers that only carry attributes write nothing, and boxes side by side are spaced. */
  readonly markdown: boolean;
  /** Records the sink's state at a point the filter may cut back to, and returns to it. */
  mark(into: MdMark): void;
  restore(from: MdMark): void;
  /** An element kept opens; `lang` is the code language of a <pre> or <code>. */
  open(name: string, attrs: AttrView, lang: string | undefined): void;
  text(data: string): void;
  /** A kept element closes, having kept `text` characters of text. */
  close(name: string, frame: Frame, text: number): void;
  /** Pictures' alt text the page does not show as text (see MarkdownWriter). */
  blankAlts(start: number, end: number): void;
  blankLooseAlts(start: number, end: number): void;
  blankCaptionAlt(start: number): void;
  /** Drops the halves of inline pairs (links, emphasis) that the kept ranges cut in two. */
  dropUnpaired(ranges: ReadonlyArray<readonly [number, number]>): void;
  /** A block chosen on its own whose root only means something inside its parent, made whole. */
  standalone(content: string, root: string): string;
  /** The main content's last tidying (text a template renders twice), leaving the character spans `keep` alone. */
  tidy(content: string, keep?: ReadonlyArray<readonly [number, number]>): string;
  /** The page's title, to put before content that lacks it. */
  title(text: string): string;
}
