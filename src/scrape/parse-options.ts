/** The ParseOptions of `POST /v2/parse`: the scrape options that mean something for a file. */
import { z } from 'zod';
import { crossFieldChecks, scrapeOptionsShape } from './options.js';
import { parsersSchema } from '../parse/parsers.js';

const { formats, includeTags, excludeTags, onlyMainContent, timeout, removeBase64Images, zeroDataRetention, integration, origin } =
  scrapeOptionsShape;

/**
 * Options that only make sense for a fetched page (waitFor, location, cache controls...) are
 * accepted and ignored, as unknown keys are everywhere.
 */
export const parseOptionsSchema = z
  .looseObject({
    formats,
    includeTags,
    excludeTags,
    onlyMainContent,
    timeout,
    waitFor: z.number().int().min(0).default(0),
    removeBase64Images,
    zeroDataRetention,
    integration,
    origin,
    parsers: parsersSchema.optional(),
  })
  .superRefine(crossFieldChecks);

export type ParseOptions = z.output<typeof parseOptionsSchema>;
