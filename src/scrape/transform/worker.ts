/** Entry point of a transform worker thread: one pure call per task. */
import type { TransformOptions, TransformResult, TransformWants } from '../types.js';
import { transformPage } from './index.js';

export interface TransformTask {
  html: string;
  opts: TransformOptions;
  wants: TransformWants;
}

export default function run(task: TransformTask): TransformResult {
  return transformPage(task.html, task.opts, task.wants);
}
