/** The one Chromium the engine drives: launched on first use, relaunched after it dies. */
import type { Browser } from 'playwright-core';
import { ApiError } from '../../../errors.js';
import { launchChromium } from './chromium.js';
import { closedError } from './errors.js';
import type { BrowserEngineLogger } from './types.js';
import { noop, withTimeout } from './waits.js';

const CLOSE_TIMEOUT_MS = 10_000;

export class ChromiumProcess {
  private browser: Browser | undefined;
  private launching: Promise<Browser> | undefined;
  private closed = false;

  constructor(
    private readonly executablePath: string,
    private readonly log: BrowserEngineLogger | undefined,
    /** So the owner can drop what lived in that browser. */
    private readonly onDisconnected: (browser: Browser) => void,
  ) {}

  get running(): boolean {
    return this.browser?.isConnected() ?? false;
  }

  async get(): Promise<Browser> {
    if (this.closed) throw closedError();
    if (this.browser?.isConnected()) return this.browser;
    this.launching ??= this.launch().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  /** Refuses launches from now on; a launch already under way closes what it started. */
  refuseLaunches(): void {
    this.closed = true;
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser ?? (await this.launching?.catch(() => undefined));
    this.browser = undefined;
    if (browser) await withTimeout(browser.close(), CLOSE_TIMEOUT_MS, 'closing Chromium').catch(noop);
  }

  private async launch(): Promise<Browser> {
    const t0 = performance.now();
    let browser: Browser;
    try {
      browser = await launchChromium(this.executablePath);
    } catch (e) {
      throw new ApiError('INTERNAL', { message: `Could not start Chromium: ${String((e as Error).message).split('\n')[0]}`, cause: e });
    }
    if (this.closed) {
      await browser.close().catch(noop);
      throw closedError();
    }
    browser.on('disconnected', () => this.disconnected(browser));
    this.browser = browser;
    this.log?.info({ version: browser.version(), launchMs: Math.round(performance.now() - t0) }, 'Chromium launched');
    return browser;
  }

  private disconnected(browser: Browser): void {
    if (this.browser === browser) this.browser = undefined;
    if (!this.closed) this.log?.warn({}, 'Chromium disconnected; it will be relaunched on the next browser fetch');
    this.onDisconnected(browser);
  }
}
