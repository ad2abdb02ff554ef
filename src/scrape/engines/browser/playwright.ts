/**
 * Playwright, loaded on first use. Its code is over a third of an idle server's heap (28 MB),
 * which a server that never drives a browser, or runs with the browser disabled, should not
 * carry; every crawl also pays for a larger heap in longer collections.
 */
type Playwright = typeof import('playwright-core');

let loading: Promise<Playwright> | undefined;
let loaded: Playwright | undefined;

export function playwright(): Promise<Playwright> {
  loading ??= import('playwright-core').then((m) => (loaded = m));
  return loading;
}

/** The module once something has loaded it; a Playwright error or page cannot exist before. */
export function loadedPlaywright(): Playwright | undefined {
  return loaded;
}

/** Whether `e` is Playwright's timeout error (false when Playwright never loaded: it cannot be). */
export function isPlaywrightTimeout(e: unknown): boolean {
  return loaded !== undefined && e instanceof loaded.errors.TimeoutError;
}
