/**
 * `removeBase64Images` (on by default) keeps an inlined image where it was, with its alt text,
 * and puts a placeholder where the bytes were; `false` keeps the bytes.
 */
import { describe, expect, it } from 'vitest';
import { useE2eServer } from '../helpers/e2e-server.js';

const e2e = useE2eServer();

describe('removeBase64Images', () => {
  it('keeps the alt text and replaces the data URI with a placeholder by default', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/base64-images`, { maxAge: 0 });
    expect(doc.markdown).toContain('![inline red dot](<Base64-Image-Removed>)');
    expect(doc.markdown).not.toContain('data:image');
    // In its place in the text.
    expect(doc.markdown!.indexOf('A dot follows.')).toBeLessThan(doc.markdown!.indexOf('Base64-Image-Removed'));
    expect(doc.markdown!.indexOf('Base64-Image-Removed')).toBeLessThan(doc.markdown!.indexOf('After the dot.'));
  });

  it('keeps the bytes when false', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/base64-images`, { removeBase64Images: false, maxAge: 0 });
    expect(doc.markdown).toMatch(/!\[inline red dot\]\(<?data:image\/png;base64,/);
  });
});
