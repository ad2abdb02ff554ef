/** The `images` format: image URLs referenced by the page, absolute and de-duplicated. */
import { type AttrSource, decodeAttr } from './html-util.js';
import { type Resolver, isHttp } from './url.js';

/** Lazy-loading attributes that hold the real image while `src` holds a placeholder. */
export const LAZY_SRC_ATTRS = ['data-src', 'data-lazy-src', 'data-original', 'data-lazy', 'data-url'] as const;

/**
 * Picks the largest candidate of a `srcset`: the highest `w` descriptor, else the highest `x`
 * density, else the first candidate. Returns the decoded URL.
 */
export function bestSrcsetCandidate(rawSrcset: string): string | undefined {
  const s = decodeAttr(rawSrcset);
  let best: string | undefined;
  let bestScore = -1;
  let i = 0;
  const n = s.length;
  // Follows the shape of the HTML srcset algorithm: a URL runs to whitespace (commas inside it
  // are legal, as image CDNs use them); trailing commas end a candidate without descriptors.
  while (i < n) {
    while (i < n && (s[i] === ',' || /\s/.test(s[i]!))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !/\s/.test(s[i]!)) i++;
    let url = s.slice(start, i);
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      const dStart = i;
      let depth = 0;
      while (i < n && (s[i] !== ',' || depth > 0)) {
        if (s[i] === '(') depth++;
        else if (s[i] === ')') depth = Math.max(0, depth - 1);
        i++;
      }
      descriptor = s.slice(dStart, i).trim();
    }
    if (!url) continue;
    let score = 0;
    const m = /^([\d.]+)([wx])$/i.exec(descriptor.split(/\s+/)[0] ?? '');
    if (m) {
      const v = parseFloat(m[1]!);
      score = m[2]!.toLowerCase() === 'w' ? v : v * 1000;
    }
    if (best === undefined || score > bestScore) {
      best = url;
      bestScore = score;
    }
  }
  return best;
}

/** The URL an `<img>` really shows: `src`, or a lazy-loading attribute when `src` is a placeholder. */
export function imgSource(attrs: AttrSource): string | undefined {
  const src = attrs.get('src')?.trim();
  if (src && !src.startsWith('data:')) return src;
  for (const a of LAZY_SRC_ATTRS) {
    const v = attrs.get(a)?.trim();
    if (v) return v;
  }
  return src || undefined;
}

export class ImageCollector {
  private readonly seen = new Set<string>();

  constructor(private readonly resolve: Resolver) {}

  /** Called for img, source, and image-bearing meta tags anywhere on the page. */
  open(name: string, attrs: AttrSource): void {
    if (name === 'img') {
      this.add(imgSource(attrs));
      const srcset = attrs.get('srcset') ?? attrs.get('data-srcset');
      if (srcset) this.add(bestSrcsetCandidate(srcset), true);
    } else if (name === 'source') {
      const srcset = attrs.get('srcset') ?? attrs.get('data-srcset');
      if (srcset) this.add(bestSrcsetCandidate(srcset), true);
      // <source src> belongs to audio/video unless it declares an image type.
      else if (attrs.get('type')?.startsWith('image/')) this.add(attrs.get('src'));
    } else if (name === 'meta') {
      const key = (attrs.get('property') ?? attrs.get('name') ?? '').toLowerCase();
      if (key === 'og:image' || key === 'og:image:url' || key === 'og:image:secure_url' || key === 'twitter:image') {
        this.add(attrs.get('content'));
      }
    }
  }

  private add(value: string | undefined, decoded = false): void {
    if (!value) return;
    const url = this.resolve(value, decoded);
    // data: and blob: sources are not addressable images for a caller; keep web URLs only.
    if (url !== undefined && isHttp(url)) this.seen.add(url);
  }

  result(): string[] {
    return [...this.seen];
  }
}
