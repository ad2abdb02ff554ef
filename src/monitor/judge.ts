/**
 * Judging a check's changed pages against the monitor's goal: one model call per changed page
 * (its diff cut to a budget), a few at a time, each with its own deadline. A page the model
 * could not judge keeps judgment null with a warning saying why; the check goes on either way.
 */
import { judgeChange, type ChangeJudgment } from '../llm/judge.js';
import type { ModelAccess } from '../llm/types.js';

export interface Judged {
  judgment: ChangeJudgment | null;
  warning: string | null;
}

export interface JudgeablePage {
  url: string;
  status: string;
  diff: unknown;
}

export interface JudgeOptions {
  /** Longest one page's judgment may take, retries included. */
  timeoutMs: number;
  /** Changed pages judged per check; the rest are listed unjudged, with a warning. */
  maxPages: number;
  /** Judgments in flight at once (the model's per-team limit applies as well). */
  concurrency: number;
  /** Longest all of a check's judging may take: the check must end well within its job's timeout. */
  totalMs: number;
}

export const DEFAULT_JUDGE_OPTIONS: JudgeOptions = { timeoutMs: 60_000, maxPages: 100, concurrency: 4, totalMs: 5 * 60_000 };

const diffText = (diff: unknown): string | undefined => {
  const t = (diff as { text?: unknown } | null)?.text;
  return typeof t === 'string' && t.length > 0 ? t : undefined;
};

/** What a monitor asks: judging on, and a goal to judge by. */
export const judges = (m: { goal: string | null; judgeEnabled: boolean }): boolean => m.judgeEnabled && (m.goal ?? '').trim().length > 0;

/**
 * Judgments for `pages`, index for index; undefined for pages that are not judged at all
 * (unchanged, new, removed, failed).
 */
export async function judgePages(
  model: ModelAccess,
  scope: { teamId: string; checkId: string; goal: string },
  pages: readonly JudgeablePage[],
  signal: AbortSignal,
  o: JudgeOptions = DEFAULT_JUDGE_OPTIONS,
): Promise<(Judged | undefined)[]> {
  const out: (Judged | undefined)[] = new Array(pages.length).fill(undefined);
  const todo = pages.flatMap((p, i) => (p.status === 'changed' && diffText(p.diff) ? [i] : []));
  for (const i of todo.slice(o.maxPages)) out[i] = { judgment: null, warning: `Not judged: a check judges at most ${o.maxPages} changed pages` };
  const queue = todo.slice(0, o.maxPages);
  const end = Date.now() + o.totalMs;
  const worker = async () => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
      const page = pages[i]!;
      if (Date.now() >= end) {
        out[i] = { judgment: null, warning: `Not judged: the check's judging time (${Math.round(o.totalMs / 1000)} s) ran out` };
        continue;
      }
      const session = model.session({ teamId: scope.teamId, requestId: `monitor-check:${scope.checkId}`, deadline: Math.min(end, Date.now() + o.timeoutMs), signal });
      try {
        out[i] = { judgment: await judgeChange(session, scope.goal, page.url, diffText(page.diff)!), warning: null };
      } catch (e) {
        if (signal.aborted) throw e;
        out[i] = { judgment: null, warning: `The model could not judge this change: ${(e as Error).message}` };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency, queue.length) }, worker));
  return out;
}
