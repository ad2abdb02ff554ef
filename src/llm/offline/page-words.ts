/**
 * A page's words, numbered as the offline tier reads them. A sentence's words are read from its
 * UTF-8 bytes and looked up by a hash of their lower-cased bytes in a table of the page's own
 * words: a word met before on the page costs no string, no lower-casing and no map lookup. The
 * table is small and reused page after page, so that it stays in the processor's caches.
 *
 * Bytes rather than the string's characters: charCodeAt on the slices a page's sentences are
 * made of cost about ten nanoseconds a character, most of a word's lookup.
 * A table of every word ever met, in front of the page's, was tried: its lookups, spread over
 * megabytes, cost as much as they saved.
 */

/** ASCII lower case of a byte (the only case folding the word scan needs). */
export const lowerAscii = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/** FNV-1a, one step: the hash of a word is folded over its lower-cased bytes. */
export const HASH_START = 0x811c9dc5 | 0;
export const hashStep = (h: number, c: number): number => Math.imul(h ^ c, 0x01000193);

const FIRST_SLOTS = 1 << 11;
const encoder = new TextEncoder();

export class PageWords {
  /** Open addressing: entry number + 1 per slot, 0 when free. */
  private slots: Int32Array = new Int32Array(FIRST_SLOTS);
  private count = 0;
  /** Per entry: the word's hash, its lower-cased bytes (in `pool`) and its id (-1: no term). */
  private hashes: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private offsets: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private lengths: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private ids: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private pool: Buffer = Buffer.alloc(1 << 14);
  private used = 0;
  private vocab = new Map<string, number>();
  /** Bytes of the word being looked up by idOfWord. */
  private wordBytes = new Uint8Array(256);

  /** termFor: the term a lower-cased word counts as, undefined when it is none. */
  constructor(private readonly termFor: (lowerWord: string) => string | undefined) {}

  /** Starts a page: its vocabulary (term -> id, ids from 0 in order of first use) fills as words are met. */
  begin(): Map<string, number> {
    this.vocab = new Map();
    this.count = 0;
    this.used = 0;
    // A long page's table is not kept for the next one: a large table costs its clearing.
    if (this.slots.length > FIRST_SLOTS * 4) this.slots = new Int32Array(FIRST_SLOTS);
    else this.slots.fill(0);
    return this.vocab;
  }

  /**
   * The id of the word bytes[start, end), compared and hashed in ASCII lower case (`hash` made
   * with hashStep from HASH_START); -1 when it is no term.
   */
  idOf(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    let slot = hash & mask;
    for (let e = this.slots[slot]!; e !== 0; e = this.slots[slot]!) {
      const x = e - 1;
      if (this.hashes[x] === hash && this.lengths[x] === length && this.same(this.offsets[x]!, bytes, start, length)) return this.ids[x]!;
      slot = (slot + 1) & mask;
    }
    const offset = this.keep(bytes, start, length);
    const term = this.termFor(this.pool.toString('utf8', offset, offset + length));
    let id = -1;
    if (term !== undefined) {
      id = this.vocab.get(term) ?? this.vocab.size;
      if (id === this.vocab.size) this.vocab.set(term, id);
    }
    this.add(hash, offset, length, id, slot);
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

  private add(hash: number, offset: number, length: number, id: number, slot: number): void {
    const e = this.count++;
    if (e === this.hashes.length) {
      this.hashes = grown(this.hashes);
      this.offsets = grown(this.offsets);
      this.lengths = grown(this.lengths);
      this.ids = grown(this.ids);
    }
    this.hashes[e] = hash;
    this.offsets[e] = offset;
    this.lengths[e] = length;
    this.ids[e] = id;
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
