/**
 * What the rest of the server sees of the model layer: a session per request (its team, key,
 * deadline and cancellation) that answers text and schema-checked JSON. Features never talk to
 * the provider directly, so retries, limits, token counts and output checks happen in one place.
 */
import type { JsonSchema } from './offline/fill.js';

export interface ModelCallScope {
  teamId: string;
  keyId?: string | undefined;
  /** The scrape (or other request) this work belongs to, for token counts. */
  requestId: string;
  /** Epoch ms by which every call of the session must have answered. */
  deadline: number;
  signal?: AbortSignal | undefined;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface JsonRequest {
  messages: ChatMessage[];
  schema: JsonSchema;
  /** A short name for the schema (tool and response_format names). */
  name?: string;
  /** Use the cheaper model (MODEL_SMALL_NAME) when one is set. */
  small?: boolean;
}

export interface JsonAnswer {
  value: unknown;
  /** False when the output still broke the schema after the repair round. */
  valid: boolean;
  errors: string[];
}

export interface TextRequest {
  messages: ChatMessage[];
  small?: boolean;
}

export interface ModelSession {
  json(req: JsonRequest): Promise<JsonAnswer>;
  text(req: TextRequest): Promise<string>;
  /** Token budget of one prompt's page content, in tokens. */
  readonly contextTokens: number;
}

export interface ModelAccess {
  session(scope: ModelCallScope): ModelSession;
}

/** A model call that could not give an answer: the reason is for the caller's warning. */
export class ModelUnavailableError extends Error {
  constructor(
    message: string,
    readonly reason: 'timeout' | 'unreachable' | 'rejected' | 'rate-limited' | 'server-error' | 'bad-output',
  ) {
    super(message);
    this.name = 'ModelUnavailableError';
  }
}

/** What a refusal for lack of a model says: the settings that would enable it. */
export const needsModelMessage = (what: string): string =>
  `${what} needs a language model: set MODEL_BASE_URL and MODEL_NAME (or OPENAI_API_KEY, or OLLAMA_BASE_URL) on the server`;
