/**
 * A page's words, numbered as the offline tier reads them. A sentence's words are read from its
 * UTF-8 bytes and looked up by a hash of their lower-cased bytes in a table of the words met so
 * far, on this page and earlier ones, which keeps the term each counts as: a word met before
 * costs no string, no lower-casing, no stemming and no map lookup. Each term also keeps its id
 * on the page being read, stamped with the page's number, so a new page needs no clearing.
 *
 * The table holds at most MAX_KNOWN_WORDS words, then starts again: about 5 MB, and on
 * technical prose small enough to stay in the processor's caches. A table per page in front of
 * it, and one that grew without bound, were both slower on the PostgreSQL manual.
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

/** Lower-cased words (as bytes) to a number each: open addressing on the word's hash. */
class WordTable {
  /** Entry number + 1 per slot, 0 when free. */
  private slots: Int32Array;
  count = 0;
  /** Per entry: the word's hash, its lower-cased bytes (in `pool`) and its value. */
  private hashes: Int32Array;
  private offsets: Int32Array;
  private lengths: Int32Array;
  private values: Int32Array;
  pool: Buffer = Buffer.alloc(1 << 14);
  private used = 0;
  /** The slot the last miss of `find` ended on: where `add` puts the word. */
  private free = 0;

  constructor(firstSlots: number) {
    this.slots = new Int32Array(firstSlots);
    this.hashes = new Int32Array(firstSlots / 2);
    this.offsets = new Int32Array(firstSlots / 2);
    this.lengths = new Int32Array(firstSlots / 2);
    this.values = new Int32Array(firstSlots / 2);
  }

  /** The value of the word bytes[start, end) hashed as `hash`; undefined when it is not held. */
  find(bytes: Uint8Array, start: number, end: number, hash: number): number | undefined {
    const slots = this.slots;
    const mask = slots.length - 1;
    const length = end - start;
    let slot = hash & mask;
    for (let e = slots[slot]!; e !== 0; e = slots[slot]!) {
      const x = e - 1;
      if (this.hashes[x] === hash && this.lengths[x] === length && this.same(this.offsets[x]!, bytes, start, length)) return this.values[x]!;
      slot = (slot + 1) & mask;
    }
    this.free = slot;
    return undefined;
  }

  /** Adds the word `find` just missed; returns where its lower-cased bytes are in `pool`. */
  add(bytes: Uint8Array, start: number, end: number, hash: number, value: number): number {
    const length = end - start;
    const offset = this.keep(bytes, start, length);
    const e = this.count++;
    if (e === this.hashes.length) {
      this.hashes = grown(this.hashes);
      this.offsets = grown(this.offsets);
      this.lengths = grown(this.lengths);
      this.values = grown(this.values);
    }
    this.hashes[e] = hash;
    this.offsets[e] = offset;
    this.lengths[e] = length;
    this.values[e] = value;
    this.slots[this.free] = e + 1;
    // At most half full, so that probes stay short.
    if (2 * (e + 1) > this.slots.length) this.slots = rehashed(this.hashes, e + 1, this.slots.length * 2);
    return offset;
  }

  /** Sets the value of the word added last. */
  setLast(value: number): void {
    this.values[this.count - 1] = value;
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
}

export class PageWords {
  /** Words met: value = index in `terms`, -1 when it is no term. */
  private known = new WordTable(FIRST_SLOTS);
  private terms: string[] = [];
  private termIndex = new Map<string, number>();
  /** Per entry of `terms`: its id on the page, valid when its `stamps` entry is this page's. */
  private pageIds: Int32Array = new Int32Array(1 << 12);
  private stamps: Int32Array = new Int32Array(1 << 12);
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
      this.stamps.fill(0);
    }
    // Page numbers start at 1: a stamp of 0 is no page's.
    if (this.pageNumber === 0x7fffffff) {
      this.pageNumber = 0;
      this.stamps.fill(0);
    }
    this.pageNumber++;
    return this.vocab;
  }

  /**
   * The id of the word bytes[start, end), compared and hashed in ASCII lower case (`hash` made
   * with hashStep from HASH_START); -1 when it is no term.
   */
  idOf(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const t = this.termOf(bytes, start, end, hash);
    let id = -1;
    if (t >= 0) {
      if (this.stamps[t] === this.pageNumber) id = this.pageIds[t]!;
      else {
        id = this.vocab.length;
        this.vocab.push(this.terms[t]!);
        this.stamps[t] = this.pageNumber;
        this.pageIds[t] = id;
      }
    }
    return id;
  }

  /** The id of a word already in lower case (any script); -1 when it is no term. */
  idOfWord(word: string): number {
    if (this.wordBytes.length < word.length * 3) this.wordBytes = new Uint8Array(word.length * 3);
    const n = encoder.encodeInto(word, this.wordBytes).written;
    let h = HASH_START;
    for (let i = 0; i < n; i++) h = hashStep(h, lowerAscii(this.wordBytes[i]!));
    return this.idOf(this.wordBytes, 0, n, h);
  }

  /** The index in `terms` of the term the word counts as (worked out once per word met); -1 when none. */
  private termOf(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const held = this.known.find(bytes, start, end, hash);
    if (held !== undefined) return held;
    const offset = this.known.add(bytes, start, end, hash, -1);
    const term = this.termFor(this.known.pool.toString('utf8', offset, offset + end - start));
    if (term === undefined) return -1;
    let t = this.termIndex.get(term);
    if (t === undefined) {
      t = this.terms.length;
      this.terms.push(term);
      this.termIndex.set(term, t);
      if (t === this.stamps.length) {
        this.stamps = grown(this.stamps);
        this.pageIds = grown(this.pageIds);
      }
    }
    // The entry just added: its value was not known when it was placed.
    this.known.setLast(t);
    return t;
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
