/**
 * OCR, fully offline. When the tesseract command line is installed (Debian: `tesseract-ocr`), it
 * does the work: it is faster than the WebAssembly build and keeps more punctuation (underscores
 * in code). Otherwise tesseract.js runs in-process, with the English model from the
 * `@tesseract.js-data/eng` package and nothing cached to disk: one worker, started on first use
 * and reused (starting one costs about half a second); recognitions queue on it. A recognition
 * past its deadline terminates the worker (or the process), since tesseract cannot be
 * interrupted otherwise; the next call starts a fresh one.
 */
import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { ApiError } from '../errors.js';
import type { TextRun } from './pdf/layout.js';

const require = createRequire(import.meta.url);
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
/** Environment variable naming the tesseract executable; "off" forces the in-process engine. */
const TESSERACT_ENV = 'GLEANER_TESSERACT';

/** Whether a tesseract command line with English data answers, checked once per process. */
let nativeCheck: Promise<string | undefined> | undefined;
export function nativeTesseract(): Promise<string | undefined> {
  nativeCheck ??= new Promise((resolve) => {
    const exe = process.env[TESSERACT_ENV] ?? 'tesseract';
    if (exe === 'off') return resolve(undefined);
    execFile(exe, ['--list-langs'], { timeout: 10_000 }, (err, stdout) => resolve(!err && /^eng$/m.test(stdout) ? exe : undefined));
  });
  return nativeCheck;
}

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
    if (this.closed) throw new ApiError('SERVICE_UNAVAILABLE', { message: 'The server is shutting down' });
    const exe = await nativeTesseract();
    return exe ? recognizeNative(exe, image, deadline) : this.recognizeJs(image, deadline);
  }

  private async recognizeJs(image: Buffer, deadline: number): Promise<OcrResult> {
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

/**
 * One image through the tesseract command line: bytes on stdin, word boxes as TSV on stdout. One
 * thread each: requests run side by side, and OpenMP's threads only contend on a busy machine.
 */
function recognizeNative(exe: string, image: Buffer, deadline: number): Promise<OcrResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(exe, ['stdin', 'stdout', '-l', 'eng', '--psm', '3', 'tsv'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, Math.max(0, deadline - Date.now()));
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.resume();
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'The image could not be read for OCR', cause: e }));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return reject(new ApiError('SCRAPE_TIMEOUT', { message: 'Timed out while running OCR' }));
      if (code !== 0) return reject(new ApiError('SCRAPE_UNSUPPORTED_FILE_ERROR', { message: 'The image could not be read for OCR' }));
      resolve(fromTsv(Buffer.concat(out).toString('utf8')));
    });
    child.stdin.end(image);
  });
}

/** Tesseract's TSV (level 4 rows are lines, level 5 rows words) as runs on each line's baseline. */
export function fromTsv(tsv: string): OcrResult {
  const runs: TextRun[] = [];
  const confs: number[] = [];
  const text: string[] = [];
  let line: { baseline: number; size: number } | undefined;
  for (const row of tsv.split('\n').slice(1)) {
    const f = row.split('\t');
    if (f.length < 12) continue;
    const [level, left, top, width, height, conf] = [f[0], f[6], f[7], f[8], f[9], f[10]].map(Number) as [number, number, number, number, number, number];
    if (level === 4) {
      // A line box runs from ascenders to descenders: the baseline sits about a fifth above its bottom.
      line = { baseline: top + height * 0.8, size: Math.max(1, height * 0.75) };
      text.push('');
    } else if (level === 5 && line) {
      const word = f.slice(11).join('\t').trim();
      if (!word) continue;
      runs.push({ text: word, x: left, w: width, baseline: line.baseline, size: line.size, conf: Math.max(0, conf) / 100 });
      confs.push(Math.max(0, conf) / 100);
      text[text.length - 1] += (text.at(-1) ? ' ' : '') + word;
    }
  }
  return { runs, confidence: confs.length ? confs.reduce((a, b) => a + b, 0) / confs.length : 0, text: text.join('\n') };
}
