/**
 * A lean event stream over an HTML document: htmlparser2's tokenizer (spec-aware about
 * comments, raw-text elements and quoting) plus a small tree builder for the end tags HTML
 * leaves implicit. htmlparser2's full Parser allocates a name string and an attribute object
 * for every tag, which costs more than the tokenizing itself; here tag names are interned,
 * attributes stay as offsets into the source until someone asks for one, text is handed over
 * as slices, and entities are left encoded.
 */
import { Tokenizer } from 'htmlparser2';
import { type AttrSource, VOID_ELEMENTS } from './html-util.js';

/** Attributes of the tag being opened; valid only during the `open` call that receives it. */
export interface AttrView extends AttrSource {
  readonly size: number;
  /** Every attribute as [lower-cased name, raw value], first of duplicates only. */
  entries(): Array<[string, string]>;
}

export interface StreamHandler {
  /** `start` is the offset of the tag's `<` in the source. */
  open(name: string, attrs: AttrView, start: number): void;
  /** Raw source text (character references still encoded). */
  text(data: string): void;
  /** Every open event gets exactly one close event, explicit or implied. */
  close(name: string): void;
}

/** Start tags that close an open `<p>` (when only inline elements sit between them). */
const CLOSES_P: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'center', 'details', 'dialog', 'dir', 'div', 'dl', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'li',
  'dd', 'dt', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'listing', 'search', 'section', 'summary', 'table', 'ul',
  'xmp', 'plaintext',
]);

/** Elements that stop the search for an open `<p>` to close. */
const P_SCOPE_BOUNDARY: ReadonlySet<string> = new Set([
  'html', 'body', 'table', 'td', 'th', 'caption', 'button', 'object', 'applet', 'marquee', 'template', 'svg', 'math',
  'div', 'section', 'article', 'main', 'aside', 'nav', 'header', 'footer', 'li', 'dd', 'dt', 'blockquote', 'form',
]);

interface SiblingRule {
  closes: ReadonlySet<string>;
  boundary: ReadonlySet<string>;
}

/**
 * For list items, cells, rows and options: the nearest open element of the same family is closed
 * (with everything opened inside it) by a new one, unless a container boundary comes first.
 */
const SIBLING_RULES: ReadonlyMap<string, SiblingRule> = (() => {
  const li = { closes: new Set(['li']), boundary: new Set(['ul', 'ol', 'menu', 'table', 'body', 'html']) };
  const dd = { closes: new Set(['dd', 'dt']), boundary: new Set(['dl', 'table', 'body', 'html']) };
  const cell = { closes: new Set(['td', 'th']), boundary: new Set(['tr', 'table', 'body', 'html']) };
  const row = { closes: new Set(['tr']), boundary: new Set(['thead', 'tbody', 'tfoot', 'table', 'body', 'html']) };
  const section = { closes: new Set(['thead', 'tbody', 'tfoot']), boundary: new Set(['table', 'body', 'html']) };
  const option = { closes: new Set(['option']), boundary: new Set(['select', 'datalist', 'optgroup', 'body', 'html']) };
  const optgroup = { closes: new Set(['option', 'optgroup']), boundary: new Set(['select', 'body', 'html']) };
  return new Map<string, SiblingRule>([
    ['li', li],
    ['dd', dd],
    ['dt', dd],
    ['td', cell],
    ['th', cell],
    ['tr', row],
    ['thead', section],
    ['tbody', section],
    ['tfoot', section],
    ['option', option],
    ['optgroup', optgroup],
  ]);
})();

/**
 * What the tree builder needs to know of a tag, as bits of its `flags`, worked out once per name:
 * asking four sets on every tag (void? closes a <p>? a sibling rule? foreign?) cost about 1% of
 * the transform's instructions on the manual's pages (cachegrind).
 */
const IS_VOID = 1 << 0;
const CLOSES_P_FLAG = 1 << 1;
const P_SCOPE_FLAG = 1 << 2;
/** svg and math: foreign content starts inside them. */
const IS_FOREIGN_ROOT = 1 << 3;
/** body and frameset: they close an open head. */
const CLOSES_HEAD = 1 << 4;
/** Above these, per sibling rule k: whether the tag is one rule k closes (closedByBit), or one that bounds its search (boundsBit). */
const SIBLING_SHIFT = 5;
const SIBLING_RULE_LIST: readonly SiblingRule[] = [...new Set(SIBLING_RULES.values())];

function closedByBit(rule: number): number {
  return 1 << (SIBLING_SHIFT + rule);
}

function boundsBit(rule: number): number {
  return 1 << (SIBLING_SHIFT + SIBLING_RULE_LIST.length + rule);
}

interface TagInfo {
  readonly name: string;
  readonly flags: number;
  /** Index into SIBLING_RULE_LIST of the rule a new element of this name applies, or -1. */
  readonly rule: number;
}

function tagInfoFor(name: string): TagInfo {
  let flags =
    (VOID_ELEMENTS.has(name) ? IS_VOID : 0) |
    (CLOSES_P.has(name) ? CLOSES_P_FLAG : 0) |
    (P_SCOPE_BOUNDARY.has(name) ? P_SCOPE_FLAG : 0) |
    (name === 'svg' || name === 'math' ? IS_FOREIGN_ROOT : 0) |
    (name === 'body' || name === 'frameset' ? CLOSES_HEAD : 0);
  SIBLING_RULE_LIST.forEach((r, k) => {
    if (r.closes.has(name)) flags |= closedByBit(k);
    if (r.boundary.has(name)) flags |= boundsBit(k);
  });
  const own = SIBLING_RULES.get(name);
  return { name, flags, rule: own === undefined ? -1 : SIBLING_RULE_LIST.indexOf(own) };
}

// Tag names are interned through a small hash table so the common ones cost no allocation.
const KNOWN_TAGS = [
  'a', 'abbr', 'address', 'area', 'article', 'aside', 'audio', 'b', 'base', 'bdi', 'bdo', 'blockquote', 'body', 'br',
  'button', 'canvas', 'caption', 'center', 'cite', 'code', 'col', 'colgroup', 'data', 'dd', 'del', 'details', 'dfn',
  'dialog', 'div', 'dl', 'dt', 'em', 'embed', 'fieldset', 'figcaption', 'figure', 'font', 'footer', 'form', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr', 'html', 'i', 'iframe', 'img', 'input', 'ins', 'kbd',
  'label', 'legend', 'li', 'link', 'main', 'mark', 'math', 'menu', 'meta', 'nav', 'noscript', 'object', 'ol',
  'optgroup', 'option', 'p', 'param', 'path', 'picture', 'pre', 'q', 's', 'samp', 'script', 'section', 'select',
  'small', 'source', 'span', 'strong', 'style', 'sub', 'summary', 'sup', 'svg', 'table', 'tbody', 'td', 'template',
  'textarea', 'tfoot', 'th', 'thead', 'time', 'title', 'tr', 'track', 'tt', 'u', 'ul', 'var', 'video', 'wbr', 'g',
  'use', 'circle', 'rect', 'symbol', 'defs', 'nobr',
];

const TABLE_BITS = 10;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
const tagTable: Array<TagInfo[] | undefined> = new Array<TagInfo[] | undefined>(1 << TABLE_BITS);

function hashLower(s: string, start: number, end: number): number {
  let h = end - start;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + (s.charCodeAt(i) | 32)) | 0;
  return h & TABLE_MASK;
}

for (const t of new Set(KNOWN_TAGS)) {
  const slot = hashLower(t, 0, t.length);
  (tagTable[slot] ??= []).push(tagInfoFor(t));
}

/** Case-insensitive comparison of `source[start, start + lower.length)` with a lower-case name. */
function equalsLower(source: string, start: number, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    const c = source.charCodeAt(start + i);
    // Folding with |32 is only exact for letters; other characters must match as they are.
    if (c !== lower.charCodeAt(i) && !(c >= 65 && c <= 90 && (c | 32) === lower.charCodeAt(i))) return false;
  }
  return true;
}

function tagAt(source: string, start: number, end: number): TagInfo {
  const bucket = tagTable[hashLower(source, start, end)];
  if (bucket !== undefined) {
    const len = end - start;
    for (const t of bucket) if (t.name.length === len && equalsLower(source, start, t.name)) return t;
  }
  return tagInfoFor(source.slice(start, end).toLowerCase());
}

const MAX_ATTRS = 128;

class TagAttrs implements AttrView {
  source = '';
  size = 0;
  /**
   * The tag's class, once asked for (null: not yet): the content pass asks for it five times or
   * so per element, and each lookup would otherwise scan the attributes and copy the value again.
   */
  private cls: string | undefined | null = null;
  /**
   * One bit per attribute name length (mod 32) the tag has: the content pass asks every element
   * for a dozen attributes it mostly does not have, and this answers most of those at once.
   */
  lengths = 0;

  /** Per attribute: name start, name end, value start (-1: no value), value end. */
  constructor(readonly offsets: Int32Array) {}

  /** Starts a new tag. */
  clear(): void {
    this.size = 0;
    this.cls = null;
    this.lengths = 0;
  }

  get(name: string): string | undefined {
    if (name === 'class') return this.cls !== null ? this.cls : (this.cls = this.find(name));
    return this.find(name);
  }

  private find(name: string): string | undefined {
    const len = name.length;
    if ((this.lengths & (1 << (len & 31))) === 0) return undefined;
    const o = this.offsets;
    for (let i = 0, k = 0; i < this.size; i++, k += 4) {
      if (o[k + 1]! - o[k]! === len && equalsLower(this.source, o[k]!, name)) {
        return o[k + 2]! < 0 ? '' : this.source.slice(o[k + 2]!, o[k + 3]!);
      }
    }
    return undefined;
  }

  entries(): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    const seen = new Set<string>();
    const o = this.offsets;
    for (let i = 0, k = 0; i < this.size; i++, k += 4) {
      const name = this.source.slice(o[k]!, o[k + 1]!).toLowerCase();
      if (seen.has(name)) continue;
      seen.add(name);
      out.push([name, o[k + 2]! < 0 ? '' : this.source.slice(o[k + 2]!, o[k + 3]!)]);
    }
    return out;
  }
}

export interface StreamOptions {
  /** Honour `<x/>` as an empty element (XHTML documents); foreign content always does. */
  selfClosing?: boolean;
}

/**
 * In HTML (outside SVG/MathML) `<![CDATA[` opens a bogus comment that ends at the next `>`;
 * htmlparser2's tokenizer reads it as a CDATA section up to `]]>` instead, so one stray marker in
 * a page body swallows everything after it. `<?` is a bogus comment to the next `>` in both, and
 * keeping the length keeps every element's start offset.
 */
export function neutralizeCdata(html: string): string {
  // Looking for "[CDATA[" first is faster on pages without one (three times on the manual's): a
  // search for a pattern that starts with "<" stops at every tag.
  return html.includes('[CDATA[') && html.includes('<![CDATA[') ? html.replaceAll('<![CDATA[', '<?[CDATA[') : html;
}

/**
 * A browser that runs scripts reads a `<noscript>`'s content as text. An `<iframe>` in there (a
 * tag manager's fallback, often written self-closed: `<iframe src="..." />`) would otherwise open
 * a raw-text element that swallows the rest of the page up to an `</iframe>` that never comes.
 * It is read as an `<embed>` instead, an empty element that is never content either; the name is
 * as long, so every element's start offset stays.
 */
export function neutralizeNoscriptFrames(html: string): string {
  let from = html.indexOf('<noscript');
  if (from < 0) return html;
  // The next <iframe> anywhere: each one is looked for once, however many <noscript>s there are.
  let frame = html.indexOf('<iframe', from);
  let out: string | undefined;
  while (from >= 0 && frame >= 0) {
    const end = html.indexOf('</noscript', from);
    // An unclosed one (a "<noscript>" in a script's string, say) is left alone.
    if (end < 0) break;
    for (; frame >= 0 && frame < end; frame = html.indexOf('<iframe', frame + 7)) {
      if (frame < from) continue;
      const c = html.charCodeAt(frame + 7);
      // Only the tag itself: whitespace, "/" or ">" after its name.
      if (c === 32 || c === 47 || c === 62 || (c >= 9 && c <= 13)) out = (out ?? html).slice(0, frame) + '<embed ' + (out ?? html).slice(frame + 7);
    }
    from = html.indexOf('<noscript', end);
  }
  return out ?? html;
}

/** The markup as the streaming pass reads it (see neutralizeCdata, neutralizeNoscriptFrames). */
export function neutralizeMarkup(html: string): string {
  return neutralizeNoscriptFrames(neutralizeCdata(html));
}

/**
 * The attribute offsets of the last document streamed, for the next one: an array this size is
 * allocated outside the JS heap, which costs about a microsecond each time. A document streamed
 * from inside another's handler gets one of its own.
 */
let spareOffsets: Int32Array | undefined;
const NO_OFFSETS = new Int32Array(0);

export function streamHtml(source: string, handler: StreamHandler, opts: StreamOptions = {}): void {
  const offsets = spareOffsets ?? new Int32Array(MAX_ATTRS * 4);
  spareOffsets = undefined;
  try {
    streamWith(offsets, source, handler, opts);
  } finally {
    spareOffsets = offsets;
  }
}

function streamWith(offsets: Int32Array, source: string, handler: StreamHandler, opts: StreamOptions): void {
  const html = neutralizeMarkup(source);
  const stack: TagInfo[] = [];
  let foreign = 0;
  let tag = tagInfoFor('');
  let tagStart = 0;
  const attrs = new TagAttrs(offsets);
  attrs.source = html;
  const emptyAttrs = new TagAttrs(NO_OFFSETS);
  const xhtml = opts.selfClosing === true;

  const pop = (): void => {
    const top = stack.pop()!;
    if (top.flags & IS_FOREIGN_ROOT) foreign--;
    handler.close(top.name);
  };

  const closeUpTo = (index: number): void => {
    while (stack.length > index) pop();
  };

  /** Index of the innermost open element named `name`, or -1. */
  const lastOpen = (name: string): number => {
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i]!.name === name) return i;
    return -1;
  };

  const impliedCloses = (t: TagInfo): void => {
    if (t.rule >= 0) {
      const closes = closedByBit(t.rule);
      const boundary = boundsBit(t.rule);
      for (let i = stack.length - 1; i >= 0; i--) {
        const open = stack[i]!.flags;
        if (open & closes) {
          closeUpTo(i);
          break;
        }
        if (open & boundary) break;
      }
    }
    if (t.flags & CLOSES_P_FLAG) {
      for (let i = stack.length - 1; i >= 0; i--) {
        const open = stack[i]!;
        if (open.name === 'p') {
          closeUpTo(i);
          break;
        }
        if (open.flags & P_SCOPE_FLAG) break;
      }
    }
    if (t.flags & CLOSES_HEAD) {
      const head = lastOpen('head');
      if (head >= 0) closeUpTo(head);
    }
  };

  const finishOpen = (selfClosing: boolean): void => {
    const t = tag;
    if (foreign === 0) impliedCloses(t);
    handler.open(t.name, attrs, tagStart);
    attrs.clear();
    if (t.flags & IS_VOID || (selfClosing && (xhtml || foreign > 0))) {
      handler.close(t.name);
      return;
    }
    stack.push(t);
    if (t.flags & IS_FOREIGN_ROOT) foreign++;
  };

  const tokenizer = new Tokenizer(
    { decodeEntities: false, recognizeSelfClosing: xhtml },
    {
      ontext(start, end) {
        handler.text(html.slice(start, end));
      },
      ontextentity() {
        /* entity decoding is off */
      },
      onopentagname(start, end) {
        tagStart = start - 1;
        tag = tagAt(html, start, end);
        attrs.clear();
      },
      onattribname(start, end) {
        if (attrs.size >= MAX_ATTRS) return;
        const k = attrs.size * 4;
        offsets[k] = start;
        offsets[k + 1] = end;
        offsets[k + 2] = -1;
        attrs.lengths |= 1 << ((end - start) & 31);
      },
      onattribdata(start, end) {
        if (attrs.size >= MAX_ATTRS) return;
        const k = attrs.size * 4;
        if (offsets[k + 2]! < 0) offsets[k + 2] = start;
        offsets[k + 3] = end;
      },
      onattribentity() {
        /* entity decoding is off */
      },
      onattribend() {
        if (attrs.size < MAX_ATTRS) attrs.size++;
      },
      onopentagend() {
        finishOpen(false);
      },
      onselfclosingtag() {
        finishOpen(true);
      },
      onclosetag(start, end) {
        const t = tagAt(html, start, end);
        if (t.flags & IS_VOID) {
          // `</br>` is a line break in every browser; other void end tags mean nothing.
          if (t.name === 'br') {
            handler.open('br', emptyAttrs, start - 2);
            handler.close('br');
          }
          return;
        }
        const i = lastOpen(t.name);
        if (i >= 0) closeUpTo(i);
      },
      oncomment() {},
      oncdata() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
      isInForeignContext: () => foreign > 0,
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  closeUpTo(0);
}
