export { BrowserEngine } from './engine.js';
export { toBrowserError } from './errors.js';
export type { BrowserEngineLogger, BrowserEngineOptions, BrowserEngineStats, BrowserFetchRequest } from './types.js';
export type { SessionContext, SessionContextOptions } from './session-context.js';
export type { CdpSessionContext } from './cdp-browser.js';
