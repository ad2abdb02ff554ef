import { describe, expect, it } from 'vitest';
import { Float64Scratch, Int32Scratch, Uint8Scratch } from './scratch.js';

describe('scratch tables', () => {
  it('hands out a table of zeros of the size asked, whatever the last holder wrote', () => {
    const scratch = new Float64Scratch();
    const first = scratch.take(5);
    first.fill(7);
    const second = scratch.take(3);
    expect([...second]).toEqual([0, 0, 0]);
    expect(second.length).toBe(3);
    expect([...scratch.take(6)]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('grows for a larger table, and gives a huge one a buffer of its own', () => {
    const ints = new Int32Scratch();
    expect(ints.take(5000).length).toBe(5000);
    const huge = new Uint8Scratch().take(1 << 17);
    expect(huge.length).toBe(1 << 17);
    expect(huge.every((b) => b === 0)).toBe(true);
  });
});
