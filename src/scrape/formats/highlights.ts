/** The `highlights` format: the passages most relevant to `query`, verbatim (BM25 offline). */
import { z } from 'zod';
import { rankPassages } from '../../llm/offline/passages.js';
import { highlightPassages } from '../../llm/tasks.js';
import { withModel } from './model-fallback.js';
import { defineFormat, needs } from './types.js';

const schema = z.object({ type: z.literal('highlights'), query: z.string().trim().min(1).max(10_000) });

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
        r.doc.highlights = list.join('\n\n');
        return;
      }
    }
    const passages = rankPassages(r.page.text(), entry.query);
    r.doc.highlights = passages.map((p) => p.text).join('\n\n');
    r.warn(`highlights: ranked by word overlap with the query (BM25), as no model answered${passages.length ? '' : '; no passage matches'}.`);
  },
});
