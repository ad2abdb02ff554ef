import type { AttrSource } from './html-util.js';
import { boundedMemo } from '../memo.js';
/**
 * Class words that mark furniture on most pages but, in documentation, name a part of the text:
 * - "signature": a forum poster's signature, a writer's signed name; but a function's, a
 *   method's or a type's signature ("func_signature", "method-signature", "member-signature",
 *   "tsd-signature") is the code the page documents, and in a function table the first half of
 *   every cell;
 * - "footnotes": the notes a blog engine renders under a post; but a table's own footnotes, a
 *   row group of the table (`<tbody class="footnotes">`), explain its cells.
 */
const DECLARED: ReadonlySet<string> = new Set([
  'func', 'function', 'functions', 'fn', 'method', 'methods', 'member', 'members', 'type', 'api', 'call', 'proc',
  'procedure', 'operator', 'tsd', 'sig', 'code', 'decl', 'declaration',
]);

const TABLE_PARTS: ReadonlySet<string> = new Set(['tbody', 'tfoot', 'tr', 'td', 'th']);

/** Whether the furniture word a class list holds names a part of documentation here (see above). */
export function isDocumentationPart(name: string, cls: string, word: string): boolean {
  if (word === 'signature' || word === 'signatures') return isCodeSignature(cls);
  if (word === 'footnotes') return TABLE_PARTS.has(name);
  return false;
}

/**
 * Whether a class list names a code declaration's signature: a word for what is declared, then
 * "signature". Worked out once per list: a function table asks it of every one of its rows.
 */
const isCodeSignature = boundedMemo((cls: string): boolean => {
  for (const name of cls.toLowerCase().split(/\s+/)) {
    const parts = name.split(/[^a-z0-9]+/);
    for (let i = 1; i < parts.length; i++) {
      const p = parts[i]!;
      if ((p === 'signature' || p === 'signatures') && DECLARED.has(parts[i - 1]!)) return true;
    }
  }
  return false;
});

/** Roles of a note to the text: ARIA's note and the digital-publishing footnote and endnotes. */
const NOTE_ROLES: ReadonlySet<string> = new Set(['note', 'doc-footnote', 'doc-endnote', 'doc-endnotes']);

/**
 * An `<aside>` is furniture on most pages (a sidebar, a pull-out box), but documentation writers
 * render a footnote as one, and the list of them under the text as another: a note the text's
 * reference marks point to ("see [1]"), as much the text as the sentence citing it. Told by its
 * role or by a class word naming a footnote ("footnote", "footnote-list"; not the blog's
 * "footnotes" section, see main-content's ALWAYS_WORDS).
 */
export function isFootnoteAside(attrs: AttrSource): boolean {
  const role = attrs.get('role')?.trim().toLowerCase();
  if (role !== undefined && NOTE_ROLES.has(role)) return true;
  const cls = attrs.get('class');
  return cls !== undefined && cls.toLowerCase().split(/\s+/).some((c) => c === 'footnote' || c.startsWith('footnote-') || c.startsWith('footnote_'));
}

/**
 * A box set into documentation's text (a note, a warning, a "See also" with the pages it points
 * to), as documentation generators name it by class: "admonition", alone or as a prefix
 * ("admonition-note"). It is the text's however linked: a "See also" box is mostly links by
 * design, and a menu is never named so.
 */
export function isAdmonition(cls: string | undefined): boolean {
  if (cls === undefined || !/admonition/i.test(cls)) return false;
  return cls.toLowerCase().split(/\s+/).some((c) => c === 'admonition' || c.startsWith('admonition-') || c.startsWith('admonition_'));
}
