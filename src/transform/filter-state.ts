/**
 * What the content filter knows as the page streams past: the open elements, the output kept so
 * far and its counters, the block tree and landmarks recorded for choosing the main block. The
 * filter (clean-html.ts) updates it; the rules (block-rules.ts, link-rules.ts) read it and cut
 * the output back to a mark.
 */
import type { BlockNode } from './block-node.js';
import type { ContentSink } from './content-sink.js';
import { DesktopCss } from './desktop-css.js';
import { Frame, type Mark } from './frame.js';
import { HtmlSink } from './html-sink.js';
import type { Candidate } from './landmarks.js';
import { MarkdownSink } from './markdown-sink.js';
import { LISTED_ARTICLE_DEPTH, SHOWN_PRICE } from './rules/items.js';
import type { AttrView } from './stream.js';
import type { Resolver } from './url.js';

export interface ContentOptions {
  onlyMainContent: boolean;
  /**
   * 'markdown' writes markdown as the page streams past; 'html' writes cleaned HTML that keeps
   * every attribute except event handlers, for the `html` format.
   */
  output: 'markdown' | 'html';
  /** Start offsets of elements matched by includeTags; when set, only those subtrees are kept. */
  includeStarts?: ReadonlySet<number>;
  /** Start offsets of elements matched by excludeTags. */
  excludeStarts?: ReadonlySet<number>;
  /**
   * Main-content mode without the tag/class boilerplate rules: for pages where those rules
   * removed nearly everything (content inside a mis-nested header, say), so only link pruning
   * and content scoring decide. `<noscript>` is read too: some sites serve their content only there.
   */
  lenient?: boolean;
  /**
   * Main-content mode that reads `<noscript>` with the rules on: for pages whose content is only
   * there (a forum's view for crawlers), tried before turning the rules off (see lenient).
   */
  noscript?: boolean;
  /** Start offsets of elements the boilerplate rules must not drop (see ContentResult.misfire). */
  keepStarts?: ReadonlySet<number>;
  /** Elements left out with their subtree, as excludeTags' are (blockAds: see ad-blocks.ts). */
  dropElement?: (name: string, attrs: AttrView) => boolean;
}

export interface ContentResult {
  /** The kept content, as markdown or HTML (see ContentOptions.output). */
  content: string;
  /** Length of the text kept in `html`. */
  keptText: number;
  /** Length of the text the page would keep without boilerplate removal. */
  baseText: number;
  /** Main-content cleaning left almost nothing of a page that has text. */
  nearlyEmpty: boolean;
  /**
   * Start offset of a subtree the boilerplate rules dropped although it holds more prose than
   * everything kept: the rules misfired on the page's content (a page builder's "widget"
   * wrapper, say), and the page should be cleaned again with that subtree exempt.
   */
  misfire?: number;
}

export class FilterState {
  readonly out: string[] = [];
  readonly stack: Frame[] = [];
  readonly pool: Frame[] = [];
  readonly candidates: Candidate[] = [];
  landmarkSeq = 0;
  readonly onlyMain: boolean;
  readonly lenient: boolean;
  readonly readNoscript: boolean;
  /** Where what is kept is written, as markdown or HTML (see ContentOptions.output). */
  readonly sink: ContentSink;
  readonly includeStarts: ReadonlySet<number> | undefined;
  readonly excludeStarts: ReadonlySet<number> | undefined;
  readonly dropElement: ((name: string, attrs: AttrView) => boolean) | undefined;
  /** Stack index of the subtree being dropped as non-content / excluded / outside includes. */
  hardDrop = -1;
  /** Inside a <style> or <script> (raw text; they never nest). */
  inStyleOrScript = false;
  /** Inside a JSON-LD <script>, and whether the page declared itself a discussion (see DISCUSSION_TYPE). */
  inJsonLd = false;
  discussion = false;
  /** Whether the page declared itself a story (see STORY_TYPE). */
  story = false;
  /** The text of the <style> being read, and what the page's style sheets hide on a desktop. */
  styleText: string | undefined = undefined;
  readonly css = new DesktopCss();
  /** Stack index of the subtree being dropped as boilerplate. */
  softDrop = -1;
  includeDepth = -1;
  landmarks = 0;
  /** Open <article> landmarks (see boilerplateReason). */
  articles = 0;
  /** The subtree being dropped is only hidden from screen readers (see ContentFilter.open's img). */
  softDropDecorative = false;
  /** The subtree being dropped is named a footer (see FOOTER_MISFIRE_FACTOR). */
  softDropFooter = false;
  /** The subtree being dropped is only hidden until scripts run (see isScriptHidden), and whether the page's <h1> opened in it. */
  softDropScriptHidden = false;
  softDropH1 = false;
  /** The subtree being dropped is a layer pinned over the viewport (see isPinnedOverlay), and the first such layer that held an <h1>. */
  softDropOverlay = false;
  overlayH1Start = -1;
  navLike = 0;
  lang: string | undefined = undefined;
  inPre = 0;
  keptText = 0;
  linkText = 0;
  inLink = 0;
  baseText = 0;
  droppingNoscript = false;
  /** Open `<a>` elements, kept or dropped as boilerplate. */
  anchors = 0;
  /** The text of the outermost open link, up to CTA_MAX and a chunk. */
  linkWords = '';
  /** Open links hidden from screen readers and kept (see dropReason). */
  hiddenLinks = 0;
  /** Prose-like text (see PROSE_CHUNK) kept, in the boilerplate subtree being dropped, and in the largest one dropped. */
  keptProse = 0;
  /** Text-entry fields seen (see FORM_MIN_FIELDS). */
  fields = 0;
  droppedProse = 0;
  /** Ids of the panels disclosure buttons open (see dropReason). */
  readonly disclosed = new Set<string>();
  /** Depth of the h2-h6 that closed last, until the next tag opens or closes (see ContentFilter.open). */
  headingClosed = -1;
  /** Text and link text of marked cards (see pruneLinkBlock), left out of their ancestors' density. */
  doomedText = 0;
  doomedLink = 0;
  maxDroppedProse = 0;
  softDropStart = -1;
  maxDroppedStart = -1;
  /** The same for a subtree hidden until scripts run: a misfire only on a page left (nearly) empty (see finish). */
  maxHiddenProse = 0;
  maxHiddenStart = -1;
  readonly keepStarts: ReadonlySet<number> | undefined;
  h1Kept = 0;
  h1Capture = -1;
  h1Buf = '';
  /** The h2-h6 being read (its depth, text and where its text starts), for rail headings. */
  headCapture = -1;
  headBuf = '';
  headStartText = 0;
  /** The paragraph being read (its depth) and the opening of its kept text (see PITCH). */
  paraDepth = -1;
  /** Pictures kept so far, and the kept text when the last one came (see isImageCaption). */
  images = 0;
  /** The target of the last link opened, and of the last link that held a picture (see pruneLinkBlock). */
  linkHref: string | undefined;
  /** The last link opened is styled or marked as a button (see isItemLine). */
  linkButton = false;
  /** Links opened so far, to count a block's links (see isTagList). */
  linksOpened = 0;
  pictureHref: string | undefined;
  /** Open em and i elements, and the text kept inside them (see isItalicCaption). */
  inEm = 0;
  emText = 0;
  imageText = -1;
  imageBlock = -1;
  paraHead = '';
  firstH1: string | undefined = undefined;
  atBlockStart = true;
  /** A paragraph that names a rail, and where the output stood when it closed (see pruneTeaserParagraph). */
  railLabel: (Mark & { endChunk: number; endText: number }) | undefined = undefined;
  /**
   * The text kept since the last block boundary that text followed, while it is at most
   * LABEL_MAX long: a short block's own text when it closes (see isLabel), less than its text
   * when it held blocks with text. A boundary only marks the tail stale, so blocks without text
   * (an ad slot's empty box under its label) leave the text before them in place.
   */
  tail = '';
  tailStale = false;
  /**
   * Inline elements side by side with no space between them in the source
   * ("<span>Drama</span><span>Thriller</span>"): 1 after an inline element closed, 2 once the
   * next one opened; and whether the text written last ended in a letter.
   */
  inlineGap = 0;
  lastWord = false;
  inCode = 0;
  /** Code blocks (`<pre>`) kept so far, and the side notes open (see side-note.ts). */
  codeBlocks = 0;
  sideNotes = 0;
  /** Block tree of the kept output, for choosing the content subtree (onlyMainContent only). */
  readonly nodes: BlockNode[] = [];
  blockTop = -1;

  constructor(
    opts: ContentOptions,
    resolve: Resolver,
  ) {
    this.onlyMain = opts.onlyMainContent;
    this.lenient = opts.lenient === true;
    this.readNoscript = this.lenient || opts.noscript === true;
    this.sink = opts.output === 'markdown' ? new MarkdownSink(this.out, resolve) : new HtmlSink(this.out, resolve);
    this.includeStarts = opts.includeStarts;
    this.keepStarts = opts.keepStarts;
    this.excludeStarts = opts.excludeStarts && opts.excludeStarts.size > 0 ? opts.excludeStarts : undefined;
    this.dropElement = opts.dropElement;
  }

  /** Cuts the output back to a mark (a just-closed element's start: its serialization is the output's tail). */
  truncateTo(frame: Mark): void {
    for (let p = this.blockTop; p >= 0 && this.nodes[p]!.last >= frame.startNode; ) {
      const n = this.nodes[p]!;
      n.last = this.nodes[n.last]!.prev;
    }
    this.out.length = frame.startChunk;
    this.sink.restore(frame.md);
    this.nodes.length = frame.startNode;
    this.keptText = frame.startText;
    this.imageText = -1;
    this.linkText = frame.startLink;
    this.doomedText = frame.startDoomedText;
    this.doomedLink = frame.startDoomedLink;
    this.h1Kept = frame.startH1;
    this.tail = '';
    // (A rail's label cut back to, or output cut back below it, is no longer there to drop.)
    this.railLabel = undefined;
    for (let i = frame.startCandidate; i < this.candidates.length; i++) this.candidates[i]!.closed = false;
    this.atBlockStart = true;
  }

  /** The innermost written element around a block that has just left the stack. */
  emittedParent(): Frame | undefined {
    for (let i = this.stack.length - 1; i >= 0; i--) if (this.stack[i]!.emitted) return this.stack[i];
    return undefined;
  }

  /**
   * A cite in a figure credits the picture's photographer or agency ("Sakib Ali/Getty Images"),
   * as a caption does; a quotation's source is cited in a blockquote, not a figure.
   */
  inFigure(): boolean {
    for (let i = this.stack.length - 1; i >= 0; i--) if (this.stack[i]!.name === 'figure') return true;
    return false;
  }

  /**
   * Whether the innermost open <article> is one entry of a list (a feed's post cards, each an
   * <article> in an <li>, perhaps inside a layout wrapper): its <footer> is the entry's author
   * and date line, not a page's or a story's footer.
   */
  inListedArticle(): boolean {
    for (let i = this.stack.length - 1; i > 0; i--) {
      if (!this.stack[i]!.article) continue;
      for (let j = i - 1; j >= 0 && j >= i - LISTED_ARTICLE_DEPTH; j--) if (this.stack[j]!.name === 'li') return true;
      return false;
    }
    return false;
  }

  /** Whether the output between two chunks shows a price (see SHOWN_PRICE). */
  chunksShowPrice(start: number, end: number): boolean {
    let s = '';
    for (let i = start; i < end; i++) s += this.out[i];
    return SHOWN_PRICE.test(s);
  }
}
