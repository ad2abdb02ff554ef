/**
 * The one model provider: any server that speaks the OpenAI chat-completions protocol, through the
 * official `openai` client. It owns everything between a feature and the wire:
 * - structured output: `response_format: json_schema`, else a forced tool call, else JSON mode,
 *   else a plain request; a mode the server refuses (400/404/422) is dropped for that model and
 *   remembered, so a small local model that cannot call tools costs one refusal, not one per call;
 * - the caller's schema checked with ajv, one repair round, and invalid output flagged, never
 *   passed off as valid;
 * - retries on 429/5xx and connection failures with backoff, honouring Retry-After, never past
 *   the session's deadline; the deadline also bounds each attempt;
 * - at most MODEL_CONCURRENCY calls per team; token counts per request, team and key.
 */
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { parseModelJson } from './json-text.js';
import { TeamLimiter } from './limiter.js';
import { schemaErrors } from './schema.js';
import type { TokenLedger } from './usage.js';
import {
  ModelUnavailableError,
  type ChatMessage,
  type JsonAnswer,
  type JsonRequest,
  type ModelAccess,
  type ModelCallScope,
  type ModelSession,
  type TextRequest,
} from './types.js';
import type { ModelSettings } from '../config.js';

export type OutputMode = 'json_schema' | 'tools' | 'json_object' | 'plain';
const MODES: OutputMode[] = ['json_schema', 'tools', 'json_object', 'plain'];
const RETRYABLE = new Set([408, 409, 429, 500, 502, 503, 504]);
const TOOL = 'record_result';

/** Rough token count (four characters a token) where the server reports none. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

function retryAfterMs(e: APIError): number | undefined {
  const h = e.headers as Headers | undefined;
  const ms = Number(h?.get?.('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && h?.get?.('retry-after-ms') !== null) return ms;
  const raw = h?.get?.('retry-after');
  if (!raw) return undefined;
  const s = Number(raw);
  if (Number.isFinite(s)) return s * 1000;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(new ModelUnavailableError('The request was cancelled', 'timeout'));
    });
  });

export class ModelProvider implements ModelAccess {
  private readonly client: OpenAI;
  private readonly limiter: TeamLimiter;
  /** Per model: the first structured-output mode its server has not refused. */
  private readonly modes = new Map<string, OutputMode>();

  constructor(
    readonly settings: ModelSettings,
    private readonly usage: TokenLedger,
  ) {
    this.client = new OpenAI({ apiKey: settings.apiKey, baseURL: settings.baseUrl ?? null, maxRetries: 0, timeout: settings.timeoutMs });
    this.limiter = new TeamLimiter(settings.concurrency);
  }

  /** The structured-output mode in use for a model (tests and diagnostics). */
  modeOf(model: string): OutputMode {
    return this.modes.get(model) ?? 'json_schema';
  }

  session(scope: ModelCallScope): ModelSession {
    return {
      contextTokens: this.settings.contextTokens,
      json: (req) => this.json(scope, req),
      text: (req) => this.text(scope, req),
    };
  }

  private modelFor(small: boolean | undefined): string {
    return (small && this.settings.smallName) || this.settings.name;
  }

  async text(scope: ModelCallScope, req: TextRequest): Promise<string> {
    const model = this.modelFor(req.small);
    return this.limiter.run(scope.teamId, scope.deadline, async () => {
      const out = await this.withRetries(scope, (signal) => this.streamText(scope, model, req.messages, signal));
      return out.trim();
    });
  }

  async json(scope: ModelCallScope, req: JsonRequest): Promise<JsonAnswer> {
    const model = this.modelFor(req.small);
    return this.limiter.run(scope.teamId, scope.deadline, async () => {
      let first = await this.structured(scope, model, req, req.messages);
      if (first.errors.length === 0) return first;
      // One repair round: the answer and what is wrong with it go back to the model.
      const repair: ChatMessage[] = [
        ...req.messages,
        { role: 'assistant', content: first.raw },
        {
          role: 'user',
          content: `That answer does not match the JSON Schema: ${first.errors.join('; ')}. Answer again with corrected JSON only, matching this schema: ${JSON.stringify(req.schema)}`,
        },
      ];
      const second = await this.structured(scope, model, req, repair);
      if (second.errors.length === 0) return second;
      first = second.value === undefined ? first : second;
      return { value: first.value, valid: false, errors: first.errors };
    });
  }

  private async structured(
    scope: ModelCallScope,
    model: string,
    req: JsonRequest,
    messages: ChatMessage[],
  ): Promise<JsonAnswer & { raw: string }> {
    const name = (req.name ?? 'result').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'result';
    for (;;) {
      const mode = this.modeOf(model);
      const body: ChatCompletionCreateParamsNonStreaming = { model, messages: this.wire(messages, mode, req), temperature: 0 };
      if (mode === 'json_schema') body.response_format = { type: 'json_schema', json_schema: { name, schema: req.schema as Record<string, unknown>, strict: false } };
      if (mode === 'json_object') body.response_format = { type: 'json_object' };
      if (mode === 'tools') {
        body.tools = [{ type: 'function', function: { name: TOOL, description: 'Record the result as JSON matching the parameters', parameters: req.schema as Record<string, unknown> } }];
        body.tool_choice = { type: 'function', function: { name: TOOL } };
      }
      let res: ChatCompletion;
      try {
        res = await this.withRetries(scope, (signal) => this.complete(scope, model, body, signal));
      } catch (e) {
        if (e instanceof APIError && [400, 404, 422].includes(e.status ?? 0) && mode !== 'plain') {
          // The server (or this model) does not take this way of asking: try the next one, once for all.
          this.modes.set(model, MODES[MODES.indexOf(mode) + 1]!);
          continue;
        }
        throw e;
      }
      const choice = res.choices[0]?.message;
      const call = choice?.tool_calls?.find((c) => c.type === 'function');
      const raw = (call && 'function' in call ? call.function.arguments : undefined) ?? choice?.content ?? '';
      const parsed = parseModelJson(raw);
      if (!parsed.ok) return { value: undefined, valid: false, errors: [parsed.error], raw };
      const errors = schemaErrors(req.schema, parsed.value);
      return { value: parsed.value, valid: errors.length === 0, errors, raw };
    }
  }

  /** Without server-side schema support, the schema goes into the instructions. */
  private wire(messages: ChatMessage[], mode: OutputMode, req: JsonRequest): ChatCompletionMessageParam[] {
    if (mode === 'json_schema' || mode === 'tools') return messages;
    const note = `Answer with JSON only (no prose, no code fence) matching this JSON Schema: ${JSON.stringify(req.schema)}`;
    return messages.map((m, i) => (i === 0 && m.role === 'system' ? { ...m, content: `${m.content}\n${note}` } : m));
  }

  private async complete(scope: ModelCallScope, model: string, body: ChatCompletionCreateParamsNonStreaming, signal: AbortSignal): Promise<ChatCompletion> {
    const res = await this.client.chat.completions.create(body, { signal });
    this.count(scope, model, res.usage?.prompt_tokens, res.usage?.completion_tokens, body.messages, JSON.stringify(res.choices[0]?.message ?? ''));
    return res;
  }

  /** Free text streams: long summaries and cleaned pages arrive as they are written. */
  private async streamText(scope: ModelCallScope, model: string, messages: ChatMessage[], signal: AbortSignal): Promise<string> {
    const stream = await this.client.chat.completions.create({ model, messages, temperature: 0, stream: true, stream_options: { include_usage: true } }, { signal });
    let text = '';
    let usage: { prompt_tokens?: number; completion_tokens?: number } | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    this.count(scope, model, usage?.prompt_tokens, usage?.completion_tokens, messages, text);
    return text;
  }

  private count(scope: ModelCallScope, model: string, prompt: number | undefined, completion: number | undefined, messages: readonly ChatCompletionMessageParam[], answer: string): void {
    this.usage.record({
      teamId: scope.teamId,
      keyId: scope.keyId,
      requestId: scope.requestId,
      model,
      promptTokens: prompt ?? estimateTokens(messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n')),
      completionTokens: completion ?? estimateTokens(answer),
    });
  }

  /** Attempts within the deadline; waits between them follow Retry-After or back off. */
  private async withRetries<T>(scope: ModelCallScope, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const max = this.settings.maxRetries ?? 3;
    for (let n = 0; ; n++) {
      const remaining = scope.deadline - Date.now();
      if (remaining <= 0) throw new ModelUnavailableError('The model did not answer within the request timeout', 'timeout');
      const timeout = AbortSignal.timeout(Math.min(remaining, this.settings.timeoutMs));
      const signal = scope.signal ? AbortSignal.any([scope.signal, timeout]) : timeout;
      try {
        return await attempt(signal);
      } catch (e) {
        if (e instanceof ModelUnavailableError) throw e;
        if (e instanceof APIUserAbortError || (e instanceof Error && e.name === 'AbortError') || timeout.aborted) {
          throw new ModelUnavailableError(
            timeout.aborted ? `The model did not answer within ${Math.round(Math.min(remaining, this.settings.timeoutMs))} ms` : 'The request was cancelled',
            'timeout',
          );
        }
        const status = e instanceof APIError ? e.status : undefined;
        const retryable = e instanceof APIConnectionError || (status !== undefined && RETRYABLE.has(status));
        if (!retryable) {
          if (e instanceof APIError && [400, 404, 422].includes(status ?? 0)) throw e;
          throw new ModelUnavailableError(`The model server refused the request (${status ?? 'error'}): ${(e as Error).message}`, 'rejected');
        }
        const wait = (e instanceof APIError ? retryAfterMs(e) : undefined) ?? Math.min(8000, 250 * 2 ** n) * (0.75 + Math.random() / 2);
        if (n >= max || Date.now() + wait >= scope.deadline) {
          const reason = status === 429 ? 'rate-limited' : e instanceof APIConnectionError ? 'unreachable' : 'server-error';
          const what = status === 429 ? 'kept answering 429 (rate limited)' : e instanceof APIConnectionError ? 'could not be reached' : `kept failing (${status})`;
          throw new ModelUnavailableError(`The model server ${what} after ${n + 1} attempt${n ? 's' : ''}`, reason);
        }
        await sleep(wait, scope.signal);
      }
    }
  }
}
