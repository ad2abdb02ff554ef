/** The `highlights` format: the passages most relevant to `query`, verbatim (BM25 offline). */
import { z } from 'zod';
import { rankPassages } from '../../llm/offline/passages.js';
import { joinSentences } from '../../llm/offline/text.js';
import { highlightPassages } from '../../llm/tasks.js';
import { withModel } from './model-fallback.js';
import { defineFormat, needs } from './types.js';

const schema = z.object({ type: z.literal('highlights'), query: z.string().trim().min(1).max(10_000) });

/**
 * Text as a quote of it is checked against the page: without markup and case, with blanks and
 * quotation marks made alike, so that a model's re-spacing or curly quotes still match.
 */
const comparable = (t: string) =>
  t
    .replace(/[*_`#>|[\]]/g, '')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

export const highlightsFormat = defineFormat<z.output<typeof schema>>({
  type: 'highlights',
  schema,
  needs: needs({ markdown: true, model: 'optional' }),
  cost: () => 0,
  output: 'highlights',
  description: 'The passages of the page most relevant to `query`, verbatim, separated by blank lines.',
  stage: 'page',
  async run(entry, r) {
    if (r.model) {
      const list = await withModel(r, 'highlights', () => highlightPassages(r.model!, r.page.markdown, entry.query));
      if (list !== undefined) {
        // Highlights are quotes: a passage the model wrote itself is not one. The page's plain
        // text holds quotes across links and sentences; its markdown, those from code blocks.
        const texts = [joinSentences(r.page.text().sentences.map((x) => x.text)), r.page.markdown].map(comparable);
        const quoted = list.filter((h) => texts.some((t) => t.includes(comparable(h))));
        r.doc.highlights = quoted.join('\n\n');
        const left = list.length - quoted.length;
        if (left) r.warn(`highlights: ${left} passage${left === 1 ? '' : 's'} the model gave ${left === 1 ? 'is' : 'are'} not on the page and ${left === 1 ? 'was' : 'were'} left out.`);
        return;
      }
    }
    const passages = rankPassages(r.page.text(), entry.query);
    r.doc.highlights = passages.map((p) => p.text).join('\n\n');
    r.warn(`highlights: ranked by word overlap with the query (BM25), as no model answered${passages.length ? '' : '; no passage matches'}.`);
  },
});
