/**
 * The content half of the streaming pass: writes the document's kept elements to a sink (clean
 * HTML or markdown) while it is parsed, dropping non-content and (optionally) boilerplate
 * subtrees by the rules (rules/, block-rules.ts, link-rules.ts), and recording the block tree
 * and where main/article landmarks start and end in the output so the page can be narrowed to
 * its main block afterwards without a DOM.
 */
import { dropReason, isCallToAction, isCaption, isControlLabel, isEntryForm, isImageCaption, isItalicCaption, isLabel, isWrappedCaption } from './block-rules.js';
import { blockHint, isNumberedTitle, mayBeNumberedTitle } from './block-node.js';
import { STYLE_MAX } from './desktop-css.js';
import { type ContentResult, FilterState } from './filter-state.js';
import { Frame } from './frame.js';
import { isAdmonition } from './doc-parts.js';
import { type AttrSource, cleanText, codeAt } from './html-util.js';
import { longLinkAsText, pruneLinkBlock, repeatedItems } from './link-rules.js';
import { closeSideNote, dropBareSideNote } from './side-note.js';
import { describedSpans } from './described-spans.js';
import { isNearlyEmpty, isScriptHidden, landmarkKind, mayMisfire, PINNED_OVERLAY } from './main-content.js';
import { codeLanguage } from './markdown.js';
import { isHtmlSpace, isLetter, PUNCT } from './rules/chars.js';
import { classFacts, DISCUSSION_TYPE, isCaptionName, NAMES_CODE, NAMES_IMAGE_WRAP, NAMES_SLIDER, namesPrice, shapeOf, STORY_TYPE } from './rules/class-names.js';
import { isEntryField } from './rules/forms.js';
import { CTA_MAX } from './rules/links.js';
import { PITCH_HEAD, PROSE_CHUNK } from './rules/paragraphs.js';
import { JS_NOTICE, JS_NOTICE_MAX, LABEL_MAX, LOADING, LOADING_MAX, mayBeLoading } from './rules/placeholders.js';
import { isRailHeadingParts, PART } from './rules/rail-heading.js';
import { FOOTER_MISFIRE_FACTOR, MISFIRE_MIN_PROSE } from './rules/reasons.js';
import { type MainBlock, selectMain } from './select-main.js';
import type { AttrView } from './stream.js';
import { IS_BLOCK, IS_CODE_INLINE, IS_GAP_INLINE, IS_NON_CONTENT, IS_SUBHEADING, IS_UNWRAP, IS_VOID, tagBitsOf } from './tag-bits.js';

export type { ContentOptions, ContentResult } from './filter-state.js';

export class ContentFilter extends FilterState {
  open(name: string, attrs: AttrView, start: number): void {
    this.noteDocument(name, attrs);
    // Parts of a heading set apart in elements of their own (see isRailHeading) are told apart.
    if (this.headCapture >= 0 && this.headBuf.length < 200) this.headBuf += PART;
    const bits = tagBitsOf(name);
    const afterHeading = this.headingClosed === this.stack.length;
    this.headingClosed = -1;
    if (this.inlineGap !== 0) this.inlineGap = bits & IS_GAP_INLINE ? 2 : 0;
    if (bits & IS_CODE_INLINE) this.inCode++;
    const depth = this.stack.length;
    const frame = (this.pool[depth] ??= new Frame()).reset(name, bits);
    this.stack.push(frame);
    if (name === 'nav' || name === 'footer' || name === 'aside') {
      frame.navLike = true;
      this.navLike++;
    }
    if (this.hardDrop >= 0) return;
    if ((name === 'input' && isEntryField(attrs)) || name === 'textarea') this.fields++;
    if (
      name === 'h1' &&
      this.h1Capture < 0 &&
      this.firstH1 === undefined &&
      this.navLike === 0 &&
      this.includeStarts === undefined
    ) {
      this.h1Capture = depth;
      this.h1Buf = '';
    }
    if (this.includeStarts !== undefined && this.includeDepth < 0) {
      if (!this.includeStarts.has(start)) return;
      this.includeDepth = depth;
    }
    if (
      (bits & IS_NON_CONTENT && !(this.readNoscript && name === 'noscript')) ||
      (this.excludeStarts !== undefined && this.excludeStarts.has(start)) ||
      (this.dropElement !== undefined && this.dropElement(name, attrs))) {
      this.hardDrop = depth;
      this.droppingNoscript = name === 'noscript';
      return;
    }
    if (name === 'noscript') frame.noscript = true;
    if (name === 'a') {
      frame.anchor = true;
      this.anchors++;
    }
    if (this.softDrop >= 0) {
      // A picture hidden from screen readers (a card's image beside its own title) is still the
      // picture a card shows: its block is one of a grid's items although the image is not kept.
      if (name === 'img' && this.softDropDecorative && this.blockTop >= 0) this.nodes[this.blockTop]!.rich++;
      if (name === 'h1') this.softDropH1 = true;
      return;
    }
    if (this.onlyMain && this.includeDepth !== depth) {
      const why = dropReason(this, name, attrs, depth, afterHeading, frame);
      if (why !== undefined && !(this.keepStarts !== undefined && this.keepStarts.has(start))) return this.startSoftDrop(name, why, start, depth);
    }

    if (this.onlyMain) this.openLandmark(name, attrs, frame);

    if (name !== 'pre' && name !== 'code' && !this.noteClasses(name, attrs, frame, bits)) return;

    this.startFrame(name, attrs, frame);
    // An <a> without a target is a script's control (a filter's option, a tab, a sort order): its
    // text counts as link text, as a real link's would. One with only an id or a name is a jump
    // target round a heading's words, not a control.
    if (name === 'a' && (attrs.get('href') !== undefined || (this.onlyMain && attrs.get('id') === undefined && attrs.get('name') === undefined))) {
      this.openLink(attrs, frame);
    }
    if (bits & IS_BLOCK) {
      this.atBlockStart = true;
      if (!(bits & IS_VOID)) this.tailStale = true;
      if (this.onlyMain && !(bits & IS_VOID)) this.openBlockNode(name, attrs, frame, depth);
    } else if (name === 'img') {
      this.atBlockStart = false;
      this.images++;
      this.imageText = this.keptText;
      this.imageBlock = this.blockTop;
      if (this.blockTop >= 0) this.nodes[this.blockTop]!.rich++;
    }
    if (name === 'p' && this.onlyMain) {
      this.paraDepth = depth;
      this.paraHead = '';
    }
    if (name === 'h1') this.h1Kept++;
    // A disclosure's <summary> titles the panel it opens, as a heading titles its section.
    // (A side note's headings are judged with it: its "Related" title names no rail of the text's.)
    else if (this.onlyMain && this.headCapture < 0 && this.sideNotes === 0 && (bits & IS_SUBHEADING || name === 'summary')) {
      this.headCapture = depth;
      this.headBuf = '';
      this.headStartText = this.keptText;
    }
    // Blocks, labels and links may be cut back to (see truncateTo).
    if (frame.node >= 0 || name === 'label' || frame.link || frame.spanCaption || frame.noscript) this.sink.mark(frame.md);
    this.sink.open(name, attrs, name === 'pre' || name === 'code' ? this.codeClass(name, attrs, frame) : undefined);
  }

  /** Notes what the page says it is: a discussion or a story (see DISCUSSION_TYPE, STORY_TYPE), and its style sheets. */
  private noteDocument(name: string, attrs: AttrView): void {
    if (name === 'style' || name === 'script') {
      this.inStyleOrScript = true;
      if (name === 'script' && this.onlyMain && attrs.get('type') === 'application/ld+json') this.inJsonLd = true;
    }
    if (name === 'style' && this.onlyMain && !this.lenient) this.styleText = '';
    if (this.onlyMain && (!this.discussion || !this.story) && attrs.size !== 0) {
      const t = attrs.get('itemtype');
      if (t !== undefined) {
        if (DISCUSSION_TYPE.test(t)) this.discussion = true;
        if (STORY_TYPE.test(t)) this.story = true;
      } else if (name === 'meta' && attrs.get('property') === 'og:type' && attrs.get('content') === 'article') this.story = true;
    }
  }

  /** Starts dropping the subtree opening as boilerplate, remembering what a misfire needs to know. */
  private startSoftDrop(name: string, why: string, start: number, depth: number): void {
    this.softDrop = depth;
    this.softDropStart = mayMisfire(why) ? start : -1;
    this.softDropDecorative = why === 'aria-hidden';
    this.softDropFooter = why.endsWith(':footer');
    this.softDropScriptHidden = isScriptHidden(why);
    this.softDropOverlay = why === PINNED_OVERLAY;
    this.softDropH1 = false;
    if (name === 'img' && this.softDropDecorative && this.blockTop >= 0) this.nodes[this.blockTop]!.rich++;
  }

  /** Records a main or article landmark opening, a candidate to narrow the page to. */
  private openLandmark(name: string, attrs: AttrView, frame: Frame): void {
    const kind = landmarkKind(name, attrs);
    if (kind !== undefined) {
      frame.landmark = true;
      if (this.includeStarts === undefined) {
        frame.candidate = {
          kind,
          startChunk: this.out.length,
          endChunk: -1,
          startNode: this.nodes.length,
          endNode: -1,
          seq: this.landmarkSeq++,
          closeSeq: -1,
          startText: this.keptText - this.doomedText,
          endText: -1,
          startH1: this.h1Kept,
          endH1: -1,
          closed: false,
        };
        this.candidates.push(frame.candidate);
      }
      this.landmarks++;
      if (kind === 'article') {
        frame.article = true;
        this.articles++;
      }
    }
  }

  /**
   * What an element's classes say beyond the rules: the code language of the <pre> inside, a
   * price in its block. False for an attribute-only wrapper markdown writes nothing for.
   */
  private noteClasses(name: string, attrs: AttrView, frame: Frame, bits: number): boolean {
    // Wrappers such as Sphinx's div.highlight-python3 name the language of the <pre> inside.
    const cls = attrs.get('class');
    const facts = classFacts(cls);
    if (facts & NAMES_CODE) {
      const l = codeLanguage(cls);
      if (l !== undefined) {
        frame.langSet = true;
        frame.prevLang = this.lang;
        this.lang = l;
      }
    }
    // A price tells a product's buy box from other blocks around a title (see content-score's pick).
    if (this.blockTop >= 0 && !this.nodes[this.blockTop]!.priced && namesPrice(facts, attrs)) this.nodes[this.blockTop]!.priced = true;
    // The html format keeps every element; markdown has nothing to write for attribute-only wrappers.
    return !(this.sink.markdown && bits & IS_UNWRAP && !isImageCaption(this, name, cls));
  }

  /** Records where a kept element's output and counters start, and what it may turn out to be. */
  private startFrame(name: string, attrs: AttrView, frame: Frame): void {
    frame.emitted = true;
    frame.startChunk = this.out.length;
    frame.startText = this.keptText;
    frame.startLink = this.linkText;
    frame.startH1 = this.h1Kept;
    frame.startProse = this.keptProse;
    frame.startFields = this.fields;
    frame.startDoomedText = this.doomedText;
    frame.startDoomedLink = this.doomedLink;
    frame.startNode = this.nodes.length;
    frame.startEm = this.emText;
    frame.startLinks = this.linksOpened;
    if (this.onlyMain && (name === 'div' || name === 'figure')) {
      frame.imageWrap = (classFacts(attrs.get('class')) & NAMES_IMAGE_WRAP) !== 0;
      frame.admonition = isAdmonition(attrs.get('class'));
    }
    if (name === 'em' || name === 'i') {
      frame.em = true;
      this.inEm++;
    } else if (this.onlyMain && this.keptText === this.imageText && (name === 'p' || name === 'div' || name === 'center')) {
      frame.afterImage = true;
      frame.imageBlock = this.imageBlock;
    }
    if ((name === 'span' && isImageCaption(this, name, attrs.get('class'))) || (name === 'cite' && this.onlyMain && this.inFigure())) {
      frame.spanCaption = true;
      frame.startImages = this.images;
    }
    frame.startCandidate = frame.candidate !== undefined ? this.candidates.length - 1 : this.candidates.length;
  }

  private openLink(attrs: AttrView, frame: Frame): void {
    frame.link = true;
    if (this.inLink === 0) this.linkWords = '';
    this.inLink++;
    frame.linkNodeStart = this.nodes.length;
    frame.linkOuterNode = this.blockTop;
    frame.linkOuterAtOpen = this.blockTop >= 0 ? this.nodes[this.blockTop]!.link : 0;
    frame.startImages = this.images;
    this.linkHref = attrs.get('href');
    this.linksOpened++;
    const linkClass = attrs.get('class');
    this.linkButton = attrs.get('role') === 'button' || (linkClass !== undefined && (linkClass.includes('btn') || linkClass.includes('button')));
  }

  /** Adds a kept block to the block tree the main block is chosen from. */
  private openBlockNode(name: string, attrs: AttrView, frame: Frame, depth: number): void {
    frame.node = this.nodes.length;
    const parent = this.blockTop >= 0 ? this.nodes[this.blockTop]! : undefined;
    this.nodes.push({
      name,
      parent: this.blockTop,
      depth,
      startChunk: this.out.length,
      endChunk: -1,
      plain: 0,
      link: 0,
      card: 0,
      punct: 0,
      hint: blockHint(attrs, this.blockTop >= 0 ? this.nodes[this.blockTop]!.hint : 0),
      startH1: this.h1Kept,
      endH1: -1,
      shape: shapeOf(name, attrs.get('class')),
      prev: parent !== undefined ? parent.last : -1,
      last: -1,
      text: 0,
      links: 0,
      all: 0,
      allLinks: 0,
      rich: 0,
      priced: false,
      pricesShown: false,
      items: 0,
      itemLinks: 0,
      doomed: false,
      linky: false,
      claimed: false,
      title: false,
      nested: false,
      // (Every node has every field from the start: one shape for all, which the scoring reads fast.)
      numbered: false,
      labelled: false,
      outline: false,
    });
    if (parent !== undefined) parent.last = frame.node;
    this.blockTop = frame.node;
    frame.caption = isCaptionName(attrs.get('class'));
    if (name === 'li' || (classFacts(attrs.get('class')) & NAMES_SLIDER) !== 0) {
      frame.slide = true;
      frame.startImages = this.images;
    }
  }

  text(data: string): void {
    if (this.inJsonLd && !this.discussion && DISCUSSION_TYPE.test(data)) this.discussion = true;
    if (this.inJsonLd && !this.story && STORY_TYPE.test(data)) this.story = true;
    if (this.styleText !== undefined && this.styleText.length < STYLE_MAX) this.styleText += data;
    // CSS-in-JS libraries put <style> inside the very heading being read; its rules are no title.
    if (!this.inStyleOrScript) {
      if (this.h1Capture >= 0) this.h1Buf += data;
      if (this.headCapture >= 0 && this.headBuf.length < 200) this.headBuf += data;
    }
    if (this.hardDrop >= 0 || (this.includeStarts !== undefined && this.includeDepth < 0)) {
      // Text only <noscript> holds still counts as the page's: see ContentOptions.lenient.
      if (this.droppingNoscript && this.onlyMain) this.baseText += data.length;
      return;
    }
    const n = data.length;
    this.baseText += n;
    // -1: not looked at yet; whether the chunk has sentence punctuation is wanted at most twice.
    let punct = -1;
    if (this.onlyMain && this.anchors === 0 && n >= PROSE_CHUNK) {
      punct = PUNCT.test(data) ? 1 : 0;
      if (punct === 1) {
        if (this.softDrop >= 0) this.droppedProse += n;
        else this.keptProse += n;
      }
    }
    if (this.softDrop >= 0) return;
    // "Loading..." is a script's placeholder for content it had not fetched when the page was
    // saved: no reader sees it once the page is up.
    if (this.onlyMain && n <= LOADING_MAX && this.inPre === 0 && mayBeLoading(data) && LOADING.test(data)) return;
    if (this.inPre === 0) {
      let i = 0;
      while (i < n && isHtmlSpace(codeAt(data, i))) i++;
      if (i === n) {
        this.inlineGap = 0;
        // Whitespace between elements carries no content: it is not counted, and right after a
        // block boundary it is not rendered either.
        if (!this.atBlockStart) {
          this.sink.text(data);
        }
        return;
      }
      // (The markdown writer handles leading whitespace itself.)
      if (i > 0 && this.atBlockStart && !this.sink.markdown) data = data.slice(i);
      // Such elements are laid out apart (flex items, inline blocks): "Drama" and "Thriller" are
      // two words, not "DramaThriller". Only letters meeting letters: numbers beside their units
      // ("12<span>px</span>") are left as the markup has them.
      if (this.inlineGap === 2 && i === 0 && this.lastWord && !this.atBlockStart && isLetter(codeAt(data, 0))) data = ' ' + data;
      this.inlineGap = 0;
      // (A drop cap, "<span>I</span><span>f</span>", is one letter of the word after it.)
      this.lastWord = data.length > 1 && isLetter(codeAt(data, data.length - 1));
    }
    this.keptText += n;
    // Only a short block's text is ever read back, so the tail stops growing past that.
    if (this.tailStale) {
      this.tail = data;
      this.tailStale = false;
    } else if (this.tail.length <= LABEL_MAX) this.tail += data;
    if (this.paraDepth >= 0 && this.paraHead.length < PITCH_HEAD) this.paraHead += data;
    if (this.inEm > 0) this.emText += n;
    if (this.inLink > 0) {
      this.linkText += n;
      if (this.linkWords.length <= CTA_MAX) this.linkWords += data;
    }
    if (this.blockTop >= 0) {
      const node = this.nodes[this.blockTop]!;
      if (this.inLink > 0) node.link += n;
      else node.plain += n;
      // Only whether a block has any punctuation matters (see content-score.ts).
      if (node.punct === 0) node.punct = punct >= 0 ? punct : PUNCT.test(data) ? 1 : 0;
    }
    this.atBlockStart = false;
    this.sink.text(data);
  }

  close(name: string): void {
    if (name === 'style' || name === 'script') {
      this.inStyleOrScript = false;
      this.inJsonLd = false;
    }
    if (name === 'style' && this.styleText !== undefined) {
      this.css.read(this.styleText);
      this.styleText = undefined;
    }
    const frame = this.stack.pop();
    if (frame === undefined) return;
    const bits = frame.bits;
    this.headingClosed = bits & IS_SUBHEADING ? this.stack.length : -1;
    if (bits & IS_CODE_INLINE) this.inCode--;
    this.inlineGap = bits & IS_GAP_INLINE && this.sink.markdown && this.inPre === 0 && this.inCode === 0 ? 1 : 0;
    const depth = this.stack.length;
    if (frame.emitted) {
      this.sink.close(name, frame, this.keptText - frame.startText);
      if (bits & IS_BLOCK) this.atBlockStart = true;
    }
    if (frame.em) this.inEm--;
    if (frame.sideNote !== undefined) closeSideNote(this);
    if (frame.link) {
      this.inLink--;
      if (this.images > frame.startImages) this.pictureHref = this.linkHref;
      longLinkAsText(this, frame);
    }
    if (frame.landmark) this.landmarks--;
    if (frame.noscript) {
      // What a page shows a browser without scripts ("You need to enable JavaScript to run this
      // app") tells about the page and is none of its content: a <noscript> that says only that goes.
      const text = this.keptText - frame.startText;
      if (this.onlyMain && text > 0 && text <= JS_NOTICE_MAX && JS_NOTICE.test(this.out.slice(frame.startChunk).join(''))) this.truncateTo(frame);
    }
    if (frame.article) this.articles--;
    if (frame.node >= 0) {
      const node = this.nodes[frame.node]!;
      node.endChunk = this.out.length;
      node.endH1 = this.h1Kept;
      node.text = this.keptText - frame.startText - (this.doomedText - frame.startDoomedText);
      node.links = this.linkText - frame.startLink - (this.doomedLink - frame.startDoomedLink);
      node.all = this.keptText - frame.startText;
      node.allLinks = this.linkText - frame.startLink;
      if (name === 'h1' || bits & IS_SUBHEADING) node.rich++;
      if (node.last >= 0) repeatedItems(this, frame.node);
      // A list's item or a slider's block that holds nothing but pictures is a gallery's slide (a
      // product's photos, a slider's frames): its alt text describes a photo the page shows, not
      // the page's text, also when the photo links to a larger copy of itself.
      if (frame.slide && node.all === 0 && this.images > frame.startImages) this.sink.blankAlts(frame.startChunk, this.out.length);
      this.blockTop = node.parent;
    }
    if (frame.emitted && this.onlyMain && this.inPre === 0 && frame.rail && this.h1Kept === frame.startH1 && depth !== this.includeDepth) {
      this.truncateTo(frame);
      // A dropped rail <article> is no longer a landmark to narrow the page to.
      frame.candidate = undefined;
    } else if (frame.emitted && this.onlyMain && this.inPre === 0 && frame.candidate === undefined && depth !== this.includeDepth) {
      if (
        ((name === 'figcaption' || frame.caption) && isCaption(this, frame)) ||
        (frame.spanCaption && this.images === frame.startImages) ||
        (frame.afterImage && (isItalicCaption(this, frame) || isWrappedCaption(this, frame)))
      ) {
        this.sink.blankCaptionAlt(frame.startChunk);
        this.truncateTo(frame);
      } else if (
        (name === 'form' && isEntryForm(this, frame)) ||
        (name === 'label' && isControlLabel(this, frame)) ||
        (frame.link && this.inLink === 0 && isCallToAction(this, frame)) ||
        (frame.node >= 0 && isLabel(this, frame))
      ) {
        this.truncateTo(frame);
      } else if (frame.sideNote === undefined || !dropBareSideNote(this, frame, frame.sideNote)) pruneLinkBlock(this, frame);
    }
    if (frame.node >= 0 && frame.node < this.nodes.length && this.blockTop >= 0) {
      const node = this.nodes[frame.node]!;
      const parent = this.nodes[this.blockTop]!;
      parent.rich += node.rich;
      if (node.priced) parent.priced = true;
      if (node.items > 0 || node.nested) parent.nested = true;
    }
    if (depth === this.paraDepth) this.paraDepth = -1;
    if (depth === this.headCapture) {
      this.headCapture = -1;
      if (frame.node >= 0 && frame.node < this.nodes.length && mayBeNumberedTitle(this.headBuf) && isNumberedTitle(cleanText(this.headBuf.replaceAll(PART, '')))) this.markOutlineSection(frame.node);
      if (isRailHeadingParts(this.headBuf)) this.markRail();
    }
    const c = frame.candidate;
    if (c !== undefined) {
      c.endChunk = this.out.length;
      c.endNode = this.nodes.length;
      c.closeSeq = this.landmarkSeq++;
      c.endText = this.keptText - this.doomedText;
      c.endH1 = this.h1Kept;
      c.closed = true;
    }
    if (frame.langSet) this.lang = frame.prevLang;
    if (name === 'pre' && frame.emitted) this.inPre--;
    if (frame.navLike) this.navLike--;
    if (depth === this.h1Capture) {
      const t = cleanText(this.h1Buf);
      if (t) this.firstH1 = t;
      if (frame.node >= 0 && frame.node < this.nodes.length) this.nodes[frame.node]!.numbered = isNumberedTitle(t);
      this.h1Capture = -1;
    }
    if (depth === this.hardDrop) this.hardDrop = -1;
    if (frame.anchor) this.anchors--;
    if (frame.hiddenLink) this.hiddenLinks--;
    if (depth === this.softDrop) {
      this.softDrop = -1;
      const prose = this.softDropFooter ? this.droppedProse / FOOTER_MISFIRE_FACTOR : this.droppedProse;
      if (this.softDropOverlay && this.softDropH1 && this.overlayH1Start < 0) this.overlayH1Start = this.softDropStart;
      if (this.softDropStart >= 0 && this.softDropScriptHidden) {
        if (this.softDropH1 && prose > this.maxHiddenProse) {
          this.maxHiddenProse = prose;
          this.maxHiddenStart = this.softDropStart;
        }
      } else if (this.softDropStart >= 0 && prose > this.maxDroppedProse) {
        this.maxDroppedProse = prose;
        this.maxDroppedStart = this.softDropStart;
      }
      this.droppedProse = 0;
    }
    if (depth === this.includeDepth) this.includeDepth = -1;
    if ((bits & (IS_BLOCK | IS_VOID)) === IS_BLOCK) this.tailStale = true;
  }

  finish(): ContentResult {
    // The parser closes every open element at the end; this guards a truncated event stream.
    while (this.stack.length > 0) this.close(this.stack[this.stack.length - 1]!.name);
    const main: MainBlock = this.onlyMain
      ? selectMain(this)
      : { chunks: this.out, keptText: this.keptText - this.doomedText, h1s: this.h1Kept, rootName: undefined, ranges: undefined };
    const { chunks, h1s, rootName } = main;
    let keptText = main.keptText;
    let content = chunks.join('');
    if (rootName !== undefined) content = this.sink.standalone(content, rootName);
    // Templates render some text twice (a slider's cloned slides, a gallery's thumbnails).
    if (this.onlyMain) {
      // (A cell chosen alone lost its pipes: its offsets moved, and it holds no descriptions anyway.)
      const described = this.sink.markdown && rootName !== 'td' && rootName !== 'th' ? describedSpans(this.nodes, this.out, main.ranges ?? [[0, this.out.length]]) : undefined;
      content = this.sink.tidy(content, described);
    }
    // The page's own title heading often sits in a header we dropped or outside the landmark.
    if (this.onlyMain && h1s === 0 && this.firstH1 !== undefined) {
      content = this.sink.title(this.firstH1) + content;
      keptText += this.firstH1.length;
    }
    const nearlyEmpty = this.onlyMain && !this.lenient && isNearlyEmpty(keptText, this.baseText);
    let misfire: number | undefined;
    if (this.onlyMain && this.maxDroppedProse >= MISFIRE_MIN_PROSE && this.maxDroppedProse > this.keptProse) misfire = this.maxDroppedStart;
    // A wrapper hidden until scripts run that holds the content (an app that shows a shop's product
    // once it has checked access, a block deferred until scripts run, a page that fades in) holds
    // the page's title and leaves the page (nearly) empty: it is exempted rather than the whole
    // page read without the rules. Beside content that was kept, a hidden copy with the title is a
    // copy for crawlers; a hidden block without it is a popup (a policy, a sign-up form).
    else if (nearlyEmpty && this.maxHiddenProse >= MISFIRE_MIN_PROSE && this.maxHiddenProse > this.keptProse) misfire = this.maxHiddenStart;
    // A layer pinned over the viewport that holds the page's title, with no title kept elsewhere,
    // is the page itself laid out in one fixed viewport (an app's shell), not a modal over it.
    else if (this.onlyMain && this.overlayH1Start >= 0 && this.h1Kept === 0) misfire = this.overlayH1Start;
    return { content, keptText, baseText: this.baseText, nearlyEmpty, misfire };
  }

  /**
   * The heading just closed introduces a teaser rail: the open blocks that start with it (hold no
   * text before it) are marked, and the outermost that holds no <h1> when it closes is the rail,
   * dropped. A block that goes on to the page's title is a wrapper the rail merely opens (a
   * shop's "viewed also" strip above the product in one column), not the rail. Landmarks and the
   * document are never a rail.
   */
  /**
   * A numbered title is the document's outline: the blocks it opens are a section of the text,
   * whatever their names say ("sql-comments", the anchor of a manual's "Comments"), and the
   * section's text after the title is no discussion.
   */
  private markOutlineSection(heading: number): void {
    this.nodes[heading]!.numbered = true;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const f = this.stack[i]!;
      if (!f.emitted) continue;
      if (f.startText !== this.headStartText || f.landmark || f.name === 'body' || f.name === 'html') break;
      if (f.node >= 0 && this.nodes[f.node]!.hint < 0) this.nodes[f.node]!.hint = 0;
    }
  }

  private markRail(): void {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const f = this.stack[i]!;
      // The inline wrappers markdown writes nothing for (an accordion's <span role="button">
      // trigger around its heading) are looked through, as the html format's would be.
      if (!f.emitted && i > this.includeDepth) continue;
      // An <article> a rail heading opens is a teaser card wrapper (themes reuse the post markup
      // for the rail); a <main> never is.
      const railArticle = f.candidate?.kind === 'article';
      if (!f.emitted || f.startText !== this.headStartText || (f.landmark && !railArticle) || i <= this.includeDepth) break;
      if (f.name === 'body' || f.name === 'html') break;
      if (f.node >= 0) f.rail = true;
    }
  }

  private codeClass(name: string, attrs: AttrSource, frame: Frame): string | undefined {
    if (name === 'pre') {
      const own = codeLanguage(attrs.get('class')) ?? dataLanguage(attrs);
      const l = own ?? this.lang;
      frame.langSet = true;
      frame.prevLang = this.lang;
      this.lang = l;
      this.inPre++;
      this.codeBlocks++;
      return l;
    }
    if (name === 'code' && this.inPre > 0) return codeLanguage(attrs.get('class')) ?? this.lang;
    return codeLanguage(attrs.get('class'));
  }
}

function dataLanguage(attrs: AttrSource): string | undefined {
  const v = attrs.get('data-lang') ?? attrs.get('data-language');
  if (v === undefined || !/^[\w+#.-]{1,40}$/.test(v)) return undefined;
  return codeLanguage(`language-${v}`);
}
