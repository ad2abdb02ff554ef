/**
 * A crawl's `prompt`: a natural-language instruction turned into crawl options by the model
 * (paths, depth, limits). Explicit fields of the request win over generated ones; generated
 * path patterns are checked like a caller's. Without a model the prompt is refused, naming the
 * setting; a model that cannot answer is a 400, as the interface has it.
 */
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { taskMessages } from '../llm/prompts.js';
import { ModelUnavailableError, needsModelMessage, type ModelAccess } from '../llm/types.js';
import type { JsonSchema } from '../llm/offline/fill.js';
import { patternError } from './patterns.js';

export const paramsPreviewSchema = z.looseObject({
  url: z.string().min(1).max(8192),
  prompt: z.string().trim().min(1).max(10_000),
});

/** The options a prompt may set, as the model is asked for them. */
const GENERATED: JsonSchema = {
  type: 'object',
  properties: {
    includePaths: { type: 'array', items: { type: 'string' }, description: 'Regular expressions; only URL paths matching one are crawled' },
    excludePaths: { type: 'array', items: { type: 'string' }, description: 'Regular expressions; URL paths matching one are skipped' },
    maxDiscoveryDepth: { type: 'integer', minimum: 0, maximum: 1000 },
    limit: { type: 'integer', minimum: 1, maximum: 100000 },
    crawlEntireDomain: { type: 'boolean' },
    allowExternalLinks: { type: 'boolean' },
    allowSubdomains: { type: 'boolean' },
    sitemap: { type: 'string', enum: ['include', 'skip', 'only'] },
    ignoreQueryParameters: { type: 'boolean' },
    deduplicateSimilarURLs: { type: 'boolean' },
    delay: { type: 'number', minimum: 0, maximum: 600 },
  },
  additionalProperties: false,
};

export type GeneratedOptions = Partial<{
  includePaths: string[];
  excludePaths: string[];
  maxDiscoveryDepth: number;
  limit: number;
  crawlEntireDomain: boolean;
  allowExternalLinks: boolean;
  allowSubdomains: boolean;
  sitemap: 'include' | 'skip' | 'only';
  ignoreQueryParameters: boolean;
  deduplicateSimilarURLs: boolean;
  delay: number;
}>;

const TASK =
  'Turn the crawl instruction into crawl options for the site at the given URL. Paths are regular expressions matched against URL paths (e.g. "^/blog/.*"). Set only the options the instruction implies.';

export async function optionsFromPrompt(model: ModelAccess | undefined, scope: { teamId: string; keyId?: string; requestId: string; deadline: number }, url: string, prompt: string): Promise<GeneratedOptions> {
  if (!model) throw new ApiError('MODEL_NOT_CONFIGURED', { message: needsModelMessage('The crawl prompt'), details: [{ path: ['prompt'], message: needsModelMessage('The crawl prompt') }] });
  let answer;
  try {
    answer = await model.session(scope).json({ messages: taskMessages(`${TASK}\nSite URL: ${url}`, prompt), schema: GENERATED, name: 'crawl_options', small: true });
  } catch (e) {
    if (e instanceof ModelUnavailableError) throw new ApiError('BAD_REQUEST', { message: `Invalid request parameters: the crawl prompt could not be turned into options (${e.message})` });
    throw e;
  }
  if (!answer.valid) throw new ApiError('BAD_REQUEST', { message: `Invalid request parameters: the model's crawl options are not valid (${answer.errors.join('; ')})` });
  const out = answer.value as GeneratedOptions;
  for (const key of ['includePaths', 'excludePaths'] as const) {
    const bad = (out[key] ?? []).map((p) => [p, patternError(p)] as const).find(([, e]) => e);
    if (bad) throw new ApiError('BAD_REQUEST', { message: `Invalid request parameters: the generated ${key} pattern "${bad[0]}" is not a valid regular expression (${bad[1]})` });
  }
  return out;
}

/**
 * Generated options where the request left a field at its default: a caller's explicit choice
 * always stands.
 */
export function applyGenerated<T extends Record<string, unknown>>(request: T, generated: GeneratedOptions, defaults: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...request };
  for (const [k, v] of Object.entries(generated)) {
    if (v === undefined) continue;
    const current = out[k];
    const atDefault = current === undefined || JSON.stringify(current) === JSON.stringify(defaults[k]);
    if (atDefault) out[k] = v;
  }
  delete out.prompt;
  return out as T;
}
