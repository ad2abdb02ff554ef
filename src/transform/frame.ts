/** The content filter's record of one open element, and of a point in its output to cut back to. */
import type { Candidate } from './landmarks.js';
import type { MdMark } from './markdown-types.js';

/** A position in the output, with the counters to restore when it is cut back to. */
export interface Mark {
  startChunk: number;
  startText: number;
  startLink: number;
  startH1: number;
  /** Block nodes and landmark candidates recorded before it. */
  startNode: number;
  startCandidate: number;
  startDoomedText: number;
  startDoomedLink: number;
  md: MdMark;
}

/** Per-open-element state; restored when the element closes. Frames are reused by depth. */
export class Frame {
  name = '';
  /** The tag's bits (see tagBitsOf). */
  bits = 0;
  emitted = false;
  candidate: Candidate | undefined = undefined;
  langSet = false;
  prevLang: string | undefined = undefined;
  navLike = false;
  landmark = false;
  /** An <article> landmark. */
  article = false;
  link = false;
  /** An `<a>` outside dropped non-content, emitted or not. */
  anchor = false;
  /** For a link: the first block node opened inside it, and its enclosing block's link text then. */
  linkNodeStart = 0;
  linkOuterNode = -1;
  linkOuterAtOpen = 0;
  /** A block a rail heading introduces (see isRailHeading): dropped when it closes. */
  rail = false;
  /** A link hidden from screen readers (see dropReason). */
  hiddenLink = false;
  /** A <noscript> being read (see ContentOptions.lenient and noscript). */
  noscript = false;
  /** A block whose class names a caption or credit (see isCaptionName): dropped when it closes without an image. */
  caption = false;
  /** A span right after a picture (see isImageCaption), and how many pictures had been kept when it (or a link) opened. */
  spanCaption = false;
  startImages = 0;
  /** A list's item or a block named a slider's part (see SLIDER_CLASS): a slide when it holds only pictures. */
  slide = false;
  /** An em or i (see emText); a block that opens right after a picture, and the italic text kept when it opened (see isItalicCaption). */
  em = false;
  afterImage = false;
  /** A block whose class names a picture's wrapper (see IMAGE_WRAP). */
  imageWrap = false;
  /** A block whose class names an admonition (see isAdmonition): the text's, however linked. */
  admonition = false;
  /** An aside set into a content landmark, judged when it closes (see side-note.ts). */
  sideNote: SideNote | undefined = undefined;
  /** The block the picture right before it sits in (see isWrappedCaption). */
  imageBlock = -1;
  startEm = 0;
  /** Links opened before it (see isTagList). */
  startLinks = 0;
  /** The markdown writer's state when this element opened, to restore if it is removed. */
  readonly md: MdMark = {
    sep: 0,
    sepPrefix: '',
    space: false,
    lineStart: true,
    fresh: 0,
    flushed: 0,
    cells: 0,
    rows: 0,
    rowOpen: false,
    heading: '',
    cellBreak: false,
    lineBreak: false,
  };
  startChunk = 0;
  startText = 0;
  startLink = 0;
  startH1 = 0;
  startProse = 0;
  startFields = 0;
  startDoomedText = 0;
  startDoomedLink = 0;
  startNode = 0;
  startCandidate = 0;
  node = -1;

  reset(name: string, bits: number): this {
    this.name = name;
    this.bits = bits;
    this.emitted = false;
    this.candidate = undefined;
    this.langSet = false;
    this.prevLang = undefined;
    this.navLike = false;
    this.landmark = false;
    this.article = false;
    this.link = false;
    this.anchor = false;
    this.rail = false;
    this.hiddenLink = false;
    this.noscript = false;
    this.caption = false;
    this.slide = false;
    this.spanCaption = false;
    this.em = false;
    this.afterImage = false;
    this.imageWrap = false;
    this.admonition = false;
    this.sideNote = undefined;
    this.imageBlock = -1;
    this.node = -1;
    return this;
  }
}

/** What the filter knew when an aside opened (see side-note.ts): what to judge it by and to restore if it goes. */
export interface SideNote {
  codeBlocks: number;
  keptProse: number;
  imageText: number;
  imageBlock: number;
  images: number;
  pictureHref: string | undefined;
  linkHref: string | undefined;
  linkButton: boolean;
  /** The filter's rail label (FilterState.railLabel). */
  railLabel: (Mark & { endChunk: number; endText: number }) | undefined;
  tail: string;
  lastWord: boolean;
}
