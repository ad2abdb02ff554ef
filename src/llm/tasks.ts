/**
 * The model-backed tasks the formats use, each over a page longer than one prompt: extraction
 * per part then merged; summaries per part then combined (hierarchical); questions and
 * highlights over the parts most relevant to them.
 */
import { mergeAnswers, splitByTokens } from './chunk.js';
import { rankPassages } from './offline/passages.js';
import type { JsonSchema } from './offline/fill.js';
import { PII_ENTITIES, type KnownPii, type PiiEntity } from './offline/pii.js';
import { prompts, taskMessages } from './prompts.js';
import { schemaErrors } from './schema.js';
import type { JsonAnswer, ModelSession } from './types.js';

export interface Extraction extends JsonAnswer {
  parts: number;
}

/** Any JSON object: what a prompt without a schema asks for. */
const ANY_OBJECT: JsonSchema = { type: 'object' };

export async function extractJson(m: ModelSession, page: string, schema: JsonSchema | undefined, prompt: string | undefined): Promise<Extraction> {
  const parts = splitByTokens(page, m.contextTokens);
  const target = schema ?? ANY_OBJECT;
  const task = schema ? prompts.extract(prompt) : prompts.extractFree(prompt ?? '');
  const answers: JsonAnswer[] = [];
  for (const part of parts) answers.push(await m.json({ messages: taskMessages(task, part, schema ? `JSON Schema: ${JSON.stringify(schema)}` : undefined), schema: target, name: 'extraction' }));
  if (parts.length === 1) return { ...answers[0]!, parts: 1 };
  // Parts are judged together: a required field found in one part only is still found.
  const value = mergeAnswers(answers.map((a) => a.value));
  const errors = schemaErrors(target, value);
  return { value, valid: errors.length === 0, errors, parts: parts.length };
}

export async function summarise(m: ModelSession, page: string): Promise<string> {
  let parts = splitByTokens(page, m.contextTokens);
  let summaries: string[] = [];
  for (const part of parts) summaries.push(await m.text({ messages: taskMessages(prompts.summary, part) }));
  // Summaries of summaries until one prompt holds them all.
  while (summaries.length > 1) {
    parts = splitByTokens(summaries.join('\n\n'), m.contextTokens);
    const next: string[] = [];
    for (const part of parts) next.push(await m.text({ messages: taskMessages(prompts.combineSummaries, part) }));
    if (next.length >= summaries.length) return next.join(' ');
    summaries = next;
  }
  return summaries[0] ?? '';
}

/** The part of a long page that best matches `query` (BM25 over its passages decides). */
function bestPart(page: string, query: string, budget: number): string {
  const parts = splitByTokens(page, budget);
  if (parts.length === 1) return parts[0]!;
  const scores = parts.map((p) => rankPassages(p, query, { top: 1 })[0]?.score ?? 0);
  return parts[scores.indexOf(Math.max(...scores))]!;
}

export async function answerQuestion(m: ModelSession, page: string, question: string): Promise<string> {
  return m.text({ messages: taskMessages(prompts.question(question), bestPart(page, question, m.contextTokens)) });
}

export async function highlightPassages(m: ModelSession, page: string, query: string): Promise<string[]> {
  const out = await m.json({
    messages: taskMessages(prompts.highlights(query), bestPart(page, query, m.contextTokens)),
    schema: { type: 'object', properties: { highlights: { type: 'array', items: { type: 'string' } } }, required: ['highlights'] },
    name: 'highlights',
  });
  const list = (out.value as { highlights?: unknown } | undefined)?.highlights;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}

export async function judgeInjection(m: ModelSession, page: string): Promise<{ injection: boolean; reason: string }> {
  const out = await m.json({
    messages: taskMessages(prompts.injection, splitByTokens(page, m.contextTokens)[0] ?? ''),
    schema: { type: 'object', properties: { injection: { type: 'boolean' }, reason: { type: 'string' } }, required: ['injection'] },
    name: 'injection_check',
    small: true,
  });
  const v = out.value as { injection?: unknown; reason?: unknown } | undefined;
  return { injection: v?.injection === true, reason: typeof v?.reason === 'string' ? v.reason : '' };
}

export async function cleanWithModel(m: ModelSession, markdown: string): Promise<string | undefined> {
  // The answer must hold the whole page: past one prompt's budget the original is kept.
  if (splitByTokens(markdown, m.contextTokens).length > 1) return undefined;
  return m.text({ messages: taskMessages(prompts.clean, markdown), small: true });
}

/**
 * The PII of the kinds asked for, as the model quotes it from the page, part by part; null when
 * an answer does not fit the list's shape even after repair (the caller then looks offline).
 */
export async function findPii(m: ModelSession, page: string, entities: readonly PiiEntity[], aggressive: boolean): Promise<KnownPii[] | null> {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      found: { type: 'array', items: { type: 'object', properties: { text: { type: 'string', minLength: 1 }, entity: { enum: [...entities] } }, required: ['text', 'entity'] } },
    },
    required: ['found'],
  };
  const found: KnownPii[] = [];
  for (const part of splitByTokens(page, m.contextTokens)) {
    const out = await m.json({ messages: taskMessages(prompts.pii(entities, aggressive), part), schema, name: 'pii' });
    const list = (out.value as { found?: unknown } | undefined)?.found;
    if (!out.valid || !Array.isArray(list)) return null;
    for (const x of list) {
      const o = x as { text?: unknown; entity?: unknown };
      // Only what the page holds: a piece the model rewrote would match nothing, or the wrong text.
      if (typeof o.text === 'string' && part.includes(o.text) && PII_ENTITIES.includes(o.entity as PiiEntity) && entities.includes(o.entity as PiiEntity)) found.push({ text: o.text, entity: o.entity as PiiEntity });
    }
  }
  return found;
}
