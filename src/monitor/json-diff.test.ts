import { describe, expect, it } from 'vitest';
import { fieldDiff } from './json-diff.js';

describe('fieldDiff', () => {
  it('lists only the fields whose value changed, with both values', () => {
    expect(fieldDiff({ price: 10, name: 'Basic' }, { price: 12, name: 'Basic' })).toEqual({ price: { previous: 10, current: 12 } });
  });

  it('counts a field that appeared or disappeared, its missing side null', () => {
    expect(fieldDiff({ a: 1 }, { b: 2 })).toEqual({ a: { previous: 1, current: null }, b: { previous: null, current: 2 } });
  });

  it('compares nested values by content, not by key order', () => {
    expect(fieldDiff({ o: { x: 1, y: [1, 2] } }, { o: { y: [1, 2], x: 1 } })).toEqual({});
    expect(fieldDiff({ o: { y: [1, 2] } }, { o: { y: [2, 1] } })).toEqual({ o: { previous: { y: [1, 2] }, current: { y: [2, 1] } } });
  });

  it('takes a field set to null as the same as a missing one', () => {
    expect(fieldDiff({ a: null }, {})).toEqual({});
  });
});
