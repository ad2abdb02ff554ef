/**
 * The shape of an output format. Each format is one module that declares what it needs of the
 * page (HTML, markdown, a browser, a model), what it costs, where its output goes, and how it
 * runs; the table in registry.ts is what request validation, the pipeline, the OpenAPI document
 * and the "not supported" check read.
 */
import type { z } from 'zod';
import type { Document } from '../../core/document.js';
import { needsModelMessage, type ModelSession } from '../../llm/types.js';
import type { PageData } from '../../llm/offline/structured.js';
import type { PageText } from '../../llm/offline/text.js';
import type { RenderedStyles } from '../types.js';

export interface FormatNeeds {
  /** The page's own HTML (structured data, style sheets), kept past the transform. */
  html: boolean;
  /** The page's markdown, whether or not the caller asked for the markdown format. */
  markdown: boolean;
  /** A real browser must render the page. */
  browser: boolean;
  /** The computed styles of the page's elements, read when a browser renders it anyway. */
  styles: boolean;
  /** `none`; `optional`: a model does it better, an offline algorithm otherwise; `required`. */
  model: 'none' | 'optional' | 'required';
}

/**
 * When a format runs: `transform` formats come out of the fetch and transform themselves
 * (buildDocument); `page` formats run on the finished page before it is cached; `post` formats
 * run on every answer, cached or fresh (they compare with this team's history).
 */
export type FormatStage = 'transform' | 'page' | 'post';

export interface Capabilities {
  /** A model is configured (MODEL_BASE_URL / MODEL_API_KEY, or the OpenAI/Ollama names). */
  model: boolean;
}

export interface Refusal {
  path: string;
  message: string;
  /** UNSUPPORTED_OPTION: this server lacks the feature; MODEL_NOT_CONFIGURED: the operator can enable it. */
  error: 'UNSUPPORTED_OPTION' | 'MODEL_NOT_CONFIGURED';
}

/** What the page gave, for formats that read it. */
export interface PageMaterial {
  /** Markdown of the page (after onlyMainContent / onlyCleanContent). */
  markdown: string;
  /** The page's HTML as served (or rendered), when a requested format needs it. */
  html: string | undefined;
  url: string;
  /** Computed styles of the rendered page, when a browser rendered it and a format asked. */
  styles: RenderedStyles | undefined;
  /** The page's structured data, read once on first use. */
  data(): PageData;
  /** The markdown's sentences and terms, worked out once for summary, highlights and question. */
  text(): PageText;
}

/**
 * The `changeTracking` format: compares a scrape with the team's last stored version of the page.
 * Implemented where the snapshots live (monitor/change-tracking.ts), which depends on scrape, so
 * the formats know only this shape.
 */
export interface ChangeTracker {
  track(teamId: string, doc: Document, format: ChangeTrackingEntry, json?: TrackedExtraction): Promise<unknown>;
}

/**
 * The json mode's extraction, run by the tracker only when it needs one: a version whose
 * markdown did not change keeps the extraction stored with it.
 */
export interface TrackedExtraction {
  /** Which schema and prompt: extractions made with different ones are never compared. */
  key: string;
  /** Undefined when the model could not answer (the format has warned). */
  extract(): Promise<Record<string, unknown> | undefined>;
  warn(message: string): void;
}

export interface ChangeTrackingEntry {
  type: 'changeTracking';
  modes: ('git-diff' | 'json')[];
  schema?: Record<string, unknown> | undefined;
  prompt?: string | undefined;
  tag?: string | null | undefined;
}

export interface FormatRun {
  teamId: string;
  doc: Document;
  page: PageMaterial;
  /** Present when a model is configured; bounded by the request's timeout. */
  model: ModelSession | undefined;
  changeTracker: ChangeTracker | undefined;
  warn(message: string): void;
}

export interface FormatModule<E extends { type: string } = { type: string }> {
  type: E['type'];
  /** The request entry's schema (`{type, ...}`). */
  schema: z.ZodType<E>;
  needs: FormatNeeds;
  /** Credits on top of the page's one. */
  cost(entry: E): number;
  /** Document field the format fills. */
  output: keyof Document | null;
  /** One line for the OpenAPI document. */
  description: string;
  stage: FormatStage;
  /** Why this server cannot serve the entry; undefined when it can. */
  refuse?(entry: E, caps: Capabilities, path: string): Refusal | undefined;
  run?(entry: E, r: FormatRun): Promise<void>;
}

/** A format in the table: entries reach it already validated by its own schema. */
export type RegisteredFormat = FormatModule<{ type: string }>;

export function defineFormat<E extends { type: string }>(m: FormatModule<E>): RegisteredFormat {
  return m as unknown as RegisteredFormat;
}

export const needs = (n: Partial<FormatNeeds>): FormatNeeds => ({ html: false, markdown: false, browser: false, styles: false, model: 'none', ...n });

export const modelMissing = (path: string, what: string): Refusal => ({ path, error: 'MODEL_NOT_CONFIGURED', message: needsModelMessage(what) });
