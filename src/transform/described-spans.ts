/**
 * Where the descriptions of a definition list (`<dd>`: a reference's entry, a glossary's term)
 * sit in the kept content. A reference says the same sentence of several of its entries ("Part
 * of the Stable ABI.", "Changed in version 3.7: the context argument was added."), as spec lists
 * repeat a feature: the last tidying leaves them alone (see withoutRepeatedText), as it leaves
 * list items alone.
 */
import type { BlockNode } from './block-node.js';

/** Character spans [start, end) of the outermost descriptions in the content made of `ranges` of `out`'s chunks. */
export function describedSpans(nodes: readonly BlockNode[], out: readonly string[], ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> | undefined {
  if (!nodes.some((n) => n.name === 'dd')) return undefined;
  // Each kept chunk's offset in the content, and the offset after each kept range (-1: not kept).
  const at = new Int32Array(out.length + 1).fill(-1);
  let offset = 0;
  for (const [a, b] of ranges) {
    for (let c = a; c < b; c++) {
      at[c] = offset;
      offset += out[c]!.length;
    }
    at[b] = offset;
  }
  const spans: Array<[number, number]> = [];
  let end = -1;
  for (const n of nodes) {
    if (n.name !== 'dd' || n.endChunk < 0 || n.startChunk < end) continue;
    const s = at[n.startChunk]!;
    const e = at[n.endChunk]!;
    if (s < 0 || e <= s) continue;
    spans.push([s, e]);
    end = n.endChunk;
  }
  return spans.length > 0 ? spans : undefined;
}
