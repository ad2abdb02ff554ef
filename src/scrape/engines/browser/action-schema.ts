/**
 * The `actions` scrape option: what a caller asks the browser to do between loading the page
 * and capturing it. Bounds and defaults follow the v2 interface; the engine runs them in order.
 * An action allows no members beyond its type's (the interface says so): a misspelt `selectr`
 * is a 400 naming it, not an action quietly run without it.
 */
import { z } from 'zod';
import { selectorIsValid } from '../../selectors.js';

export const MAX_ACTIONS = 50;
/** `waitFor` plus every `wait` action's milliseconds may not pass this. */
export const MAX_TOTAL_WAIT_MS = 60_000;

const selector = z.string().min(1).max(1000).refine(selectorIsValid, { message: 'Not a valid CSS selector' });

const viewport = z.strictObject({
  width: z.number().int().min(1).max(7680),
  height: z.number().int().min(1).max(4320),
});

const waitAction = z
  .object({
    type: z.literal('wait'),
    milliseconds: z.number().int().min(1).max(MAX_TOTAL_WAIT_MS).optional(),
    selector: selector.optional(),
  })
  .refine((a) => (a.milliseconds === undefined) !== (a.selector === undefined), {
    message: 'A wait action takes exactly one of milliseconds or selector',
  });

const screenshotAction = z.strictObject({
  type: z.literal('screenshot'),
  fullPage: z.boolean().default(false),
  quality: z.number().int().min(1).max(100).optional(),
  viewport: viewport.optional(),
});

const clickAction = z.strictObject({ type: z.literal('click'), selector, all: z.boolean().default(false) });
const writeAction = z.strictObject({ type: z.literal('write'), text: z.string().max(100_000) });
const pressAction = z.strictObject({ type: z.literal('press'), key: z.string().min(1).max(100) });
const scrollAction = z.strictObject({
  type: z.literal('scroll'),
  direction: z.enum(['up', 'down']).default('down'),
  selector: selector.optional(),
});
const scrapeAction = z.strictObject({ type: z.literal('scrape') });
const executeJavascriptAction = z.strictObject({ type: z.literal('executeJavascript'), script: z.string().min(1).max(1_000_000) });
export const PDF_FORMATS = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'] as const;
const pdfAction = z.strictObject({
  type: z.literal('pdf'),
  format: z.enum(PDF_FORMATS).default('Letter'),
  landscape: z.boolean().default(false),
  // Chromium's own bounds for page.pdf scale.
  scale: z.number().min(0.1).max(2).default(1),
});

export const ACTION_TYPES = ['wait', 'screenshot', 'click', 'write', 'press', 'scroll', 'scrape', 'executeJavascript', 'pdf'] as const;

export const actionSchema = z.discriminatedUnion(
  'type',
  [waitAction, screenshotAction, clickAction, writeAction, pressAction, scrollAction, scrapeAction, executeJavascriptAction, pdfAction],
  {
    error: (issue) => (issue.code === 'invalid_union' ? `Unknown action type; expected one of ${ACTION_TYPES.join(', ')}` : undefined),
  },
);

export const actionsSchema = z.array(actionSchema).max(MAX_ACTIONS);

export type Action = z.output<typeof actionSchema>;

/** Milliseconds the `wait` actions sleep in total (selector waits are bounded by the timeout). */
export function totalWaitMs(actions: readonly Action[] | undefined): number {
  return (actions ?? []).reduce((sum, a) => sum + (a.type === 'wait' ? (a.milliseconds ?? 0) : 0), 0);
}

/** What the actions produced, in the order they ran; files still as bytes. */
export interface ActionOutput {
  screenshots: { data: Buffer; mime: 'image/png' | 'image/jpeg' }[];
  scrapes: { url: string; html: string }[];
  javascriptReturns: { type: string; value: unknown }[];
  pdfs: Buffer[];
}
