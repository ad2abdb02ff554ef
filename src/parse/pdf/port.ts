/**
 * The link between pdf.js's two halves when both run on this thread, as they do here.
 *
 * pdf.js's own in-process link copies every message with structuredClone, which Node 20 runs
 * through a MessageChannel: about 25 µs for a chunk of ten text items and 2 µs for a bare
 * acknowledgement. A page's text comes over in chunks of about ten items, each chunk with its
 * own pull and acknowledgement, so the copying took about a tenth of a text-layer parse. The
 * messages are plain data (objects, arrays, strings, numbers, typed arrays), which a walk in
 * JavaScript copies several times faster. Whatever else (errors, maps, sets, functions) still
 * goes through structuredClone, whose rules the walk keeps to.
 *
 * A copy is still needed: pdf.js reuses some arrays once they are sent (an operator list's
 * arrays are emptied for its next chunk). Buffers the sender hands over (its transfer list)
 * are passed as they are, as a transfer would. A chunk of text is the exception: see
 * `handedOver`.
 */

import { asPdfWorker } from './inflate-scope.js';

type Listener = (this: InProcessPort, event: { data: unknown }) => void;

/** Deeper than this, the message is copied by structuredClone (which also copes with cycles). */
const MAX_DEPTH = 100;
const TOO_DEEP = Symbol('too deep');
const { toString } = Object.prototype;

/** One port both halves listen on, each picking the messages addressed to it (as pdf.js's own). */
export class InProcessPort {
  readonly #listeners = new Map<Listener, (() => void) | undefined>();
  readonly #delivered = Promise.resolve();

  postMessage(message: unknown, transfer?: Transferable[] | null): void {
    const event = { data: copyMessage(message, transfer ?? undefined) };
    // Later, as a port would: the sender goes on before the receiver runs. Delivered as the
    // worker half, the only one that reaches for DecompressionStream (see inflate-scope.ts).
    void this.#delivered.then(() =>
      asPdfWorker(() => {
        for (const listener of this.#listeners.keys()) listener.call(this, event);
      }),
    );
  }

  addEventListener(_type: 'message', listener: Listener, options?: { signal?: AbortSignal } | null): void {
    const signal = options?.signal;
    if (signal?.aborted) return;
    const onAbort = () => this.removeEventListener('message', listener);
    signal?.addEventListener('abort', onAbort);
    this.#listeners.set(listener, signal ? () => signal.removeEventListener('abort', onAbort) : undefined);
  }

  removeEventListener(_type: 'message', listener: Listener): void {
    this.#listeners.get(listener)?.();
    this.#listeners.delete(listener);
  }

  terminate(): void {
    for (const unhook of this.#listeners.values()) unhook?.();
    this.#listeners.clear();
  }
}

/** A copy of `message` as structuredClone would give, but for the buffers in `transfer`, passed as they are. */
export function copyMessage(message: unknown, transfer?: Transferable[]): unknown {
  if (handedOver(message)) return { ...message, chunk: { ...message.chunk } };
  const moved = new Set<unknown>(transfer);
  try {
    return copy(message, moved, new Map(), 0);
  } catch (e) {
    if (e !== TOO_DEEP) throw e;
    return structuredClone(message, transfer ? { transfer } : undefined);
  }
}

const ENQUEUE = 4;

interface TextChunkMessage {
  stream: typeof ENQUEUE;
  chunk: { items: unknown[]; styles: object };
}

/**
 * A chunk of a page's text (items and font styles): pdf.js builds each chunk's items and styles
 * afresh and, as soon as it has sent them, starts new ones for the next chunk without touching
 * the sent ones again. Only the chunk object that holds them is reused, so that is all the port
 * copies: a page's text is then read without copying it item by item.
 */
function handedOver(message: unknown): message is TextChunkMessage {
  if (typeof message !== 'object' || message === null || (message as { stream?: unknown }).stream !== ENQUEUE) return false;
  const chunk = (message as { chunk?: unknown }).chunk;
  if (typeof chunk !== 'object' || chunk === null) return false;
  const { items, styles } = chunk as { items?: unknown; styles?: unknown };
  return Array.isArray(items) && typeof styles === 'object' && styles !== null && !('fnArray' in chunk);
}

function copy(value: unknown, moved: Set<unknown>, instances: Map<object, unknown>, depth: number): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
  if (depth > MAX_DEPTH) throw TOO_DEEP;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i], moved, instances, depth + 1);
    return out;
  }
  // An ordinary object, of whatever class or none (pdf.js sends its glyphs as they are), becomes
  // a plain object with its own fields, as structuredClone makes it.
  if (toString.call(value) === '[object Object]') {
    // A class instance sent many times in one message (a font's glyph, once per character drawn)
    // is copied once and shared, as structuredClone keeps shared references shared.
    const proto: unknown = Object.getPrototypeOf(value);
    const shared = proto !== Object.prototype && proto !== null;
    if (shared) {
      const done = instances.get(value);
      if (done !== undefined) return done;
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], moved, instances, depth + 1);
    if (shared) instances.set(value, out);
    return out;
  }
  if (moved.has(value)) return value;
  if (ArrayBuffer.isView(value)) {
    if (moved.has(value.buffer)) return value;
    // A view over its whole buffer: slice copies exactly what structuredClone would.
    if (!(value instanceof DataView) && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength) {
      return (value as unknown as { slice(): unknown }).slice();
    }
  }
  return structuredClone(value);
}
