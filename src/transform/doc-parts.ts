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

/** Whether a class list names a code declaration's signature: a word for what is declared, then "signature". */
function isCodeSignature(cls: string): boolean {
  for (const name of cls.toLowerCase().split(/\s+/)) {
    const parts = name.split(/[^a-z0-9]+/);
    for (let i = 1; i < parts.length; i++) {
      const p = parts[i]!;
      if ((p === 'signature' || p === 'signatures') && DECLARED.has(parts[i - 1]!)) return true;
    }
  }
  return false;
}
