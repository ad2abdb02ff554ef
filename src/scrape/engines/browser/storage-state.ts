/**
 * Loading a profile's storage into a pooled context, which cannot be created with it: cookies go
 * in directly, localStorage through a script that runs before the page's own in each document
 * of a listed origin. A key the page
 * has already set is left alone.
 */
import type { BrowserStorageState } from '../../types.js';

export function restoreLocalStorageScript(state: BrowserStorageState): string | undefined {
  const byOrigin: Record<string, [string, string][]> = {};
  for (const o of state.origins) {
    if (o.localStorage.length > 0) byOrigin[o.origin] = o.localStorage.map((i) => [i.name, i.value]);
  }
  if (Object.keys(byOrigin).length === 0) return undefined;
  return `(() => {
  const items = (${JSON.stringify(byOrigin)})[location.origin];
  if (!items) return;
  try {
    for (const [k, v] of items) if (localStorage.getItem(k) === null) localStorage.setItem(k, v);
  } catch {}
})();`;
}
