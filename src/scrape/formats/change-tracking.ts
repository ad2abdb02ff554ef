/**
 * The `changeTracking` format: this scrape against the team's last one of the same URL and tag.
 * The comparison lives with the monitors' snapshots (monitor/change-tracking.ts) and reaches the
 * pipeline as a ChangeTracker; this module declares the format and calls it.
 */
import { z } from 'zod';
import { schemaProblem } from '../../llm/schema.js';
import { defineFormat, modelMissing, needs, type ChangeTrackingEntry } from './types.js';

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

export const changeTrackingFormat = defineFormat<ChangeTrackingEntry>({
  type: 'changeTracking',
  schema: changeTrackingSchema,
  needs: needs({ markdown: true }),
  cost: () => 0,
  output: 'changeTracking',
  description: "Compares the page with this team's last scrape of it under the same tag (git-diff; json needs a model).",
  stage: 'post',
  refuse(entry, caps, path) {
    if (!entry.modes.includes('json')) return undefined;
    if (!caps.model) return modelMissing(`${path}.modes`, "The changeTracking 'json' mode");
    return { path: `${path}.modes`, error: 'UNSUPPORTED_OPTION', message: "The changeTracking 'json' mode is not supported yet by this server" };
  },
  async run(entry, r) {
    if (r.changeTracker) r.doc.changeTracking = await r.changeTracker.track(r.teamId, r.doc, entry);
  },
});
