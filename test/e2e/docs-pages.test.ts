/**
 * A manual's page through the official SDK with the default onlyMainContent: its sections, its
 * numbered titles and its lists of links are the page's content, whatever their titles say.
 */
import { describe, expect, it } from 'vitest';
import { useE2eServer } from '../helpers/e2e-server.js';

const ctx = useE2eServer();

describe('scraping a documentation page', () => {
  it("keeps the page's title, its numbered sections and its links, and drops the manual's pager", async () => {
    const { site, fc } = ctx;
    const doc = await fc.scrape(`${site.url}/manual/lexical`, { formats: ['markdown'], maxAge: 0 });
    const md = doc.markdown ?? '';
    for (const kept of [
      '## 3.1. Lexical structure',
      `**Source file:** [src/lexer.c](${site.url}/src/lexer.c)`,
      '### 3.1.2. Comments',
      'COMMENTS-SECTION-STAYS',
      'SELECT 1; -- a comment',
      `[Keywords and reserved words](${site.url}/manual/keywords)`,
      '### 3.1.3. See Also',
      `[Function calls](${site.url}/manual/calls)`,
    ]) expect(md).toContain(kept);
    expect(md).not.toContain('Prev');
  });
});
