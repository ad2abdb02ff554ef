/**
 * The pipeline's side of the table: which formats a request may use on this server, what the
 * page must keep for them, and running them at their stage.
 */
import type { Document } from '../../core/document.js';
import type { ModelSession } from '../../llm/types.js';
import { readPageData, type PageData } from '../../llm/offline/structured.js';
import { analyse, type PageText } from '../../llm/offline/text.js';
import type { RenderedStyles } from '../types.js';
import { formatOf } from './registry.js';
import type { Capabilities, ChangeTracker, FormatNeeds, FormatStage, PageMaterial, Refusal } from './types.js';

type Entry = { type: string };

export function refusals(formats: readonly Entry[], caps: Capabilities): Refusal[] {
  const out: Refusal[] = [];
  formats.forEach((f, i) => {
    const r = formatOf(f.type).refuse?.(f, caps, `formats.${i}`);
    if (r) out.push(r);
  });
  return out;
}

/** What the requested formats need of the page, taken together. */
export function neededBy(formats: readonly Entry[]): FormatNeeds {
  const n: FormatNeeds = { html: false, markdown: false, browser: false, styles: false, model: 'none' };
  for (const f of formats) {
    const m = formatOf(f.type).needs;
    n.html ||= m.html;
    n.markdown ||= m.markdown;
    n.browser ||= m.browser;
    n.styles ||= m.styles;
    if (m.model === 'required' || (m.model === 'optional' && n.model === 'none')) n.model = m.model;
  }
  return n;
}

export const extraCredits = (formats: readonly Entry[]): number => formats.reduce((n, f) => n + formatOf(f.type).cost(f), 0);

export function pageMaterial(markdown: string, html: string | undefined, url: string, styles?: RenderedStyles): PageMaterial {
  let data: PageData | undefined;
  let text: { of: string; value: PageText } | undefined;
  const page: PageMaterial = {
    markdown,
    html,
    url,
    styles,
    data: () => (data ??= readPageData(html ?? '')),
    // Keyed by the markdown it was made from: onlyCleanContent may replace it first.
    text: () => (text?.of === page.markdown ? text.value : (text = { of: page.markdown, value: analyse(page.markdown) }).value),
  };
  return page;
}

export interface StageEnv {
  teamId: string;
  model: ModelSession | undefined;
  changeTracker: ChangeTracker | undefined;
  warn(message: string): void;
}

export async function runStage(stage: FormatStage, formats: readonly Entry[], doc: Document, page: PageMaterial, env: StageEnv): Promise<void> {
  for (const f of formats) {
    const m = formatOf(f.type);
    if (m.stage !== stage || !m.run) continue;
    await m.run(f, { ...env, doc, page });
  }
}
