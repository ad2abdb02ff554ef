/**
 * The `changeTracking` format: this scrape against the team's last one of the same URL and tag.
 * The comparison lives with the monitors' snapshots (monitor/change-tracking.ts) and reaches the
 * pipeline as a ChangeTracker; this module declares the format and calls it. The json mode
 * extracts with the entry's schema and prompt through the model, when the tracker asks for it.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { COSTS } from '../../billing/costs.js';
import type { JsonSchema } from '../../llm/offline/fill.js';
import { schemaProblem } from '../../llm/schema.js';
import { extractJson } from '../../llm/tasks.js';
import { withModel } from './model-fallback.js';
import { defineFormat, modelMissing, needs, type ChangeTrackingEntry, type FormatRun, type TrackedExtraction } from './types.js';

export const changeTrackingSchema = z.object({
  type: z.literal('changeTracking'),
  modes: z.array(z.enum(['git-diff', 'json'])).max(2).default([]),
  schema: z
    .record(z.string(), z.unknown())
    .superRefine((s, ctx) => {
      const problem = schemaProblem(s);
      if (problem) ctx.addIssue({ code: 'custom', message: `schema ${problem}` });
    })
    .optional(),
  prompt: z.string().max(10_000).optional(),
  tag: z.string().max(256).nullable().optional(),
});

export type ChangeTrackingFormat = z.output<typeof changeTrackingSchema>;

/** What the json mode extracts when the entry names neither a schema nor a prompt. */
export const DEFAULT_TRACKING_PROMPT =
  'the facts the page states that a reader would want to know when they change (names, prices, dates, figures, statuses), as a flat object with short, stable field names';

/** What a json extraction was made with; only extractions with the same key are compared (here and in monitors). */
export const extractionKey = (e: { schema?: unknown; prompt?: unknown }) => createHash('sha256').update(JSON.stringify({ schema: e.schema ?? null, prompt: e.prompt ?? null })).digest('hex');

const promptOf = (e: ChangeTrackingEntry) => (e.prompt?.trim() ? e.prompt : e.schema ? undefined : DEFAULT_TRACKING_PROMPT);

function extraction(entry: ChangeTrackingEntry, r: FormatRun): TrackedExtraction | undefined {
  const model = r.model;
  if (!entry.modes.includes('json') || !model) return undefined;
  return {
    key: extractionKey(entry),
    warn: r.warn,
    extract: async () => {
      const out = await withModel(r, 'changeTracking json', () => extractJson(model, r.page.markdown, entry.schema as JsonSchema | undefined, promptOf(entry)));
      if (!out) return undefined;
      if (!out.valid) r.warn(`changeTracking json: the model's answer does not satisfy the schema even after a repair round: ${out.errors.slice(0, 5).join('; ')}.`);
      const v = out.value;
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
      r.warn('changeTracking json: the model did not answer with a JSON object; nothing was compared.');
      return undefined;
    },
  };
}

export const changeTrackingFormat = defineFormat<ChangeTrackingEntry>({
  type: 'changeTracking',
  schema: changeTrackingSchema,
  needs: needs({ markdown: true }),
  cost: (e) => (e.modes.includes('json') ? COSTS.jsonFormat : 0),
  output: 'changeTracking',
  description: "Compares the page with this team's last scrape of it under the same tag: a git-style diff, and with a model field-by-field JSON (by schema and/or prompt).",
  stage: 'post',
  refuse(entry, caps, path) {
    if (entry.modes.includes('json') && !caps.model) return modelMissing(`${path}.modes`, "The changeTracking 'json' mode");
    return undefined;
  },
  async run(entry, r) {
    if (r.changeTracker) r.doc.changeTracking = await r.changeTracker.track(r.teamId, r.doc, entry, extraction(entry, r));
  },
});
