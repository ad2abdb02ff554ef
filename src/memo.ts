/**
 * Answers worked out once per key, for work a hot path would otherwise repeat: per class list or
 * id of a page's elements, per parsed options object of a job's pages, per size of a compiled
 * query.
 */

/**
 * Per object, held as long as the object lives. For objects never changed after they are made
 * (parsed options): the answer is shared, so callers must not change it either.
 */
export function memoByObject<K extends object, V>(fn: (key: K) => V): (key: K) => V {
  return kept(new WeakMap<K, { value: V }>(), fn);
}

/** Per number, for keys from a small range (a statement's number of rows). */
export function memoBySmallNumber<V>(fn: (key: number) => V): (key: number) => V {
  return kept(new Map<number, { value: V }>(), fn);
}

function kept<K, V>(known: { get(key: K): { value: V } | undefined; set(key: K, hit: { value: V }): unknown }, fn: (key: K) => V): (key: K) => V {
  return (key) => {
    let hit = known.get(key);
    if (!hit) {
      hit = { value: fn(key) };
      known.set(key, hit);
    }
    return hit.value;
  };
}

const NONE = Symbol('none');

/**
 * Per string, bounded since a process sees many sites: pages repeat a few class lists and ids on
 * hundreds of elements. Past `max` answers all are forgotten at once and gathered again.
 */
export function boundedMemo<V>(fn: (key: string) => V, max = 4096): (key: string) => V {
  const known = new Map<string, V | typeof NONE>();
  // The key asked last and its answer: callers ask again about the element at hand (its class
  // list, read by several rules), and neighbours share lists. A string compares with the last
  // key for less than a map lookup costs, which hashes a fresh copy of the page's text.
  let lastKey: string | undefined;
  let lastValue: V | undefined;
  return (key) => {
    if (key === lastKey) return lastValue as V;
    const hit = known.get(key);
    let value: V;
    if (hit !== undefined) value = hit === NONE ? (undefined as V) : hit;
    else {
      value = fn(key);
      if (known.size >= max) known.clear();
      // A Map's undefined means "not asked yet", so an undefined answer is kept as NONE.
      known.set(key, value === undefined ? NONE : value);
    }
    lastKey = key;
    lastValue = value;
    return value;
  };
}
