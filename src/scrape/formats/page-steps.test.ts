import { describe, expect, it } from 'vitest';
import type { Document, PdfBlockItem } from '../../core/document.js';
import { redactDocument } from './page-steps.js';

const fast = { mode: 'fast' as const, entities: ['EMAIL' as const], replaceStyle: 'tag' as const, region: 'US' as const };

const block = (content: string, span: [number, number]): PdfBlockItem => ({
  id: 'b',
  type: 'text',
  label: null,
  bbox: null,
  content,
  markdownSpan: span,
  readingOrder: 0,
  source: 'text',
  confidence: { layout: null, ocr: null },
});

function parsedPdf(markdown: string, items: PdfBlockItem[]): Document {
  return {
    markdown,
    pages: [{ pageNumber: 1, markdown }],
    blocks: [{ pageNumber: 1, width: 612, height: 792, status: 'ok', items }],
    metadata: {
      sourceURL: 'https://example.com/a.pdf?contact=ann@example.com',
      url: 'https://example.com/a.pdf',
      statusCode: 200,
      contentType: 'application/pdf',
      scrapeId: 's',
      proxyUsed: 'basic',
      creditsUsed: 1,
      title: 'Minutes by ann@example.com',
      keywords: ['board', 'ann@example.com'],
    },
  };
}

describe('redactDocument', () => {
  it("replaces PII in a parsed document's pages, blocks and the metadata the file gave", async () => {
    const doc = parsedPdf('Ask ann@example.com.', [block('Ask ann@example.com.', [0, 20])]);
    await redactDocument(doc, fast, undefined, () => undefined);
    expect(doc.markdown).toBe('Ask <EMAIL>.');
    expect(doc.pages![0]!.markdown).toBe('Ask <EMAIL>.');
    expect(doc.blocks![0]!.items[0]!.content).toBe('Ask <EMAIL>.');
    expect(doc.metadata.title).toBe('Minutes by <EMAIL>');
    expect(doc.metadata.keywords).toEqual(['board', '<EMAIL>']);
    // The address asked for is the caller's own, not page text.
    expect(doc.metadata.sourceURL).toContain('ann@example.com');
  });

  it('drops spans into markdown that redaction changed, and keeps them where nothing changed', async () => {
    const changed = parsedPdf('Intro.\n\nAsk ann@example.com.', [block('Intro.', [0, 6])]);
    await redactDocument(changed, fast, undefined, () => undefined);
    expect(changed.blocks![0]!.items[0]!.markdownSpan).toBeNull();
    const clean = parsedPdf('Intro.', [block('Intro.', [0, 6])]);
    await redactDocument(clean, fast, undefined, () => undefined);
    expect(clean.blocks![0]!.items[0]!.markdownSpan).toEqual([0, 6]);
  });
});
