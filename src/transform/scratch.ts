/**
 * Number tables for the per-page passes (the scoring's per-block sums and marks), from buffers
 * kept from page to page. A typed array of more than a few numbers has its memory allocated
 * outside V8's heap, and freed by the collector later: for the thousand-odd blocks of a page, a
 * dozen times a page, that cost more than filling a kept buffer with zeros.
 *
 * Each table has a scratch of its own, and a scratch hands out one table at a time: the next
 * take overwrites it. A table must not outlive the call that took it.
 */

/** Past this many numbers a table is allocated for the call and not kept (a page's rare outlier). */
const KEPT_MAX = 1 << 16;

abstract class Scratch<T extends Float64Array | Int32Array | Uint8Array> {
  private buffer: T | undefined;

  protected abstract make(n: number): T;

  /** A table of `n` zeros. */
  take(n: number): T {
    if (n > KEPT_MAX) return this.make(n);
    let b = this.buffer;
    if (b === undefined || b.length < n) {
      b = this.make(Math.min(KEPT_MAX, Math.max(n, 2 * (b?.length ?? 0), 1024)));
      this.buffer = b;
    }
    const t = b.subarray(0, n) as T;
    t.fill(0);
    return t;
  }
}

export class Float64Scratch extends Scratch<Float64Array> {
  protected make(n: number): Float64Array {
    return new Float64Array(n);
  }
}

export class Int32Scratch extends Scratch<Int32Array> {
  protected make(n: number): Int32Array {
    return new Int32Array(n);
  }
}

export class Uint8Scratch extends Scratch<Uint8Array> {
  protected make(n: number): Uint8Array {
    return new Uint8Array(n);
  }
}
