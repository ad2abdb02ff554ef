/** Entry point of a transform worker thread: one pure call per message. */
import { parentPort } from 'node:worker_threads';
import type { TransformOptions, TransformResult, TransformWants } from '../types.js';
import { transformPage } from './index.js';

export interface TransformRequest {
  id: number;
  html: string;
  opts: TransformOptions;
  wants: TransformWants;
}

export type TransformReply = { id: number; result: TransformResult } | { id: number; error: Error };

const port = parentPort!;
port.on('message', (m: TransformRequest) => {
  let reply: TransformReply;
  try {
    reply = { id: m.id, result: transformPage(m.html, m.opts, m.wants) };
  } catch (e) {
    reply = { id: m.id, error: e instanceof Error ? e : new Error(String(e)) };
  }
  port.postMessage(reply);
});
