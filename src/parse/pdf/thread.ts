/**
 * Entry point of a PDF page thread: opens the document it is sent and reads the text layers of
 * the pages it is given (see threads.ts).
 */
import { parentPort } from 'node:worker_threads';
import { closePdf, openPdf } from './document.js';
import { readPages } from './read.js';
import type { ThreadAnswer, ThreadTask } from './threads.js';

const port = parentPort;
port?.on('message', (task: ThreadTask) => {
  void (async (): Promise<ThreadAnswer> => {
    try {
      const doc = await openPdf(task.bytes);
      try {
        return { id: task.id, read: await readPages(doc, task.first, task.last, task.deadline, task.afterRuled) };
      } finally {
        await closePdf(doc).catch(() => undefined);
      }
    } catch (e) {
      return { id: task.id, error: String((e as Error).message ?? e) };
    }
  })().then((answer) => port.postMessage(answer));
});
