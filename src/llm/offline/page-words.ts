/**
 * A page's words, numbered as the offline tier reads them. A sentence's words are read from its
 * UTF-8 bytes and looked up by a hash of their lower-cased bytes in a table of the words met so
 * far: a word met before, on this page or an earlier one, costs no string, no lower-casing, no
 * stemming and no map lookup. Each term gets a number of its own for the page it is met on
 * (from 0, in order of first use), so that what ranks a page counts with small arrays.
 *
 * Bytes rather than the string's characters: charCodeAt on the slices a page's sentences are
 * made of cost about ten nanoseconds a character, most of a word's lookup.
 * The table is kept from page to page (a page's new words cost most of its reading when it
 * started empty each time) and started afresh, at a page's start, once it holds MAX_WORDS words:
 * a server meets words without end.
 */

export const lowerAscii = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/** FNV-1a, one step: the hash of a word is folded over its lower-cased bytes. */
export const HASH_START = 0x811c9dc5 | 0;
export const hashStep = (h: number, c: number): number => Math.imul(h ^ c, 0x01000193);

const FIRST_SLOTS = 1 << 12;
/** Words kept before the table starts afresh (some megabytes with their bytes and slots). */
export const MAX_WORDS = 1 << 16;
const encoder = new TextEncoder();

export class PageWords {
  /** Open addressing: entry number + 1 per slot, 0 when free. */
  private slots: Int32Array = new Int32Array(FIRST_SLOTS);
  private count = 0;
  /** Per entry: the word's hash, its lower-cased bytes (in `pool`) and its term (-1: no term). */
  private hashes: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private offsets: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private lengths: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private termOfEntry: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private pool: Buffer = Buffer.alloc(1 << 16);
  private used = 0;
  /** The terms met so far, by number; words that stem alike share one. */
  private termNumbers = new Map<string, number>();
  private termNames: string[] = [];
  /** Per term: the page it was last met on, and its number there. */
  private metOn: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private pageId: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private page = 0;
  private pageTerms: string[] = [];
  /** Bytes of the word being looked up by idOfWord. */
  private wordBytes = new Uint8Array(256);

  /** termFor: the term a lower-cased word counts as, undefined when it is none. */
  constructor(private readonly termFor: (lowerWord: string) => string | undefined) {}

  /** Words kept in the table. */
  get size(): number {
    return this.count;
  }

  /** Starts a page: the list it returns (id -> term) fills as its terms are met. */
  begin(): string[] {
    if (this.count >= MAX_WORDS) this.clear();
    this.page++;
    this.pageTerms = [];
    return this.pageTerms;
  }

  /**
   * The page's id for the word bytes[start, end), compared and hashed in ASCII lower case
   * (`hash` made with hashStep from HASH_START); -1 when it is no term.
   */
  idOf(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    let slot = hash & mask;
    for (let e = this.slots[slot]!; e !== 0; e = this.slots[slot]!) {
      const x = e - 1;
      if (this.hashes[x] === hash && this.lengths[x] === length && this.same(this.offsets[x]!, bytes, start, length)) return this.onPage(this.termOfEntry[x]!);
      slot = (slot + 1) & mask;
    }
    const offset = this.keep(bytes, start, length);
    const name = this.termFor(this.pool.toString('utf8', offset, offset + length));
    const term = name === undefined ? -1 : this.numberOf(name);
    this.add(hash, offset, length, term, slot);
    return this.onPage(term);
  }

  /** The page's id for a word already in lower case (any script); -1 when it is no term. */
  idOfWord(word: string): number {
    if (this.wordBytes.length < word.length * 3) this.wordBytes = new Uint8Array(word.length * 3);
    const n = encoder.encodeInto(word, this.wordBytes).written;
    let h = HASH_START;
    for (let i = 0; i < n; i++) h = hashStep(h, lowerAscii(this.wordBytes[i]!));
    return this.idOf(this.wordBytes, 0, n, h);
  }

  private onPage(term: number): number {
    if (term < 0) return -1;
    if (this.metOn[term] === this.page) return this.pageId[term]!;
    this.metOn[term] = this.page;
    this.pageId[term] = this.pageTerms.length;
    this.pageTerms.push(this.termNames[term]!);
    return this.pageId[term]!;
  }

  private numberOf(name: string): number {
    let term = this.termNumbers.get(name);
    if (term !== undefined) return term;
    term = this.termNames.length;
    this.termNumbers.set(name, term);
    this.termNames.push(name);
    if (term === this.metOn.length) {
      this.metOn = grown(this.metOn);
      this.pageId = grown(this.pageId);
    }
    return term;
  }

  private clear(): void {
    this.slots = new Int32Array(FIRST_SLOTS);
    this.count = 0;
    this.used = 0;
    this.termNumbers = new Map();
    this.termNames = [];
    this.metOn.fill(0);
  }

  private same(offset: number, bytes: Uint8Array, start: number, length: number): boolean {
    const pool = this.pool;
    for (let i = 0; i < length; i++) if (pool[offset + i] !== lowerAscii(bytes[start + i]!)) return false;
    return true;
  }

  /** Copies the word's lower-cased bytes into the pool; returns where. */
  private keep(bytes: Uint8Array, start: number, length: number): number {
    if (this.used + length > this.pool.length) {
      const next = Buffer.alloc(Math.max(this.pool.length * 2, this.used + length));
      this.pool.copy(next, 0, 0, this.used);
      this.pool = next;
    }
    const offset = this.used;
    for (let i = 0; i < length; i++) this.pool[offset + i] = lowerAscii(bytes[start + i]!);
    this.used += length;
    return offset;
  }

  private add(hash: number, offset: number, length: number, term: number, slot: number): void {
    const e = this.count++;
    if (e === this.hashes.length) {
      this.hashes = grown(this.hashes);
      this.offsets = grown(this.offsets);
      this.lengths = grown(this.lengths);
      this.termOfEntry = grown(this.termOfEntry);
    }
    this.hashes[e] = hash;
    this.offsets[e] = offset;
    this.lengths[e] = length;
    this.termOfEntry[e] = term;
    this.slots[slot] = e + 1;
    // At most half full, so that probes stay short.
    if (2 * (e + 1) > this.slots.length) this.slots = rehashed(this.hashes, e + 1, this.slots.length * 2);
  }
}

/** A slot table of `size` (a power of two) for the first `count` entries' hashes. */
function rehashed(hashes: Int32Array, count: number, size: number): Int32Array {
  const slots = new Int32Array(size);
  const mask = size - 1;
  for (let e = 0; e < count; e++) {
    let slot = hashes[e]! & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = e + 1;
  }
  return slots;
}

function grown(a: Int32Array): Int32Array {
  const next = new Int32Array(a.length * 2);
  next.set(a);
  return next;
}
