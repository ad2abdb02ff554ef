/** The `question` format: a model's answer, else the passage that best supports one, quoted. */
import { z } from 'zod';
import { rankPassages } from '../../llm/offline/passages.js';
import { answerQuestion } from '../../llm/tasks.js';
import { withModel } from './model-fallback.js';
import { defineFormat, needs } from './types.js';

const schema = z.object({ type: z.literal('question'), question: z.string().trim().min(1).max(10_000) });

export const questionFormat = defineFormat<z.output<typeof schema>>({
  type: 'question',
  schema,
  needs: needs({ markdown: true, model: 'optional' }),
  cost: () => 0,
  output: 'answer',
  description: 'An answer to `question` from the page. Without a model: the best supporting passage, quoted.',
  stage: 'page',
  async run(entry, r) {
    if (r.model) {
      const a = await withModel(r, 'question', () => answerQuestion(r.model!, r.page.markdown, entry.question));
      if (a !== undefined) {
        r.doc.answer = a;
        return;
      }
    }
    const best = rankPassages(r.page.text(), entry.question, { window: 3, top: 1 })[0];
    r.doc.answer = best?.text ?? '';
    r.warn(
      best
        ? 'answer: an extract of the page (the passage that best matches the question), not a composed answer, as no model answered.'
        : 'answer: no passage of the page matches the question, and no model answered.',
    );
  },
});
