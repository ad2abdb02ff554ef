/**
 * pdf.js inflates a page's content streams and fonts with the web's DecompressionStream when
 * the platform has one, and with its own decoder when it has not. Node's DecompressionStream is
 * zlib behind web streams written in JavaScript: for streams of a few kilobytes, as a page's are,
 * their promises and queues cost far more than the inflating. Measured on 123 manual pages: a
 * fifth of a text-layer parse, warm or cold.
 *
 * So pdf.js's worker half does not see DecompressionStream: work run through `asPdfWorker` (and
 * whatever it goes on to schedule) finds the global undefined, and pdf.js falls back to its own
 * decoder. Everything else in the process sees the platform's class, unchanged.
 *
 * The scope is an AsyncLocalStorage, which on Node 20 tracks every promise the process makes
 * while it is enabled: it is switched off whenever no document is open (see pdfDocumentOpened).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const pdfWorker = new AsyncLocalStorage<true>();

const KEY = 'DecompressionStream';
// Read first: Node defines its web globals lazily, and the first read swaps its getter for the
// class itself, which would undo the property set below.
let current: unknown = (globalThis as Record<string, unknown>)[KEY];
const platform = Object.getOwnPropertyDescriptor(globalThis, KEY);
if (current !== undefined && platform?.configurable) {
  Object.defineProperty(globalThis, KEY, {
    configurable: true,
    enumerable: platform.enumerable ?? false,
    get: () => (pdfWorker.getStore() ? undefined : current),
    // Whoever assigns the global (a polyfill, a test) is taken at their word.
    set: (value: unknown) => {
      current = value;
    },
  });
}

let documentsOpen = 0;

/** Counts a document opened with pdf.js; each is ended by pdfDocumentClosed. */
export function pdfDocumentOpened(): void {
  documentsOpen++;
}

export function pdfDocumentClosed(): void {
  // With no document left, nothing runs in the scope: stop tracking the process's promises.
  if (--documentsOpen === 0) pdfWorker.disable();
}

/** Runs `fn` as pdf.js's worker half: without DecompressionStream, here and in what it schedules. */
export function asPdfWorker<T>(fn: () => T): T {
  return pdfWorker.run(true, fn);
}
