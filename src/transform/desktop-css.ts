/**
 * What a page's own style sheets hide at a desktop's width: the copies of a part that a site lays
 * out again for other screens, of which a desktop shows one. Read from each <style> as it closes.
 *
 * Read with regular expressions and a brace counter rather than a CSS parser, on figures: the
 * transform of the 1,678 WCXB dev and Scrapinghub pages (main content, markdown) reads 11,838
 * sheets (62.7 MB of CSS) in 1.5 s of its 37.6 s; postcss, the maintained parser at hand, takes
 * 14.3 s only to parse the same sheets, before a rule is looked at, and throws on 103 of them.
 * Two shapes of rule are looked for (a class hidden in a @media block that spans a desktop's
 * width; a class hidden at the top level and shown again for small screens), which the brace
 * counter finds without building a tree.
 */
import type { AttrSource } from './html-util.js';

/**
 * A style sheet's block of rules for a range of screen widths ("@media (min-width: 1200px) {
 * .hidden-x { display: none } }"), whose rules may hide classes there: a site laid out once per
 * screen size (a site builder's variants) marks each copy with the classes that hide it elsewhere.
 */
const MEDIA_HIDE = /@media\s*(?:(?:only\s+)?screen\s+and\s*)?\(\s*min-width\s*:\s*(\d+(?:\.\d+)?)px\s*\)(?:\s*and\s*\(\s*max-width\s*:\s*(\d+(?:\.\d+)?)px\s*\))?\s*\{/g;
/** A rule inside such a block that hides bare classes: ".a, .b { ... display: none". */
const CLASS_HIDE = /(?:^|[{};])\s*((?:\.[\w-]+\s*,\s*)*\.[\w-]+)\s*\{[^{}]*?display\s*:\s*none/g;
/**
 * A style sheet's block of rules for screens narrower than some width ("@media (max-width:
 * 991px) {"), and a selector list of classes alone (".a", ".a.b"), as MEDIA_HIDE and CLASS_HIDE.
 */
const MEDIA_MAX = /^@media\s*(?:(?:only\s+)?screen\s+and\s*)?\(\s*max-width\s*:\s*(\d+(?:\.\d+)?)px\s*\)$/;
const CLASS_SELECTORS = /^(?:\.[\w-]+)+(?:\s*,\s*(?:\.[\w-]+)+)*$/;
const CLASS_NAME = /\.([\w-]+)/g;
const CSS_COMMENT = /\/\*[\s\S]*?\*\//g;
const BRACE = /[{}]/g;
const DISPLAY = /(?:^|;)\s*display\s*:\s*([\w-]+)/g;
/** The screen width a page is read at: a desktop's. */
const DESKTOP_WIDTH = 1280;
/** Style sheets longer than this are not read for such rules (a site's whole framework inlined). */
export const STYLE_MAX = 1 << 20;

export class DesktopCss {
  /** Classes hidden by a @media block that spans a desktop's width (see MEDIA_HIDE). */
  private desktopHidden: Set<string> | undefined = undefined;
  /**
   * What the page's style sheets say of class selectors (".a.b" as "a.b"), for copies shown on
   * small screens only (see noteMobileOnly): hidden at every width, shown on a small screen, and
   * the classes of the rules that show elements at every width. The copies found, by first class.
   */
  private cssHidden: Set<string> | undefined = undefined;
  private cssShownSmall: Set<string> | undefined = undefined;
  private cssShown: string[][] = [];
  private mobileOnly: Map<string, string[][]> | undefined = undefined;

  /** Whether any sheet read so far hides a class at a desktop's width (else hides is never true). */
  hidesAny(): boolean {
    return this.desktopHidden !== undefined || this.mobileOnly !== undefined;
  }

  /**
   * Reads a style sheet for classes it hides at a desktop's width (see MEDIA_HIDE): the copies of
   * a part a site lays out again for other screens, of which a desktop shows one.
   */
  read(css: string): void {
    if (css.includes('display')) this.noteMobileOnly(css);
    if (!css.includes('@media') || !css.includes('none')) return;
    MEDIA_HIDE.lastIndex = 0;
    for (let m = MEDIA_HIDE.exec(css); m !== null; m = MEDIA_HIDE.exec(css)) {
      const min = Number(m[1]);
      const max = m[2] === undefined ? Infinity : Number(m[2]);
      if (min > DESKTOP_WIDTH || max < DESKTOP_WIDTH) continue;
      // The block's body, up to its closing brace.
      const from = MEDIA_HIDE.lastIndex;
      let depth = 1;
      let end = from;
      for (; end < css.length && depth > 0; end++) {
        const c = css.charCodeAt(end);
        if (c === 123) depth++;
        else if (c === 125) depth--;
      }
      const body = css.slice(from - 1, end);
      CLASS_HIDE.lastIndex = 0;
      for (let r = CLASS_HIDE.exec(body); r !== null; r = CLASS_HIDE.exec(body)) {
        this.desktopHidden ??= new Set();
        for (const sel of r[1]!.split(',')) this.desktopHidden.add(sel.trim().slice(1));
      }
      MEDIA_HIDE.lastIndex = end;
    }
  }

  /**
   * Reads a style sheet for the copies of a part shown on small screens only (a site builder's
   * phone layout of a section it lays out again for the desktop): a rule at the top level hides
   * them ("display: none") and one for screens narrower than a desktop's shows them again. Not
   * when a rule at the top level shows them after all (".tab-pane.active", ".menu.open .panel").
   */
  private noteMobileOnly(sheet: string): void {
    const css = sheet.includes('/*') ? sheet.replace(CSS_COMMENT, '') : sheet;
    // Depth of the at-rule blocks open (a @media block's rules sit at depth 1), and whether the
    // @media block open at depth 1 is for small screens.
    let depth = 0;
    let small = false;
    let start = 0;
    BRACE.lastIndex = 0;
    for (let b = BRACE.exec(css); b !== null; b = BRACE.exec(css)) {
      const i = b.index;
      if (css.charCodeAt(i) === 125) {
        if (depth > 0) depth--;
        start = i + 1;
        continue;
      }
      let head = css.slice(start, i);
      // A statement before it ("@import url(a.css);") is not its selector.
      const semi = head.lastIndexOf(';');
      head = (semi >= 0 ? head.slice(semi + 1) : head).trim();
      start = i + 1;
      if (head.charCodeAt(0) === 64 /* @ */ || depth > 1) {
        if (depth === 0) {
          const m = MEDIA_MAX.exec(head);
          small = m !== null && Number(m[1]) < DESKTOP_WIDTH;
        }
        depth++;
        continue;
      }
      // A rule: its declarations run to the next closing brace.
      let end = css.indexOf('}', i + 1);
      if (end < 0) end = css.length;
      if (depth === 0 || small) this.noteRule(head, css.slice(i + 1, end), depth === 1);
      start = end + 1;
      BRACE.lastIndex = start;
    }
    if (this.cssHidden === undefined || this.cssShownSmall === undefined) return;
    for (const key of this.cssShownSmall) {
      if (!this.cssHidden.has(key)) continue;
      const parts = key.split('.');
      if (this.cssShown.some((shown) => parts.every((p) => shown.includes(p)))) continue;
      this.mobileOnly ??= new Map();
      const list = this.mobileOnly.get(parts[0]!) ?? [];
      if (!list.some((l) => l.join('.') === key)) list.push(parts);
      this.mobileOnly.set(parts[0]!, list);
    }
  }

  /** Notes what one rule does to the display of its selectors' elements (see noteMobileOnly). */
  private noteRule(selectors: string, body: string, smallScreen: boolean): void {
    if (!body.includes('display')) return;
    let display: string | undefined;
    DISPLAY.lastIndex = 0;
    for (let d = DISPLAY.exec(body); d !== null; d = DISPLAY.exec(body)) display = d[1]!.toLowerCase();
    if (display === undefined) return;
    const shows = display !== 'none';
    if (!smallScreen && shows) {
      for (const sel of selectors.split(',')) {
        const classes = [...sel.matchAll(CLASS_NAME)].map((c) => c[1]!);
        if (classes.length > 0) this.cssShown.push(classes);
      }
    } else if (smallScreen === shows && CLASS_SELECTORS.test(selectors)) {
      const into = smallScreen ? (this.cssShownSmall ??= new Set()) : (this.cssHidden ??= new Set());
      for (const sel of selectors.split(',')) into.add(sel.trim().slice(1));
    }
  }

  /** Whether a class of the element is one the page's style sheets hide at a desktop's width. */
  hides(attrs: AttrSource): boolean {
    const cls = attrs.get('class');
    if (cls === undefined) return false;
    const names = cls.split(/\s+/);
    for (const c of names) {
      if (c === '') continue;
      if (this.desktopHidden?.has(c)) return true;
      const copies = this.mobileOnly?.get(c);
      if (copies !== undefined && copies.some((parts) => parts.every((p) => names.includes(p)))) return true;
    }
    return false;
  }
}
