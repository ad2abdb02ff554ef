/**
 * Decides whether an outbound request may go to a URL. Engines call it before every request
 * they make (first hop, each redirect, every browser sub-request) and again with the address
 * actually connected to, when they learn it.
 */
export interface UrlGuard {
  /** Throws an ApiError when the URL's scheme or resolved address is refused. */
  checkUrl(url: string): Promise<void>;
  /** Throws an ApiError when a connected peer address is refused. */
  checkAddress(ip: string, url: string): void;
  /**
   * A browser page's sub-resource or connection, when the guard treats those more lightly than
   * the pages asked for (a team's threat rules: lists, but no per-URL classifier scan); checkUrl
   * is used when absent.
   */
  checkSubresource?(url: string): Promise<void>;
}
