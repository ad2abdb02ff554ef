/**
 * Rules for a block that has just closed, or an element about to open: whether it is a caption,
 * a label, a control, a form, a pitch. Each reads the filter's state and says yes or no.
 */
import type { FilterState } from './filter-state.js';
import type { Frame } from './frame.js';
import { boilerplateReason, certainBoilerplateReason } from './main-content.js';
import { CAMEL_CAPTION, isCaptionName, isCarouselSlide, isShownPrice } from './rules/class-names.js';
import { FORM_MAX_PROSE, FORM_MAX_TEXT, FORM_MIN_FIELDS, LABEL_MAX_TEXT } from './rules/forms.js';
import { ITEM_TAGS } from './rules/items.js';
import { CTA, CTA_MAX } from './rules/links.js';
import { CONTACT, CREDIT, ITALIC_CAPTION_MAX, ITEM_PARTS, PITCH, PITCH_MAX, WRAPPED_CAPTION_MAX } from './rules/paragraphs.js';
import { AD_LABEL, COUNT_HEADING, LABEL_BLOCKS, LABEL_MAX, MEMBER_STAT, SLIDE_CONTROL } from './rules/placeholders.js';
import { isHiddenReason } from './rules/reasons.js';
import { openSideNote } from './side-note.js';
import type { AttrView } from './stream.js';
import { HIDDEN_SECTION_TAGS, IS_SUBHEADING, isHeadingTag } from './tag-bits.js';

/**
 * A label captions a form control (a filter's option, a field's name), and controls are not
 * kept; a long one is a clickable card built as a label, and stays.
 */
export function isControlLabel(s: FilterState, frame: Frame): boolean {
  return s.keptText - frame.startText < LABEL_MAX_TEXT;
}

/**
 * A link that only invites a click ("Read more", "Shop now", "View all") and opens its block,
 * or sits in an item's block rather than a paragraph: a card's or a section's button, not words
 * of the text (a "more" inside a sentence stays).
 */
export function isCallToAction(s: FilterState, frame: Frame): boolean {
  if (s.linkWords.length > CTA_MAX || !CTA.test(s.linkWords)) return false;
  for (let i = s.stack.length - 1; i >= 0; i--) {
    const f = s.stack[i]!;
    if (f.node >= 0) return f.startText === frame.startText || ITEM_TAGS.has(f.name);
  }
  return false;
}

/**
 * A caption describes a picture (and credits its photographer); the picture's alt text stays,
 * the caption is not the page's text. One that holds an image is a layout wrapper, and stays.
 */
export function isCaption(s: FilterState, frame: Frame): boolean {
  return frame.node >= 0 && s.nodes[frame.node]!.rich === 0;
}

/**
 * A span whose class names a caption or credit, opening right after a picture with no text
 * between them and outside a link, is the picture's caption set inline ("<img><span
 * class="newsCaption">Protesters in the square (Image: AP)</span>"). In a link it is a card's
 * title, and elsewhere a span so named is often a type style (a listing's "caption" line): both
 * stay. Any span after a picture would take a card's unnamed title with it.
 */
export function isImageCaption(s: FilterState, name: string, cls: string | undefined): boolean {
  return name === 'span' && s.onlyMain && s.inLink === 0 && s.keptText === s.imageText && cls !== undefined && (isCaptionName(cls) || CAMEL_CAPTION.test(cls));
}

/**
 * A short line set in italics right under a picture, with no text between them, is its caption
 * ("<img><br><em>The best new character in 2019.</em>"), written by hand in an editor that has
 * no caption field. A picture in it makes it a layout wrapper, and text outside the italics
 * makes it the story's paragraph.
 */
export function isItalicCaption(s: FilterState, frame: Frame): boolean {
  const text = s.keptText - frame.startText;
  return text > 0 && text <= ITALIC_CAPTION_MAX && s.emText - frame.startEm === text && frame.node >= 0 && s.nodes[frame.node]!.rich === 0;
}

/**
 * A paragraph right under a picture, beside it in a wrapper named for the picture ("<div
 * class="image top"><img><p>Astronauts at work...</p></div>"), is its caption: the story's
 * paragraphs are not set inside a picture's box. The picture must sit in that wrapper itself: a
 * section named for its hero image holds the page's text after the image.
 */
export function isWrappedCaption(s: FilterState, frame: Frame): boolean {
  if (frame.name !== 'p') return false;
  const text = s.keptText - frame.startText;
  if (text <= 0 || text > WRAPPED_CAPTION_MAX || frame.node < 0 || s.nodes[frame.node]!.rich > 0) return false;
  for (let i = s.stack.length - 1; i >= 0; i--) {
    const f = s.stack[i]!;
    if (f.node >= 0) return f.imageWrap && f.node === frame.imageBlock;
  }
  return false;
}

/** Whether the block being closed holds nothing but an ad slot's label, a gallery's control or a line of a poster's record (see AD_LABEL, SLIDE_CONTROL, MEMBER_STAT). */
export function isLabel(s: FilterState, frame: Frame): boolean {
  // A heading, a list's item or term and a table's cell with such a word are the text's; a
  // heading may only count the posts below it.
  const heading = (frame.bits & IS_SUBHEADING) !== 0;
  if (!heading && !LABEL_BLOCKS.has(frame.name)) return false;
  const text = s.keptText - frame.startText;
  // (The tail is emptied when a block opens or closes: it then holds less than the block's text.)
  if (text <= 0 || text > LABEL_MAX || s.tail.length < text) return false;
  const t = s.tail.slice(-text);
  if (heading) return COUNT_HEADING.test(t);
  return AD_LABEL.test(t) || ((frame.name === 'div' || frame.name === 'p') && s.linkText === frame.startLink && (SLIDE_CONTROL.test(t) || MEMBER_STAT.test(t)));
}

export function isEntryForm(s: FilterState, frame: Frame): boolean {
  return (
    s.fields - frame.startFields >= FORM_MIN_FIELDS &&
    s.keptProse - frame.startProse < FORM_MAX_PROSE &&
    s.keptText - frame.startText < FORM_MAX_TEXT
  );
}

/** Whether the paragraph being closed is a subscription or follow pitch, a reporting credit or the author's contact line (see PITCH, CREDIT, CONTACT). */
export function isPitch(s: FilterState, frame: Frame): boolean {
  const text = s.keptText - frame.startText;
  if (text <= 0 || text > PITCH_MAX || s.paraDepth < 0) return false;
  const parent = s.emittedParent();
  if (parent !== undefined && ITEM_PARTS.has(parent.name)) return false;
  return PITCH.test(s.paraHead) || CREDIT.test(s.paraHead) || CONTACT.test(s.paraHead);
}

/**
 * Why an element opening goes as boilerplate, or undefined: the verdict of its tag and classes
 * (see boilerplateReason), less the exemptions only its place on the page tells, and plus the
 * classes the page's style sheets hide on a desktop.
 */
export function dropReason(s: FilterState, name: string, attrs: AttrView, depth: number, afterHeading: boolean, frame: Frame): string | undefined {
  // A disclosure button names the panel it opens (aria-controls, with aria-expanded: an
  // accordion's question, a tab): that panel, hidden until the button is clicked, is a
  // collapsed panel, as one whose class names it is (see boilerplateReason).
  if (attrs.size !== 0) {
    const controls = attrs.get('aria-controls');
    if (controls !== undefined && attrs.get('aria-expanded') !== undefined) for (const id of controls.split(' ')) if (id !== '') s.disclosed.add(id);
  }
  let why = s.lenient ? certainBoilerplateReason(name, attrs) : boilerplateReason(name, attrs, s.landmarks > 0, s.articles > 0);
  if (isHiddenReason(why) && s.disclosed.size > 0) {
    const id = attrs.get('id');
    if (id !== undefined && s.disclosed.has(id)) why = undefined;
  }
  // A hidden block right after a subheading is the section that heading opens when clicked (an
  // FAQ's answer under its question, a collapsible section under its title), whatever its class.
  if (afterHeading && isHiddenReason(why) && HIDDEN_SECTION_TAGS.has(name)) why = undefined;
  if (why === undefined && s.css.hidesAny() && s.css.hides(attrs)) why = 'desktop-hidden';
  // A link hidden from screen readers is still on screen: a card's teaser that repeats what
  // its title link says to them. Its text is the card's; its picture is the card's other
  // picture, and its alt text a caption nobody sees.
  if (why === 'aria-hidden' && name === 'a') {
    why = undefined;
    frame.hiddenLink = true;
    s.hiddenLinks++;
  } else if (why === undefined && name === 'img' && s.hiddenLinks > 0) why = 'aria-hidden';
  // A price hidden from screen readers is still the price on screen: shops hide the figures
  // a card shows (the struck-out old price, the new one) from them and spell them out in
  // visually hidden words of their own ("Original price was: $30.00"), which go.
  else if (why === 'aria-hidden' && isShownPrice(name, attrs)) why = undefined;
  // Slider libraries hide the slides off screen from screen readers until they scroll in (a
  // product's feature cards, a service's testimonials): they are the carousel's text as much
  // as the slide on show. The clones they add to loop round still go.
  else if (why === 'aria-hidden' && isCarouselSlide(attrs)) why = undefined;
  // A button right inside a heading (an accordion's question, a collapsible section's title)
  // is the heading's text made clickable: its panel is kept, and so is its title.
  else if (why === 'tag:button' && depth > 0 && isHeadingTag(s.stack[depth - 1]!.name)) why = undefined;
  // A post card's footer holds its byline and date, which a feed shows as the card's text.
  else if (why === 'tag:footer' && s.articles > 0 && s.inListedArticle()) why = undefined;
  // An aside inside the content landmark may be a side note of the text (a manual's "Hello
  // World" sample set beside the prose): it is judged when it closes (see side-note.ts).
  else if (why === 'tag:aside' && s.landmarks > 0) {
    why = undefined;
    frame.sideNote = openSideNote(s);
  }
  return why;
}
