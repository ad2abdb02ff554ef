/** Shapes that cross the scrape pipeline's stage boundaries (plan -> fetch -> transform -> formats). */
import type { UrlGuard } from '../core/url-guard.js';
import type { PageTransform, TransformResult } from '../transform/types.js';
import type { Action, ActionOutput } from './engines/browser/action-schema.js';

export type { MetadataValue, PageMetadata } from '../core/document.js';
export type { PageTransform, TransformOptions, TransformResult, TransformWants } from '../transform/types.js';
export type { UrlGuard };

export type EngineName = 'http' | 'browser';

export interface Viewport {
  width: number;
  height: number;
}

export interface ScreenshotRequest {
  fullPage: boolean;
  /** JPEG quality 1..100; absent means PNG. */
  quality?: number;
  viewport?: Viewport;
}

export interface LocationRequest {
  /** ISO 3166-1 alpha-2, upper case. */
  country?: string;
  languages?: string[];
}

export interface FetchRequest {
  url: string;
  headers: Record<string, string>;
  /** Deadline for this engine attempt; the engine aborts and throws SCRAPE_TIMEOUT past it. */
  timeoutMs: number;
  skipTlsVerification: boolean;
  /** Outbound proxy URL (http://, https://, socks5://) or undefined for direct. */
  proxyUrl?: string;
  mobile: boolean;
  waitForMs: number;
  location?: LocationRequest;
  screenshot?: ScreenshotRequest;
  guard: UrlGuard;
  signal?: AbortSignal;
  /**
   * How the pipeline will transform an HTML answer. An engine that fetches on a transform thread
   * runs the transform there too and returns it as `transformed`, so the page crosses between
   * threads once; other engines ignore it.
   */
  transform?: FetchTransform;
  /** Browser only: run in order after the page loads, before capture. */
  actions?: Action[];
  /** Browser only: refuse known ad and tracker hosts and remove cookie-consent overlays. */
  blockAds?: boolean;
  /** Browser only: cookies and storage to load before navigating (a profile). */
  storageState?: BrowserStorageState;
  /** Browser only: hand back the context's cookies and storage after capture. */
  captureStorageState?: boolean;
  /** Browser only: read the computed styles of the page's main elements (see RenderedStyles). */
  styles?: boolean;
}

/**
 * Computed styles of a rendered page's telling elements, as the browser resolved them (cascade,
 * inheritance and scripts applied): colours as the browser writes them (`rgb(...)`), font
 * families as declared stacks. Bounded: a few elements of each kind.
 */
export interface RenderedStyles {
  colorScheme: string;
  root: ElementStyle;
  body: ElementStyle;
  headings: ElementStyle[];
  links: ElementStyle[];
  buttons: ElementStyle[];
  code: ElementStyle[];
}

export interface ElementStyle {
  color: string;
  backgroundColor: string;
  fontFamily: string;
  borderColor?: string;
  borderRadius?: string;
}

/** Cookies and per-origin localStorage, as Playwright's `storageState` has them. */
export interface BrowserStorageState {
  cookies: {
    name: string;
    value: string;
    domain: string;
    path: string;
    expires: number;
    httpOnly: boolean;
    secure: boolean;
    sameSite: 'Strict' | 'Lax' | 'None';
  }[];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
}

export interface FetchResult {
  engine: EngineName;
  /** Final URL after redirects. */
  url: string;
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  contentType: string;
  /** Raw response bytes as received (for the browser: the main document's bytes). */
  body: Buffer;
  /**
   * Decoded document text when the response is HTML/XML/text (browser: the rendered DOM); left
   * out after a transform whose request did not keep it.
   */
  text?: string;
  screenshot?: { data: Buffer; mime: 'image/png' | 'image/jpeg' };
  /** Address of the server actually connected to, when known. */
  remoteAddress?: string;
  /** What the scrape's actions produced. */
  actions?: ActionOutput;
  /** The context's cookies and storage after capture, when asked for. */
  storageState?: BrowserStorageState;
  /** The rendered page's computed styles, when the request asked (browser only). */
  styles?: RenderedStyles;
  timings: { totalMs: number };
  /** The request's `transform`, already run on `text` (see FetchRequest.transform). */
  transformed?: TransformResult;
  /** With `transformed`, when the transform asked `checkJavaScript`: whether the page is a script shell. */
  needsJavaScript?: boolean;
}

export interface Engine {
  readonly name: EngineName;
  fetch(req: FetchRequest): Promise<FetchResult>;
  close(): Promise<void>;
}

/**
 * A transform sent with a fetch, and what the caller still needs of the page's text after it.
 * Copying the text back from a page thread costs about as much as a fifth of the transform, on
 * every page of a crawl, and most scrapes read only the transform.
 */
export interface FetchTransform extends PageTransform {
  /** The caller reads `text` after the transform (rawHtml, a block check); otherwise it may be left out. */
  keepText: boolean;
  /** Answer `needsJavaScript` where the text is, for a caller that may fall back to a browser. */
  checkJavaScript: boolean;
}
