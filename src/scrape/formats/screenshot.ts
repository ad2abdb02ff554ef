/** The `screenshot` format: taken by the browser engine during the fetch. */
import { z } from 'zod';
import { defineFormat, needs } from './types.js';

const viewport = z.object({
  width: z.number().int().min(1).max(7680),
  height: z.number().int().min(1).max(4320),
});

export const screenshotSchema = z.object({
  type: z.literal('screenshot'),
  fullPage: z.boolean().default(false),
  quality: z.number().int().min(1).max(100).optional(),
  viewport: viewport.optional(),
});

export const screenshotFormat = defineFormat({
  type: 'screenshot',
  schema: screenshotSchema,
  needs: needs({ browser: true }),
  cost: () => 0,
  output: 'screenshot',
  description: 'A screenshot of the rendered page (URL of a stored PNG/JPEG).',
  stage: 'transform',
});
