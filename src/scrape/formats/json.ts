/**
 * The `json` format. With a model: extraction over the page (split and merged when long),
 * checked against the caller's schema, repaired once, flagged when still invalid. Without one:
 * the schema's fields filled from the page's structured data and labelled values; a prompt
 * alone needs a model. `checkPromptInjection` screens the page first (heuristics, then the model).
 */
import { z } from 'zod';
import { COSTS } from '../../billing/costs.js';
import { ApiError } from '../../errors.js';
import { fillSchema, type JsonSchema } from '../../llm/offline/fill.js';
import { injectionHeuristics } from '../../llm/offline/injection.js';
import { schemaErrors, schemaProblem } from '../../llm/schema.js';
import { extractJson, judgeInjection } from '../../llm/tasks.js';
import { withModel } from './model-fallback.js';
import { defineFormat, modelMissing, needs, type FormatRun } from './types.js';

export const jsonSchemaField = z
  .record(z.string(), z.unknown())
  .superRefine((s, ctx) => {
    const problem = schemaProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: `schema ${problem}` });
  });

export const jsonFormatSchema = z
  .object({
    type: z.literal('json'),
    schema: jsonSchemaField.optional(),
    prompt: z.string().min(1).max(10_000).optional(),
    checkPromptInjection: z.boolean().default(false),
  })
  .refine((f) => f.schema !== undefined || f.prompt !== undefined, { message: 'The json format needs a schema or a prompt' });

type JsonEntry = z.output<typeof jsonFormatSchema>;

async function screen(r: FormatRun): Promise<void> {
  const hits = injectionHeuristics(r.page.markdown);
  let verdict: { injection: boolean; reason: string } | undefined;
  if (r.model) verdict = await withModel(r, 'checkPromptInjection', () => judgeInjection(r.model!, r.page.markdown));
  const detected = verdict ? verdict.injection : hits.length > 0;
  if (!detected) {
    if (!verdict && r.model) r.warn('checkPromptInjection: only the pattern check ran.');
    return;
  }
  throw new ApiError('SCRAPE_PROMPT_INJECTION_DETECTED', {
    message: 'The page contains text that tries to instruct the model (prompt injection); extraction was refused',
    details: { url: r.page.url, reason: verdict?.reason || undefined, matches: hits.map((h) => h.excerpt).slice(0, 3) },
  });
}

function offline(entry: JsonEntry, r: FormatRun): void {
  const schema = entry.schema as JsonSchema;
  const { value, missing } = fillSchema(schema, r.page.data());
  r.doc.json = value;
  const notes = ['json: filled from the page\'s structured data (JSON-LD, microdata, RDFa, meta tags, labelled tables) without a model'];
  if (missing.length) notes.push(`not found on the page: ${missing.join(', ')}`);
  const errors = schemaErrors(schema, value);
  if (errors.length) notes.push(`the result does not satisfy the schema: ${errors.slice(0, 5).join('; ')}`);
  r.warn(notes.join('; ') + '.');
}

export const jsonFormat = defineFormat<JsonEntry>({
  type: 'json',
  schema: jsonFormatSchema,
  needs: needs({ html: true, markdown: true, model: 'optional' }),
  cost: (e) => COSTS.jsonFormat + (e.checkPromptInjection ? COSTS.promptInjectionCheck : 0),
  output: 'json',
  description: 'Structured data matching a JSON Schema (and/or a prompt). Without a model: from the page\'s structured data; a prompt alone needs a model.',
  stage: 'page',
  refuse(entry, caps, path) {
    if (!caps.model && entry.schema === undefined) return modelMissing(`${path}.prompt`, 'The json format with only a prompt');
    return undefined;
  },
  async run(entry, r) {
    if (entry.checkPromptInjection) await screen(r);
    if (r.model) {
      const out = await withModel(r, 'json', () => extractJson(r.model!, r.page.markdown, entry.schema as JsonSchema | undefined, entry.prompt));
      if (out) {
        r.doc.json = out.value;
        if (!out.valid) r.warn(`json: the model's answer does not satisfy the schema even after a repair round: ${out.errors.slice(0, 5).join('; ')}.`);
        if (out.parts > 1) r.warn(`json: the page was read in ${out.parts} parts and their answers merged.`);
        return;
      }
      if (!entry.schema) return;
    }
    offline(entry, r);
  },
});
