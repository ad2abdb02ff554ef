/**
 * OCR with tesseract.js, fully offline: the English model comes from the `@tesseract.js-data/eng`
 * package and nothing is cached to disk. One worker, started on first use and reused (starting
 * one costs about half a second); recognitions queue on it. A recognition past its deadline
 * terminates the worker, since tesseract cannot be interrupted otherwise; the next call starts a
 * fresh one.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { ApiError } from '../errors.js';
import type { TextRun } from './pdf/layout.js';

const require = createRequire(import.meta.url);
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

export interface OcrResult {
  /** One run per recognised word, in the image's pixel units. */
  runs: TextRun[];
  /** Mean word confidence, 0..1. */
  confidence: number;
  text: string;
}

export class Ocr {
  private worker: Promise<Worker> | undefined;
  private closed = false;

  private get(): Promise<Worker> {
    if (this.closed) throw new ApiError('SERVICE_UNAVAILABLE', { message: 'The server is shutting down' });
    this.worker ??= createWorker('eng', OEM.LSTM_ONLY, {
      langPath: LANG_PATH,
      cacheMethod: 'none',
      gzip: true,
      logger: () => undefined,
      errorHandler: () => undefined,
    }).catch((e: unknown) => {
      this.worker = undefined;
      throw e;
    });
    return this.worker;
  }

  /** Recognises one image (PNG, JPEG, GIF, BMP, TIFF, WebP bytes). */
  async recognize(image: Buffer, deadline: number): Promise<OcrResult> {
    const pending = this.get();
    const worker = await pending;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ApiError('SCRAPE_TIMEOUT', { message: 'Timed out while running OCR' })), Math.max(0, deadline - Date.now()));
    });
    try {
      const { data } = await Promise.race([worker.recognize(image, {}, { text: true, blocks: true }), timeout]);
      const runs: TextRun[] = [];
      const confs: number[] = [];
      for (const block of data.blocks ?? []) {
        for (const para of block.paragraphs) {
          for (const line of para.lines) {
            // Word boxes vary with ascenders; the row height gives the line's type size.
            const size = Math.max(1, (line.rowAttributes?.rowHeight ?? line.bbox.y1 - line.bbox.y0) * 0.8);
            const baseline = (line.baseline.y0 + line.baseline.y1) / 2;
            for (const w of line.words) {
              if (!w.text.trim()) continue;
              runs.push({ text: w.text, x: w.bbox.x0, w: w.bbox.x1 - w.bbox.x0, baseline, size, conf: w.confidence / 100 });
              confs.push(w.confidence / 100);
            }
          }
        }
      }
      return { runs, confidence: confs.length ? confs.reduce((a, b) => a + b, 0) / confs.length : 0, text: data.text };
    } catch (e) {
      if (e instanceof ApiError) {
        if (e.key === 'SCRAPE_TIMEOUT') void this.reset(pending);
        throw e;
      }
      throw new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'The image could not be read for OCR', cause: e });
    } finally {
      clearTimeout(timer);
    }
  }

  private async reset(pending: Promise<Worker>): Promise<void> {
    if (this.worker === pending) this.worker = undefined;
    await (await pending).terminate().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = undefined;
    if (w) await (await w.catch(() => undefined))?.terminate().catch(() => undefined);
  }
}
