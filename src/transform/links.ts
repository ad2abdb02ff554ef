/** The `links` format: every `<a href>` on the page, absolute, de-duplicated in document order. */
import type { AttrSource } from './html-util.js';
import { type Resolver, isHttpOrMailto } from './url.js';

export class LinkCollector {
  private readonly seen = new Set<string>();

  constructor(private readonly resolve: Resolver) {}

  /** Called for every `<a>` open tag, wherever it sits on the page. */
  open(attrs: AttrSource): void {
    const href = attrs.get('href');
    if (href === undefined) return;
    const url = this.resolve(href);
    // Fragments stay: the caller gets the URL exactly as it resolves. Anything that is not a
    // fetchable or mailable target (javascript:, tel:, data:) is not a link for our purposes.
    if (url !== undefined && isHttpOrMailto(url)) this.seen.add(url);
  }

  result(): string[] {
    return [...this.seen];
  }
}
