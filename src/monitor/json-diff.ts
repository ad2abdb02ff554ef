/**
 * Field-by-field comparison of two extractions (the changeTracking json mode, §3.2): every
 * top-level field whose value differs, with its previous and current value. A field present on
 * one side only counts as changed, its missing side null. Values compare by content, so key
 * order inside an object and number formatting do not make a change.
 */

export type FieldDiff = Record<string, { previous: unknown; current: unknown }>;

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((v, i) => same(v, bs[i]));
  }
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  return ak.length === Object.keys(bo).length && ak.every((k) => Object.hasOwn(bo, k) && same((a as Record<string, unknown>)[k], bo[k]));
}

export function fieldDiff(previous: Record<string, unknown>, current: Record<string, unknown>): FieldDiff {
  const out: FieldDiff = {};
  for (const key of new Set([...Object.keys(previous), ...Object.keys(current)])) {
    const p = Object.hasOwn(previous, key) ? previous[key] : null;
    const c = Object.hasOwn(current, key) ? current[key] : null;
    if (!same(p ?? null, c ?? null)) out[key] = { previous: p ?? null, current: c ?? null };
  }
  return out;
}
