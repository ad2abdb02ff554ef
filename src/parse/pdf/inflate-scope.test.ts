import { describe, expect, it } from 'vitest';
import { asPdfWorker } from './inflate-scope.js';

describe("pdf.js's view of DecompressionStream", () => {
  it('is the platform class everywhere but in the worker half', async () => {
    const platform = globalThis.DecompressionStream;
    expect(typeof platform).toBe('function');
    const seen = await asPdfWorker(async () => {
      const now = globalThis.DecompressionStream;
      // What the worker half goes on to schedule runs without it too.
      const later = await new Promise((resolve) => setTimeout(() => resolve(globalThis.DecompressionStream), 1));
      return { now, later };
    });
    expect(seen).toEqual({ now: undefined, later: undefined });
    expect(globalThis.DecompressionStream).toBe(platform);
    // The platform's class still inflates, outside.
    const bytes = new Uint8Array(await new Response(new Blob([new Uint8Array([120, 156, 75, 4, 0, 0, 98, 0, 98])]).stream().pipeThrough(new DecompressionStream('deflate'))).arrayBuffer());
    expect(new TextDecoder().decode(bytes)).toBe('a');
  });
});
