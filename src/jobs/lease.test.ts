/**
 * The claim loop every store-polling worker runs on: it looks at once when woken, keeps going
 * after a failed step, and stops only once a step under way has ended.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ClaimLoop } from './lease.js';

const loops: ClaimLoop[] = [];
afterEach(async () => {
  await Promise.all(loops.splice(0).map((l) => l.stop()));
});

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error(`gave up waiting for ${what}`);
}

function loop(step: () => Promise<boolean>, errors: unknown[] = []): ClaimLoop {
  // An hour's poll: anything that happens in these tests happens because the loop was woken.
  const l = new ClaimLoop({ step, pollMs: 3_600_000, onError: (e) => errors.push(e), keepAlive: false });
  loops.push(l);
  return l;
}

describe('ClaimLoop', () => {
  it('steps once at start, again when woken, and straight on after a full claim', async () => {
    let steps = 0;
    let full = 2;
    const l = loop(async () => {
      steps++;
      return full-- > 0;
    });
    l.start();
    await until('the start and the two full claims', () => steps === 3);
    l.wake();
    await until('the woken step', () => steps === 4);
  });

  it('reports a failed step and goes on with the next', async () => {
    const errors: unknown[] = [];
    let steps = 0;
    const l = new ClaimLoop({
      step: async () => {
        if (++steps === 1) throw new Error('store away');
        return false;
      },
      pollMs: 1,
      onError: (e) => errors.push(e),
    });
    loops.push(l);
    l.start();
    await until('a step after the failure', () => steps >= 2);
    expect(errors).toEqual([new Error('store away')]);
  });

  it('stops once the step under way has ended, and steps no more', async () => {
    let release: () => void = () => undefined;
    let steps = 0;
    let ended = false;
    const l = loop(async () => {
      steps++;
      await new Promise<void>((r) => (release = r));
      ended = true;
      return true;
    });
    l.start();
    await until('the first step', () => steps === 1);
    const stopped = l.stop();
    release();
    await stopped;
    expect(ended).toBe(true);
    expect(steps).toBe(1);
    expect(() => l.start()).toThrow(/stopped/);
  });
});
