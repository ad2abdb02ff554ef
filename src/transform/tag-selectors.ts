/**
 * includeTags / excludeTags: CSS selectors are matched on a DOM (cheerio over htmlparser2, so
 * element start offsets agree with the streaming pass), and handed to that pass as the start
 * offsets of the matched elements. Only pages that use these options pay for the DOM.
 */
import { load } from 'cheerio';
import { looksLikeXhtml } from './html-util.js';
import { neutralizeMarkup } from './stream.js';

export interface SelectorStarts {
  includeStarts?: Set<number>;
  excludeStarts?: Set<number>;
}

export function selectorStarts(html: string, includeTags: readonly string[], excludeTags: readonly string[]): SelectorStarts {
  const include = includeTags.map((s) => s.trim()).filter(Boolean);
  const exclude = excludeTags.map((s) => s.trim()).filter(Boolean);
  if (include.length === 0 && exclude.length === 0) return {};
  // The same markup reading as the streaming pass, so the offsets name the same elements.
  const $ = load(neutralizeMarkup(html), {
    xml: {
      xmlMode: false,
      decodeEntities: true,
      withStartIndices: true,
      recognizeSelfClosing: looksLikeXhtml(html),
    },
  });
  const collect = (selectors: string[]): Set<number> => {
    const starts = new Set<number>();
    for (const sel of selectors) {
      let matched;
      try {
        matched = $(sel);
      } catch {
        // Selectors are validated at the API edge; one that still fails to compile matches nothing.
        continue;
      }
      matched.each((_i, el) => {
        if (typeof el.startIndex === 'number') starts.add(el.startIndex);
      });
    }
    return starts;
  };
  const out: SelectorStarts = {};
  if (include.length > 0) out.includeStarts = collect(include);
  if (exclude.length > 0) out.excludeStarts = collect(exclude);
  return out;
}
