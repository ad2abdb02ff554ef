/**
 * pdf.js, loaded so that it leaves the process's built-ins as they were.
 *
 * Its legacy build (the one that runs on Node 20) bundles core-js, which replaces JSON.parse,
 * JSON.stringify, Array.prototype.push and Function.prototype.toString with JavaScript versions
 * for the whole process (Node 20 lacks JSON.rawJSON, so core-js forces its own JSON). pdf.js
 * needs none of those replacements, while every request body, response and stored document
 * would pay for them, so the natives are put back. The worker half is loaded here too and
 * handed to pdf.js as its in-process worker: left to pdf.js, it would be imported on the first
 * PDF and replace the natives again.
 */
type Slot = [target: object, key: string, native: unknown];

const natives: Slot[] = [
  [JSON, 'parse', JSON.parse],
  [JSON, 'stringify', JSON.stringify],
  [Array.prototype, 'push', Array.prototype.push],
  [Function.prototype, 'toString', Function.prototype.toString],
];

const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
// A specifier in a variable: the worker bundle ships no type declarations.
const WORKER_MODULE = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
const worker: unknown = await import(WORKER_MODULE);
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;

for (const [target, key, native] of natives) {
  if (Reflect.get(target, key) !== native) {
    Object.defineProperty(target, key, { value: native, writable: true, configurable: true, enumerable: false });
  }
}

export const { AnnotationMode, getDocument, OPS, PDFWorker, Util } = pdfjs;
/** The worker half's entry: serves the documents asked for over a port. */
export const { WorkerMessageHandler } = worker as { WorkerMessageHandler: { initializeFromPort(port: unknown): void } };
export type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
