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

describe('a document read with pdf.js', () => {
  it('reads the same, and leaves DecompressionStream to the rest of the process once closed', async () => {
    const { openPdf, closePdf } = await import('./document.js');
    const { htmlToPdf } = await import('../../../test/helpers/documents.js');
    const doc = await openPdf(new Uint8Array(await htmlToPdf('<h1>Kettles</h1><p>Tea is steeped in water just off the boil.</p>')));
    const text = (await (await doc.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join('');
    await closePdf(doc);
    expect(text).toContain('Tea is steeped in water');
    expect(typeof globalThis.DecompressionStream).toBe('function');
  });
});
