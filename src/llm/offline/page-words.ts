/**
 * A page's words, numbered as the offline tier reads them. A sentence's words are read from its
 * UTF-8 bytes and looked up by two hashes of their lower-cased bytes in a table of the words met
 * so far, on this page and earlier ones, which keeps the term each counts as: a word met before
 * costs no string, no lower-casing, no stemming and no map lookup. Each term also keeps its id
 * on the page being read, stamped with the page's number, so a new page needs no clearing.
 *
 * The table holds at most MAX_KNOWN_WORDS words, then starts again: about 3 MB. A table per page
 * in front of it, and one that grew without bound, were both slower on the PostgreSQL manual.
 *
 * Bytes rather than the string's characters: charCodeAt on the slices a page's sentences are
 * made of cost about ten nanoseconds a character, most of a word's lookup.
 */

/** ASCII lower case of a byte (the only case folding the word scan needs). */
export const lowerAscii = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/** FNV-1a, one step: the hash of a word is folded over its lower-cased bytes. */
export const HASH_START = 0x811c9dc5 | 0;
export const hashStep = (h: number, c: number): number => Math.imul(h ^ c, 0x01000193);

/** Words the table holds at most; past that it starts again, so memory stays bounded. */
const MAX_KNOWN_WORDS = 1 << 16;
const FIRST_SLOTS = 1 << 14;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A second hash of the word, with other constants: the two together tell words apart. */
export const HASH2_START = 0x2f1b3c4d | 0;
export const hash2Step = (h: number, c: number): number => Math.imul((h ^ c) + 0x7f4a7c15, 0x5bd1e995) ^ (h >>> 13);

/**
 * Lower-cased words to a number each, by open addressing on two 32-bit hashes of the word and its
 * length: a slot (hash, hash, length, value) is 16 bytes and no word's bytes are kept. In a server
 * the table is mostly out of the caches by the next page, and each word's first lookup on a page
 * costs a miss: a smaller table holds more of itself in the caches, and comparing bytes kept
 * elsewhere cost a second miss. Two words alike in length and both hashes would count as one
 * word; among the 65,536 words held at most, the odds of any such pair are about one in 10^10.
 */
class WordTable {
  /** SLOT numbers per slot: first hash, second hash, length (0: free), value. */
  private slots: Int32Array;
  private mask: number;
  count = 0;
  /** The slot the last miss of `find` ended on: where `insert` puts the word. */
  private free = 0;

  constructor(firstSlots: number) {
    this.slots = new Int32Array(firstSlots * SLOT);
    this.mask = firstSlots - 1;
  }

  /** The value of a word of `length` bytes with these hashes; undefined when it is not held. */
  find(length: number, hash: number, hash2: number): number | undefined {
    const slots = this.slots;
    const wrap = this.mask * SLOT + SLOT - 1;
    let at = (hash & this.mask) * SLOT;
    for (let len = slots[at + 2]!; len !== 0; len = slots[at + 2]!) {
      if (slots[at] === hash && slots[at + 1] === hash2 && len === length) return slots[at + 3]!;
      at = (at + SLOT) & wrap;
    }
    this.free = at;
    return undefined;
  }

  /** Adds the word `find` just missed. */
  insert(length: number, hash: number, hash2: number, value: number): void {
    const at = this.free;
    this.slots[at] = hash;
    this.slots[at + 1] = hash2;
    this.slots[at + 2] = length;
    this.slots[at + 3] = value;
    // At most half full, so that probes stay short.
    if (2 * ++this.count > this.mask + 1) this.rehash((this.mask + 1) * 2);
  }

  private rehash(size: number): void {
    const old = this.slots;
    const slots = new Int32Array(size * SLOT);
    const mask = size - 1;
    const wrap = mask * SLOT + SLOT - 1;
    for (let from = 0; from < old.length; from += SLOT) {
      if (old[from + 2] === 0) continue;
      let at = (old[from]! & mask) * SLOT;
      while (slots[at + 2] !== 0) at = (at + SLOT) & wrap;
      slots.set(old.subarray(from, from + SLOT), at);
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** Numbers per slot of a WordTable: 16 bytes, so that a slot never straddles two cache lines. */
const SLOT = 4;

export class PageWords {
  /** Words met: value = index in `terms`, -1 when it is no term. */
  private known = new WordTable(FIRST_SLOTS);
  private terms: string[] = [];
  private termIndex = new Map<string, number>();
  /**
   * Two numbers per entry of `terms`: the number of the page it was last met on, and its id on
   * that page (side by side: one cache line per term).
   */
  private onPage: Int32Array = new Int32Array(1 << 13);
  private pageNumber = 0;
  private vocab: string[] = [];
  /** Bytes of the word being looked up by idOfWord. */
  private wordBytes = new Uint8Array(256);

  /** termFor: the term a lower-cased word counts as, undefined when it is none. */
  constructor(private readonly termFor: (lowerWord: string) => string | undefined) {}

  /**
   * Starts a page: its vocabulary (the term of each id, ids from 0 in order of first use) fills as
   * words are met. A list, not a map from term to id: filling a map cost a third of the lookups,
   * and a page's few queries find a term in the list.
   */
  begin(): string[] {
    this.vocab = [];
    if (this.known.count > MAX_KNOWN_WORDS) {
      this.known = new WordTable(FIRST_SLOTS);
      this.terms = [];
      this.termIndex = new Map();
      this.onPage.fill(0);
    }
    // Page numbers start at 1: a stamp of 0 is no page's.
    if (this.pageNumber === 0x7fffffff) {
      this.pageNumber = 0;
      this.onPage.fill(0);
    }
    this.pageNumber++;
    return this.vocab;
  }

  /**
   * The id of the word bytes[start, end), compared and hashed in ASCII lower case (`hash` made
   * with hashStep from HASH_START); -1 when it is no term.
   */
  idOf(bytes: Uint8Array, start: number, end: number, hash: number, hash2: number): number {
    const t = this.termOf(bytes, start, end, hash, hash2);
    let id = -1;
    if (t >= 0) {
      const on = this.onPage;
      if (on[2 * t] === this.pageNumber) id = on[2 * t + 1]!;
      else {
        id = this.vocab.length;
        this.vocab.push(this.terms[t]!);
        on[2 * t] = this.pageNumber;
        on[2 * t + 1] = id;
      }
    }
    return id;
  }

  /** The id of a word already in lower case (any script); -1 when it is no term. */
  idOfWord(word: string): number {
    if (this.wordBytes.length < word.length * 3) this.wordBytes = new Uint8Array(word.length * 3);
    const n = encoder.encodeInto(word, this.wordBytes).written;
    let h = HASH_START;
    let h2 = HASH2_START;
    for (let i = 0; i < n; i++) {
      const c = lowerAscii(this.wordBytes[i]!);
      h = hashStep(h, c);
      h2 = hash2Step(h2, c);
    }
    return this.idOf(this.wordBytes, 0, n, h, h2);
  }

  /** The index in `terms` of the term the word counts as (worked out once per word met); -1 when none. */
  private termOf(bytes: Uint8Array, start: number, end: number, hash: number, hash2: number): number {
    const held = this.known.find(end - start, hash, hash2);
    if (held !== undefined) return held;
    const term = this.termFor(decoder.decode(bytes.subarray(start, end)).toLowerCase());
    const t = term === undefined ? -1 : this.numberOf(term);
    this.known.insert(end - start, hash, hash2, t);
    return t;
  }

  /** The index of a term in `terms`, added when new. */
  private numberOf(term: string): number {
    let t = this.termIndex.get(term);
    if (t === undefined) {
      t = this.terms.length;
      this.terms.push(term);
      this.termIndex.set(term, t);
      if (2 * t === this.onPage.length) this.onPage = grown(this.onPage);
    }
    return t;
  }
}

function grown(a: Int32Array): Int32Array {
  const next = new Int32Array(a.length * 2);
  next.set(a);
  return next;
}
