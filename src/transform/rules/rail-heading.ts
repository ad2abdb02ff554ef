/**
 * Headings that introduce a teaser rail, an author box, a comment box or a shop's terms rather
 * than the page's content. Each family is a list of phrase patterns, matched against the whole
 * heading (case-insensitive); together they are compiled once into one regular expression.
 *
 * Deliberately only phrases that never head a page's own content ("Latest" or "Most read" can be
 * a listing's own title, "Most read in world news" names another section's; "Trending" often
 * heads a strip that opens the page's content wrapper). A business's page about what it offers
 * ends in teasers of its own blog ("Our latest insights", "From the blog"); "Trusted by..."
 * strips are left alone, as they often open the wrapper of the offer's description.
 */
import { COLLAPSIBLE_SPACE, cleanText, codeAt, holds } from '../html-util.js';

/** Rails of items like the page's own: "related", "similar", "more like this". */
const RELATED: readonly RegExp[] = [
  /related(?: [\p{L}-]+){0,2}/u,
  /explore related items/u,
  /similar (?:items|products|posts|articles|threads|stories)/u,
  /similar (?:items|products) to consider/u,
  /similar recommendations?/u,
  /compare (?:with )?similar items/u,
  /compare with similar products/u,
  /more like this/u,
  /more to consider(?: sponsored)?/u,
];

/** What the site guesses the reader wants next: "you may also like", "recommended for you". */
const SUGGESTED: readonly RegExp[] = [
  /(?:you|we think you) (?:may|might|will|'ll) (?:also )?(?:like|love|enjoy)(?: these| this)?/u,
  /(?:we know )?you'?ll (?:also )?love(?: these| this)?(?: too)?/u,
  /you may also be interested in/u,
  /you may also check/u,
  /recommended(?: for you| reading| articles| stories| products)?/u,
  /sponsored(?: products| content| stories| links)?/u,
];

/**
 * A shop's rails of other products: "customers also viewed" (or shoppers, or "others like you",
 * who also bought or purchased), "frequently bought together", "complete the look", "pairs well
 * with".
 */
const SHOP: readonly RegExp[] = [
  /recently viewed(?: items| products)?/u,
  /frequently bought together/u,
  /(?:often|frequently) (?:bought|viewed) (?:together|with each other|with this(?: item| product)?)/u,
  /(?:people|customers|shoppers|others)(?: like you)? (?:who (?:viewed|bought) this item )?also (?:viewed|bought|purchased|liked)/u,
  /(?:this is )?what (?:other )?customers who (?:viewed|bought) this (?:item|product) (?:also )?bought/u,
  /more (?:from|by) (?:this|the) (?:author|seller|brand|shop|store)/u,
  /complete the look/u,
  /shop the look/u,
  /pairs? (?:well|perfectly) with(?: this| it)?/u,
  /where to buy/u,
];

/** An editor's or a feed's other stories: "read next", "more stories", "from the blog". */
const MORE_READING: readonly RegExp[] = [
  /more from [\p{L}\p{N}&'.-]+/u,
  /read next/u,
  /up next/u,
  /don'?t miss/u,
  /editor'?s'? picks/u,
  /(?:most )?popular (?:posts|articles|stories)/u,
  /popular on [\p{L}\p{N}&'.-]+/u,
  /most (?:read|popular|viewed|shared) in [\p{L}\p{N}&' -]+/u,
  /more (?:stories|articles|posts|news)/u,
  /more great(?: [\p{L}\p{N}&'.-]+)? (?:stories|articles|reads)/u,
  /(?:our )?latest (?:insights|posts|articles|blog posts)/u,
  /featured insights/u,
  /from (?:the|our) blog/u,
  /recent posts/u,
];

/** The author's box under a story. */
const AUTHOR: readonly RegExp[] = [/about the (?:author|authors|reviewer|writer)/u];

/** Sharing buttons' and a forum template's own blocks. */
const SHARING: readonly RegExp[] = [
  /like this/u,
  /share this(?: article| post| story| page)?/u,
  /share on other sites/u,
  /link to (?:post|comment)/u,
  /top posters in this topic/u,
];

/**
 * The same rails in the other languages CMS templates most often ship (Portuguese, Spanish,
 * French, German, Italian, Dutch): templates translate the phrase but keep the rail. Held to the
 * same standard as the English lists: phrases that only ever head links elsewhere.
 */
const PORTUGUESE: readonly RegExp[] = [
  /(?:voc[eê] )?(?:tamb[eé]m )?(?:pode|poder[aá]) (?:tamb[eé]m )?gostar(?: de)?/u,
  /veja tamb[eé]m/u,
  /leia tamb[eé]m/u,
  /(?:not[ií]cias|mat[eé]rias|artigos|posts) relacionad[oa]s/u,
];
const SPANISH: readonly RegExp[] = [
  /(?:tambi[eé]n )?te (?:puede|podr[ií]a) interesar/u,
  /(?:quiz[aá]s?|tal vez) te interese/u,
  /(?:noticias|art[ií]culos|entradas|publicaciones) relacionad[oa]s/u,
  /lee tambi[eé]n/u,
];
const FRENCH: readonly RegExp[] = [
  /(?:[aà] )?lire aussi/u,
  /(?:[aà] )?voir aussi/u,
  /vous (?:aimerez|pourriez) (?:aussi|[eé]galement)(?: aimer)?/u,
  /sur le m[eê]me (?:sujet|th[eè]me)/u,
  /articles (?:similaires|connexes|li[eé]s)/u,
  /ils vont bien ensemble/u,
];
const GERMAN: readonly RegExp[] = [
  /das k[oö]nnte (?:sie|dich) auch interessieren/u,
  /(?:auch|ebenfalls) interessant/u,
  /mehr zum thema/u,
  /(?:[aä]hnliche|verwandte) (?:artikel|beitr[aä]ge|produkte)/u,
];
const ITALIAN: readonly RegExp[] = [
  /(?:ti )?potrebbe(?:ro)? (?:anche )?interessarti/u,
  /leggi anche/u,
  /articoli correlati/u,
];
const DUTCH: readonly RegExp[] = [/lees ook/u, /gerelateerde (?:artikelen|berichten|producten)/u];

/**
 * An invitation to comment heads the comment box, never content. Not "Comments" or "Replies":
 * on a forum or Q&A page those head the page's own posts. A shop's invitation to review ("Be
 * the first to review this item", "Write a review") heads its reviews widget the same way; not
 * "Reviews" or "Customer reviews": review sites and some shops' own pages head content so.
 */
const DISCUSSION: readonly RegExp[] = [
  /leave a (?:comment|reply)/u,
  /join the (?:conversation|discussion)/u,
  /tell us what you think/u,
  /(?:be the first to|write a|add a|leave a|submit a|write your own) review(?: (?:this|for this) (?:item|product))?/u,
];

/**
 * A shop's shipping and returns terms, the same on every product page, head their own panel
 * beside the product's description and specs: the shop's, not the product's. Only the paired
 * phrases: "Return policy" alone also heads a section of the shop's own terms page.
 */
const POLICY: readonly RegExp[] = [
  /(?:shipping|delivery) (?:&|and|\+) returns?/u,
  /returns? (?:&|and) (?:exchanges|refunds)/u,
  /shipping (?:&|and) delivery/u,
];

/** The families by name, for the tests that show each. */
export const RAIL_HEADING_FAMILIES: Readonly<Record<string, readonly RegExp[]>> = {
  related: RELATED,
  suggested: SUGGESTED,
  shop: SHOP,
  moreReading: MORE_READING,
  author: AUTHOR,
  sharing: SHARING,
  portuguese: PORTUGUESE,
  spanish: SPANISH,
  french: FRENCH,
  german: GERMAN,
  italian: ITALIAN,
  dutch: DUTCH,
  discussion: DISCUSSION,
  policy: POLICY,
};

/** Phrase patterns as one expression that matches a whole heading, in any case. */
export function wholeHeading(phrases: readonly RegExp[]): RegExp {
  return new RegExp(`^(?:${phrases.map((p) => p.source).join('|')})$`, 'iu');
}

const RAIL_HEADING = wholeHeading(Object.values(RAIL_HEADING_FAMILIES).flat());

/** A rail heading is a few words; longer text is not tried against the patterns. */
const RAIL_HEADING_MAX = 60;

export function isRailHeading(text: string): boolean {
  const t = withoutTrailingMarks(text).replace(COLLAPSIBLE_SPACE, ' ').trim();
  if (t.length === 0 || t.length > RAIL_HEADING_MAX) return false;
  return RAIL_HEADING.test(holds(t, '’') ? t.replace(/’/g, "'") : t);
}

/** The text without the colons, stops, ellipses, exclamation marks and spaces it ends in. */
function withoutTrailingMarks(text: string): string {
  let end = text.length;
  for (; end > 0; end--) {
    const c = codeAt(text, end - 1);
    if (c !== 58 && c !== 46 && c !== 0x2026 && c !== 33 && !isWhitespace(c)) break;
  }
  return end === text.length ? text : text.slice(0, end);
}

function isWhitespace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/u.test(String.fromCharCode(c)));
}

/** Marks where an element opened inside a heading being read. */
export const PART = '\u0001';

/**
 * Whether a heading introduces a rail: as a whole, or by one of its parts that the markup sets
 * apart (a title and its tagline in spans of their own, "Complete the look" over "Outfit
 * inspiration").
 */
export function isRailHeadingParts(raw: string): boolean {
  if (!raw.includes(PART)) return isRailHeading(cleanText(raw));
  if (isRailHeading(cleanText(raw.replaceAll(PART, '')))) return true;
  for (const part of raw.split(PART)) {
    const t = cleanText(part);
    if (t !== '' && isRailHeading(t)) return true;
  }
  return false;
}
