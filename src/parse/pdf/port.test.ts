import { describe, expect, it } from 'vitest';
import { copyMessage, InProcessPort } from './port.js';

class Glyph {
  constructor(
    readonly unicode: string,
    readonly width: number,
  ) {}
  get wide() {
    return this.width > 500;
  }
}

describe('copyMessage', () => {
  it('copies as structuredClone does: a later change to the sent arrays leaves the copy alone', () => {
    const fnArray = [1, 2, 3];
    const argsArray = [[new Glyph('a', 556)], null, [{ x: 1, path: new Float32Array([1, 2]) }]];
    const message = { chunk: { fnArray, argsArray, lastChunk: false }, styles: Object.create(null) as object };
    const copy = copyMessage(message) as typeof message;
    fnArray.length = 0;
    argsArray.length = 0;
    expect(copy).toEqual(structuredClone({ chunk: { fnArray: [1, 2, 3], argsArray: [[new Glyph('a', 556)], null, [{ x: 1, path: new Float32Array([1, 2]) }]], lastChunk: false }, styles: {} }));
    // Class instances arrive as plain objects with their own fields, as structuredClone gives them.
    const glyph = (copy.chunk.argsArray[0] as unknown[])[0] as object;
    expect(Object.getPrototypeOf(glyph)).toBe(Object.prototype);
    expect(glyph).toEqual({ unicode: 'a', width: 556 });
    expect(Object.getPrototypeOf(copy.styles)).toBe(Object.prototype);
  });

  it('keeps an instance sent many times in one message shared in the copy, as structuredClone does', () => {
    const a = new Glyph('a', 556);
    const b = new Glyph('b', 556);
    const message = { argsArray: [[[a, b, a]], [[a]]] };
    const copy = copyMessage(message) as { argsArray: Glyph[][][] };
    const [[first], [second]] = copy.argsArray as [[Glyph[]], [Glyph[]]];
    expect(first[0]).toBe(first[2]);
    expect(second[0]).toBe(first[0]);
    expect(first[0]).not.toBe(a);
    expect(first[1]).toEqual({ unicode: 'b', width: 556 });
    expect(copy).toEqual(structuredClone(message));
  });

  it("hands a text chunk's items over and copies only the chunk that pdf.js goes on to reuse", () => {
    const items = [{ str: 'a', transform: [1, 0, 0, 1, 0, 0] }];
    const styles = Object.create(null) as Record<string, unknown>;
    const chunk = { items, styles };
    const copy = copyMessage({ sourceName: 's', targetName: 't', stream: 4, streamId: 1, chunk }) as { streamId: number; chunk: typeof chunk };
    // What pdf.js does right after sending a chunk: new arrays for the next one.
    chunk.items = [];
    chunk.styles = Object.create(null) as Record<string, unknown>;
    expect(copy.streamId).toBe(1);
    expect(copy.chunk.items).toBe(items);
    expect(copy.chunk.styles).toBe(styles);
  });

  it('passes transferred buffers as they are and copies the rest', () => {
    const moved = new Uint8Array([1, 2, 3]);
    const kept = new Uint8Array([4, 5]);
    const copy = copyMessage({ moved, kept }, [moved.buffer]) as { moved: Uint8Array; kept: Uint8Array };
    expect(copy.moved).toBe(moved);
    expect(copy.kept).not.toBe(kept);
    expect([...copy.kept]).toEqual([4, 5]);
  });

  it('leaves errors, maps and cycles to structuredClone, and refuses functions as it does', () => {
    const copy = copyMessage({ reason: new TypeError('bad'), seen: new Map([['a', 1]]) }) as { reason: Error; seen: Map<string, number> };
    expect(copy.reason).toBeInstanceOf(TypeError);
    expect(copy.reason.message).toBe('bad');
    expect(copy.seen.get('a')).toBe(1);
    const cyclic: { self?: unknown; n: number } = { n: 1 };
    cyclic.self = cyclic;
    const back = copyMessage(cyclic) as typeof cyclic;
    expect(back.self).toBe(back);
    expect(() => copyMessage({ f: () => 1 })).toThrow();
  });
});

describe('InProcessPort', () => {
  it('delivers later, in order, to every listener until its signal aborts', async () => {
    const port = new InProcessPort();
    const got: unknown[] = [];
    const ac = new AbortController();
    port.addEventListener('message', (e) => got.push(e.data), { signal: ac.signal });
    port.postMessage({ n: 1 });
    port.postMessage({ n: 2 });
    expect(got).toEqual([]);
    await Promise.resolve();
    await Promise.resolve();
    expect(got).toEqual([{ n: 1 }, { n: 2 }]);
    ac.abort();
    port.postMessage({ n: 3 });
    await new Promise((r) => setTimeout(r, 0));
    expect(got).toHaveLength(2);
  });
});
