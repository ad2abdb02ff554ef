/** The monitor queue's tasks, as the job catalog declares them. */
import { taskItem, tasks, type PayloadOf } from '../jobs/catalog.js';

/** What the monitor queue carries: the catalog's monitor check task. */
export type MonitorTask = PayloadOf<'monitorCheck'>;

export const checkJobId = (checkId: string) => `check.${checkId}`;

/** The queue item that runs a check; `id` and `delayMs` for a check that puts itself back. */
export function checkTask(teamId: string, checkId: string, opts: { id?: string; delayMs?: number } = {}) {
  return taskItem<MonitorTask>(tasks.monitorCheck, teamId, { checkId }, { id: checkJobId(checkId), ...opts });
}
