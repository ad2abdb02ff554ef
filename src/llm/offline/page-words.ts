/**
 * A page's terms, numbered as the offline tier reads them: a term is known by two 32-bit hashes
 * of its lower-cased UTF-8 bytes (and its length), and numbered from 0 in order of first use on
 * the page in a small table of the page's own. Nothing is kept from one page to the next but the
 * table's memory, stamped with the page's number so a new page needs no clearing.
 *
 * A table of every word met, shared by all pages, spared the stemming and stopword check of a
 * word met before, but in a server it is mostly out of the caches by the next page, and each
 * word's first lookup on a page cost a miss or two: most of what reading a page's words cost
 * there. A page's own table stays in the nearest cache, and the stemming and stopword check on
 * the word's bytes cost less than those misses.
 *
 * Two terms alike in both hashes and length would count as one; among a page's terms the odds of
 * any such pair are below one in 10^12.
 */

/** ASCII lower case of a byte (the only case folding the word scan needs). */
const lowerAscii = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/** Two hashes of a word, each folded over its lower-cased bytes: FNV-1a, and a multiply-shift mix. */
const HASH_START = 0x811c9dc5 | 0;
const HASH2_START = 0x2f1b3c4d | 0;
const hashStep = (h: number, c: number): number => Math.imul(h ^ c, 0x01000193);
const hash2Step = (h: number, c: number): number => Math.imul((h ^ c) + 0x7f4a7c15, 0x5bd1e995) ^ (h >>> 13);

/** Where hashTerm leaves the key it made: one buffer, not an array for every word. */
const key = new Int32Array(2);

/**
 * The key of a term from its UTF-8 bytes[start, end), read in ASCII lower case, and `tail` after
 * them unless it is -1 (a stem that ends in a letter its word did not have): both hashes, the
 * second with the length.
 */
function hashTerm(bytes: Uint8Array, start: number, end: number, tail: number): void {
  let h = HASH_START;
  let h2 = HASH2_START;
  for (let i = start; i < end; i++) {
    const c = lowerAscii(bytes[i]!);
    h = hashStep(h, c);
    h2 = hash2Step(h2, c);
  }
  let n = end - start;
  if (tail >= 0) {
    h = hashStep(h, tail);
    h2 = hash2Step(h2, tail);
    n++;
  }
  key[0] = h;
  key[1] = h2 ^ n;
}

/** Numbers per slot of the page's table: page stamp, first hash, second hash, id (16 bytes). */
const SLOT = 4;
const FIRST_SLOTS = 1 << 10;
const encoder = new TextEncoder();

export class PageTerms {
  private slots = new Int32Array(FIRST_SLOTS * SLOT);
  private mask = FIRST_SLOTS - 1;
  private page = 0;
  /** The two hashes of each id of the page being read, side by side. */
  private keys = new Int32Array(2 * FIRST_SLOTS);
  private count = 0;
  private termBytes = new Uint8Array(256);

  /** Starts a page: ids count from 0 again. */
  begin(): void {
    // Page stamps start at 1: a slot stamped 0 is no page's.
    if (this.page === 0x7fffffff) {
      this.page = 0;
      this.slots.fill(0);
    }
    this.page++;
    this.count = 0;
  }

  /** How many terms the page has so far: its ids are 0 to this, less one. */
  get size(): number {
    return this.count;
  }

  /** The hashes of the page's terms by id, two numbers each (see `keyOf`). */
  pageKeys(): Int32Array {
    return this.keys.slice(0, 2 * this.count);
  }

  /**
   * The id of the term the word bytes[start, start + length) counts as, stemmed as `stem` in
   * text.ts does and read in ASCII lower case; the word is ASCII and no stopword.
   */
  idOfAsciiWord(bytes: Uint8Array, start: number, length: number): number {
    const end = start + length;
    const last = lowerAscii(bytes[end - 1]!);
    const before = length > 1 ? lowerAscii(bytes[end - 2]!) : 0;
    const third = length > 2 ? lowerAscii(bytes[end - 3]!) : 0;
    let keep = length;
    let y = false;
    // ing, ies to y, ed, s but not ss, e: the same rules, in the same order, as `stem`.
    if (length > 5 && last === 103 && before === 110 && third === 105) keep = length - 3;
    else if (length > 4 && last === 115 && before === 101 && third === 105) {
      keep = length - 3;
      y = true;
    } else if (length > 4 && last === 100 && before === 101) keep = length - 2;
    else if (length > 3 && last === 115 && before !== 115) keep = length - 1;
    else if (length > 4 && last === 101) keep = length - 1;
    // Hashed as `keyOf` hashes a term's bytes: one way to a term's key.
    hashTerm(bytes, start, start + keep, y ? 121 : -1);
    return this.idOfKey(key[0]!, key[1]!);
  }

  /** The id of a term (already stemmed and in lower case, any script). */
  idOfTerm(term: string): number {
    this.hashOf(term);
    return this.idOfKey(key[0]!, key[1]!);
  }

  /** The two hashes a term is known by, as `pageKeys` holds them. */
  keyOf(term: string): [number, number] {
    this.hashOf(term);
    return [key[0]!, key[1]!];
  }

  private hashOf(term: string): void {
    if (this.termBytes.length < term.length * 3) this.termBytes = new Uint8Array(term.length * 3);
    hashTerm(this.termBytes, 0, encoder.encodeInto(term, this.termBytes).written, -1);
  }

  private idOfKey(h: number, h2: number): number {
    const slots = this.slots;
    const page = this.page;
    const wrap = this.mask * SLOT + SLOT - 1;
    let at = (h & this.mask) * SLOT;
    for (; slots[at] === page; at = (at + SLOT) & wrap) {
      if (slots[at + 1] === h && slots[at + 2] === h2) return slots[at + 3]!;
    }
    const id = this.count++;
    slots[at] = page;
    slots[at + 1] = h;
    slots[at + 2] = h2;
    slots[at + 3] = id;
    if (2 * id + 2 > this.keys.length) {
      const next = new Int32Array(this.keys.length * 2);
      next.set(this.keys);
      this.keys = next;
    }
    this.keys[2 * id] = h;
    this.keys[2 * id + 1] = h2;
    // At most half full, so that probes stay short.
    if (2 * this.count > this.mask + 1) this.grow();
    return id;
  }

  /** Twice the slots, holding the page's terms again (those of earlier pages are of no use). */
  private grow(): void {
    const size = (this.mask + 1) * 2;
    const slots = new Int32Array(size * SLOT);
    const mask = size - 1;
    const wrap = mask * SLOT + SLOT - 1;
    for (let id = 0; id < this.count; id++) {
      const h = this.keys[2 * id]!;
      let at = (h & mask) * SLOT;
      while (slots[at] === this.page) at = (at + SLOT) & wrap;
      slots[at] = this.page;
      slots[at + 1] = h;
      slots[at + 2] = this.keys[2 * id + 1]!;
      slots[at + 3] = id;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/**
 * Short lower-case ASCII words (at most 8 bytes), held exactly: the stopwords, looked up by their
 * bytes packed into two numbers, in a table small enough to stay in the nearest cache.
 */
export class ShortWords {
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(words: Iterable<string>) {
    const list = [...words];
    // A word it cannot hold would be missed on the bytes and found by a string lookup elsewhere.
    const unfit = list.find((w) => !/^[a-z0-9']{1,8}$/.test(w));
    if (unfit !== undefined) throw new Error(`ShortWords holds lower-case ASCII words of at most 8 bytes, not ${JSON.stringify(unfit)}`);
    let size = 16;
    while (size < list.length * 4) size *= 2;
    this.slots = new Int32Array(size * 2);
    this.mask = size - 1;
    for (const w of list) {
      const bytes = encoder.encode(w);
      packWord(bytes, 0, bytes.length);
      const a = packed[0]!;
      const b = packed[1]!;
      let at = mix(a, b) & this.mask;
      while (this.slots[2 * at] !== 0) at = (at + 1) & this.mask;
      this.slots[2 * at] = a;
      this.slots[2 * at + 1] = b;
    }
  }

  /** Whether bytes[start, start + length), in ASCII lower case, is one of the words. */
  has(bytes: Uint8Array, start: number, length: number): boolean {
    if (length > 8) return false;
    packWord(bytes, start, length);
    const a = packed[0]!;
    const b = packed[1]!;
    for (let at = mix(a, b) & this.mask; this.slots[2 * at] !== 0; at = (at + 1) & this.mask) {
      if (this.slots[2 * at] === a && this.slots[2 * at + 1] === b) return true;
    }
    return false;
  }
}

/** Where packWord leaves a word's two numbers: one buffer, not an array for every word. */
const packed = new Int32Array(2);

/**
 * Bytes[start, start + length) (at most 8), in ASCII lower case, as two numbers: four bytes each,
 * the first never 0 for a word.
 */
function packWord(bytes: Uint8Array, start: number, length: number): void {
  let a = 0;
  let b = 0;
  for (let i = 0; i < length; i++) {
    const c = lowerAscii(bytes[start + i]!);
    if (i < 4) a |= c << (8 * i);
    else b |= c << (8 * (i - 4));
  }
  packed[0] = a;
  packed[1] = b;
}

const mix = (a: number, b: number) => Math.imul(a ^ Math.imul(b, 0x9e3779b1), 0x85ebca6b) >>> 7;
