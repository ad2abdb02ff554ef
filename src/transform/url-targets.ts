/** Where the kept links and pictures point: absolute, and never a script URL. */
import { type AttrSource, decodeAttr } from './html-util.js';
import { bestSrcsetCandidate, imgSource } from './images.js';
import { type Resolver, isHttp } from './url.js';

export const SCRIPT_URL = /^[\s\p{Cc}]*(?:javascript|vbscript):/iu;

/** Absolute link target, or undefined for script URLs that must not survive into output. */
export function linkTarget(resolve: Resolver, raw: string): string | undefined {
  const url = resolve(raw);
  if (url === undefined || (!isHttp(url) && SCRIPT_URL.test(url))) return undefined;
  return url;
}

export function resolveSrc(resolve: Resolver, raw: string): string | undefined {
  // data: URIs can be hundreds of kilobytes; they need no resolving, only re-quoting.
  const t = raw.trim();
  if (t.startsWith('data:')) return t.includes('&') ? decodeAttr(t) : t;
  return resolve(raw);
}

export function imageTarget(resolve: Resolver, attrs: AttrSource): string | undefined {
  const src = imgSource(attrs);
  if (src !== undefined) return resolveSrc(resolve, src);
  const srcset = attrs.get('srcset') ?? attrs.get('data-srcset');
  if (srcset === undefined) return undefined;
  const best = bestSrcsetCandidate(srcset);
  return best === undefined ? undefined : resolve(best, true);
}
