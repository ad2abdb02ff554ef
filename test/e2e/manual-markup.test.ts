/**
 * A reference manual's page through the SDK, with main-content selection on and off: the function
 * table keeps each cell's signature and description, the two-column table its second column, and
 * code nested in code or around a link comes back as markdown a CommonMark reader shows as the
 * page does.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { useE2eServer } from '../helpers/e2e-server.js';

const e2e = useE2eServer();
const gfm = new MarkdownIt({ html: true });

describe.each([true, false])('a manual page with onlyMainContent %s', (onlyMainContent) => {
  it('keeps every block of every table cell', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/manual/text-functions`, { onlyMainContent, maxAge: 0 });
    const md = doc.markdown!;
    expect(md).toContain('| Function<br>Description |');
    expect(md).toContain('| `concat_ws` ( `sep` `text`, `val` `text` ) → `text`<br>SIGNATURE-KEPT: joins the values with the separator between them. |');
    expect(md).toContain('| `text` `\\|\\|` `text` → `text`<br>Joins two strings. |');
    expect(md).toContain('| `strict` | Letters must match in case.<br>SECOND-COLUMN-KEPT: accents count too. |');
    const html = gfm.render(md);
    expect(html).toContain('<th>Function<br>Description</th>');
    expect(html).toContain('<td>Letters must match in case.<br>SECOND-COLUMN-KEPT: accents count too.</td>');
  });

  it('writes nested inline code as markdown that reads back as the page shows it', async () => {
    const doc = await e2e.fc.scrape(`${e2e.site.url}/manual/text-functions`, { onlyMainContent, maxAge: 0 });
    const md = doc.markdown!;
    expect(md).toContain(
      'Send reports to `<`[`bugs@manual.example`](mailto:bugs@manual.example)`>`. A table of `10^n` rows takes `O(n)` time; press `Ctrl+C` to stop a long one.',
    );
    const html = gfm.render(md);
    expect(html).toContain('<code>&lt;</code><a href="mailto:bugs@manual.example"><code>bugs@manual.example</code></a><code>&gt;</code>');
    expect(html).toContain('<code>10^n</code> rows takes <code>O(n)</code> time; press <code>Ctrl+C</code> to stop');
    // No backtick is left over as text.
    expect(html.replace(/<code>[^<]*<\/code>/g, '')).not.toContain('`');
  });
});
