/**
 * What an element's class words (and a few other attributes) say about it: a price, a picture's
 * wrapper or caption, a slider's slide, the kind of page a schema.org type declares, the shape of
 * a series' items. Pure predicates over attribute values.
 */
import type { AttrSource } from '../html-util.js';
import type { AttrView } from '../stream.js';
import { boundedMemo } from '../../memo.js';

/**
 * schema.org types by which a page declares itself a discussion (a forum thread, a question and
 * its answers), in its microdata or its JSON-LD: there the replies are the page's content
 * however the template names them ("comment"), not readers' comments under an article.
 */
export const DISCUSSION_TYPE = /DiscussionForumPosting|QAPage/;
/**
 * The types of a story (schema.org's Article and its news, blog and report kinds): a page that
 * declares one in its microdata or JSON-LD, or as its og:type, is an article however its markup
 * is laid out (see selectContent's landing pages).
 */
export const STORY_TYPE = /\b(?:News|Tech|Scholarly|Analysis|Opinion|Reportage)?Article\b|BlogPosting/;

/** A picture's wrapper by its class words (see isWrappedCaption), and the longest caption in one. */
export const IMAGE_WRAP = /(?:^|[^a-z])(?:image|img|photo|picture|figure)(?:[-_]?(?:wrap(?:per)?|container|box|block|holder|frame))?(?![a-z])/i;

/**
 * Class words of a slider and its slides ("swiper-slide", "carousel-item", "thumbnails", the slider
 * libraries' own names): see the slides in close. Not "gallery": a gallery's wrapper also holds its
 * main picture, whose alt text is written once (see withoutRepeatedImages).
 */
export const SLIDER_CLASS = /slide|carousel|swiper|slick|flickity|owl-item|thumb/i;

/**
 * A carousel's slide as slider libraries name it ("slide", "swiper-slide", "slick-slide",
 * "splide__slide"), and the copies of slides they clone to loop the carousel round.
 */
const SLIDE_CLASS = /(?:^|[\s_-])slide(?:$|\s)/;
const CLONED_SLIDE = /clone|duplicate/;

/** Whether an element is one of a carousel's own slides (not a clone of one): see dropReason. */
export function isCarouselSlide(attrs: AttrSource): boolean {
  const cls = attrs.get('class');
  return cls !== undefined && SLIDE_CLASS.test(cls) && !CLONED_SLIDE.test(cls);
}

/**
 * Class words of a picture's caption or credit (wp-caption-text, photo-credit, caption). A size
 * after the word (caption-s, caption-md) names a type style of a design system, not a caption.
 */
const CAPTION_NAME = /(?:^|[^a-z])(?:caption|credit)s?(?![a-z0-9]|[-_](?:x*[sml]|sm|md|lg|\d)(?![a-z0-9]))/i;

/** A caption's class word at the end of a camel-case name ("newsCaption", "imgCredit"). */
export const CAMEL_CAPTION = /[a-z](?:Caption|Credit)s?(?![a-z])/;

export function isCaptionName(cls: string | undefined): boolean {
  return (classFacts(cls) & NAMES_CAPTION) !== 0;
}

/** Class words of a price (price, product-price, priceBlock). */
const PRICE_HINT = /price/i;

/** Elements of a price as shops mark it up: its class names one, or it is the old price struck out or the new one inserted. */
export function isShownPrice(name: string, attrs: AttrSource): boolean {
  if (name === 'del' || name === 'ins' || name === 's') return true;
  const cls = attrs.get('class');
  return cls !== undefined && PRICE_HINT.test(cls);
}

/**
 * Whether an element names a price: by class (`facts`, its classFacts), or where shops' markup
 * says so in other attributes (schema.org's itemprop, a test hook, an id).
 */
export function namesPrice(facts: number, attrs: AttrView): boolean {
  if (facts & NAMES_PRICE) return true;
  if (attrs.size === 0) return false;
  const prop = attrs.get('itemprop');
  if (prop !== undefined && PRICE_HINT.test(prop)) return true;
  const test = attrs.get('data-testid');
  if (test !== undefined && PRICE_HINT.test(test)) return true;
  const id = attrs.get('id');
  return id !== undefined && PRICE_HINT.test(id);
}

// What a class list names, as bits: pages repeat a few lists on hundreds of elements, which
// would each be matched against these patterns again.
const NAMES_PRICE = 1;
export const NAMES_IMAGE_WRAP = 2;
const NAMES_CAPTION = 4;
export const NAMES_SLIDER = 8;
/** Words every code-language convention has in it (see codeLanguage). */
export const NAMES_CODE = 16;
const factsOfList = boundedMemo(
  (cls) =>
    (PRICE_HINT.test(cls) ? NAMES_PRICE : 0) |
    (IMAGE_WRAP.test(cls) ? NAMES_IMAGE_WRAP : 0) |
    (CAPTION_NAME.test(cls) ? NAMES_CAPTION : 0) |
    (SLIDER_CLASS.test(cls) ? NAMES_SLIDER : 0) |
    (cls.includes('highlight') || cls.includes('lang') || cls.includes('sourceCode') ? NAMES_CODE : 0),
);

export function classFacts(cls: string | undefined): number {
  return cls === undefined ? 0 : factsOfList(cls);
}

/** A block's shape for telling series of like items: its tag and first class word, digits dropped. */
export function shapeOf(name: string, cls: string | undefined): string {
  if (cls === undefined) return name;
  const t = cls.trim();
  if (t === '') return name;
  const sp = t.search(/\s/);
  return `${name}.${(sp < 0 ? t : t.slice(0, sp)).replace(/\d+/g, '')}`;
}
