/**
 * The table of output formats. Request validation builds its `formats` schema from it, the
 * pipeline runs and charges by it, the "not supported" check asks it, and the OpenAPI document
 * shows each entry's description and needs. A new format is one module and one line here.
 */
import { brandingFormat } from './branding.js';
import { changeTrackingFormat } from './change-tracking.js';
import { htmlFormat, imagesFormat, linksFormat, markdownFormat, rawBase64Format, rawHtmlFormat } from './content.js';
import { highlightsFormat } from './highlights.js';
import { jsonFormat } from './json.js';
import { menuFormat } from './menu.js';
import { attributesFormat, audioFormat, queryFormat, videoFormat } from './pending.js';
import { productFormat } from './product.js';
import { questionFormat } from './question.js';
import { screenshotFormat } from './screenshot.js';
import { summaryFormat } from './summary.js';
import type { RegisteredFormat } from './types.js';

export const FORMATS: readonly RegisteredFormat[] = [
  markdownFormat,
  htmlFormat,
  rawHtmlFormat,
  rawBase64Format,
  linksFormat,
  imagesFormat,
  screenshotFormat,
  changeTrackingFormat,
  jsonFormat,
  summaryFormat,
  questionFormat,
  highlightsFormat,
  brandingFormat,
  productFormat,
  menuFormat,
  audioFormat,
  videoFormat,
  attributesFormat,
  queryFormat,
];

const byType = new Map(FORMATS.map((f) => [f.type, f]));

export function formatOf(type: string): RegisteredFormat {
  const f = byType.get(type);
  if (!f) throw new Error(`No format module for '${type}'`);
  return f;
}

export const FORMAT_TYPES = FORMATS.map((f) => f.type);
