/**
 * Answers kept per string, for the checks a page asks of each of its elements: pages repeat a
 * few class lists and ids on hundreds of elements. Bounded, since a process sees many sites:
 * past `max` answers all are forgotten at once, and the next ones gathered again.
 */
const NONE = Symbol('none');

export function boundedMemo<V>(fn: (key: string) => V, max = 4096): (key: string) => V {
  const known = new Map<string, V | typeof NONE>();
  return (key) => {
    const hit = known.get(key);
    if (hit !== undefined) return hit === NONE ? (undefined as V) : hit;
    const value = fn(key);
    if (known.size >= max) known.clear();
    // A Map's undefined means "not asked yet", so an undefined answer is kept as NONE.
    known.set(key, value === undefined ? NONE : value);
    return value;
  };
}
