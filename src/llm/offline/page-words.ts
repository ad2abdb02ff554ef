/**
 * A page's words, numbered as the offline tier reads them. Each word is looked up by a hash of
 * its characters, read straight from the sentence, in a table of the page's own words: a word
 * met before on the page costs no string, no lower-casing and no map lookup. The table is small
 * and reused page after page, so that it stays in the processor's caches; a table of every word
 * ever met was tried, and its lookups, spread over megabytes, cost more than they saved.
 */

/** ASCII lower case of a character code (the only case folding the word scan needs). */
export const lowerAscii = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/** FNV-1a, one step: the hash of a word is folded over its lower-cased character codes. */
export const HASH_START = 0x811c9dc5 | 0;
export const hashStep = (h: number, c: number): number => Math.imul(h ^ c, 0x01000193);

const FIRST_SLOTS = 1 << 11;

export class PageWords {
  /** Open addressing: entry number + 1 per slot, 0 when free. */
  private slots: Int32Array = new Int32Array(FIRST_SLOTS);
  /** Per entry: the word's hash, where it was first met, and its id (-1: no term). */
  private hashes: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private texts: string[] = [];
  private starts: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private lengths: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private ids: Int32Array = new Int32Array(FIRST_SLOTS / 2);
  private vocab = new Map<string, number>();

  /** termFor: the term a lower-cased word counts as, undefined when it is none. */
  constructor(private readonly termFor: (lowerWord: string) => string | undefined) {}

  /** Starts a page: its vocabulary (term -> id, ids from 0 in order of first use) fills as words are met. */
  begin(): Map<string, number> {
    this.vocab = new Map();
    this.texts.length = 0;
    // A long page's table is not kept for the next one: a large table costs its clearing.
    if (this.slots.length > FIRST_SLOTS * 4) this.slots = new Int32Array(FIRST_SLOTS);
    else this.slots.fill(0);
    return this.vocab;
  }

  /** Ends a page: its sentences are no longer held. */
  end(): void {
    this.texts.length = 0;
  }

  /**
   * The id of the word text[start, end), compared and hashed in ASCII lower case (`hash` made
   * with hashStep from HASH_START); -1 when it is no term.
   */
  idOf(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    let slot = hash & mask;
    for (let e = this.slots[slot]!; e !== 0; e = this.slots[slot]!) {
      const x = e - 1;
      if (this.hashes[x] === hash && this.lengths[x] === length && sameWord(this.texts[x]!, this.starts[x]!, text, start, length)) return this.ids[x]!;
      slot = (slot + 1) & mask;
    }
    const term = this.termFor(text.slice(start, end).toLowerCase());
    let id = -1;
    if (term !== undefined) {
      id = this.vocab.get(term) ?? this.vocab.size;
      if (id === this.vocab.size) this.vocab.set(term, id);
    }
    this.add(text, start, length, hash, id, slot);
    return id;
  }

  /** The id of a word already in lower case (any script); -1 when it is no term. */
  idOfWord(word: string): number {
    let h = HASH_START;
    for (let i = 0; i < word.length; i++) h = hashStep(h, lowerAscii(word.charCodeAt(i)));
    return this.idOf(word, 0, word.length, h);
  }

  private add(text: string, start: number, length: number, hash: number, id: number, slot: number): void {
    const e = this.texts.length;
    if (e === this.hashes.length) {
      this.hashes = grown(this.hashes);
      this.starts = grown(this.starts);
      this.lengths = grown(this.lengths);
      this.ids = grown(this.ids);
    }
    this.texts.push(text);
    this.hashes[e] = hash;
    this.starts[e] = start;
    this.lengths[e] = length;
    this.ids[e] = id;
    this.slots[slot] = e + 1;
    // At most half full, so that probes stay short.
    if (2 * (e + 1) > this.slots.length) this.slots = rehashed(this.hashes, e + 1, this.slots.length * 2);
  }
}

/** Whether two stretches of text of the same length hold the same word, in ASCII lower case. */
function sameWord(a: string, from: number, b: string, start: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (lowerAscii(a.charCodeAt(from + i)) !== lowerAscii(b.charCodeAt(start + i))) return false;
  return true;
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
