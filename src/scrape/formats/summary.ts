/** The `summary` format: a model's summary (hierarchical on long pages), else an extractive one. */
import { z } from 'zod';
import { extractiveSummary } from '../../llm/offline/summary.js';
import { summarise } from '../../llm/tasks.js';
import { withModel } from './model-fallback.js';
import { defineFormat, needs } from './types.js';

export const summaryFormat = defineFormat({
  type: 'summary',
  schema: z.object({ type: z.literal('summary') }),
  needs: needs({ markdown: true, model: 'optional' }),
  cost: () => 0,
  output: 'summary',
  description: "A short summary of the page. Without a model: the page's most central sentences, verbatim.",
  stage: 'page',
  async run(_entry, r) {
    if (r.model) {
      const s = await withModel(r, 'summary', () => summarise(r.model!, r.page.markdown));
      if (s !== undefined) {
        r.doc.summary = s;
        return;
      }
    }
    r.doc.summary = extractiveSummary(r.page.text());
    r.warn('summary: extractive (the page\'s own most central sentences), as no model answered.');
  },
});
