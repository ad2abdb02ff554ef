/**
 * Where the descriptions of a definition list (`<dd>`: a reference's entry, a glossary's term)
 * sit in the kept content. A reference says the same sentence of several of its entries ("Part
 * of the Stable ABI.", "Changed in version 3.7: the context argument was added."), as spec lists
 * repeat a feature: the last tidying leaves them alone (see withoutRepeatedText), as it leaves
 * list items alone.
 */
import type { BlockNode } from './block-node.js';
import { Int32Scratch } from './scratch.js';

const OFFSETS = new Int32Scratch();

/** Character spans [start, end) of the outermost descriptions in the content made of `ranges` of `out`'s chunks. */
export function describedSpans(nodes: readonly BlockNode[], out: readonly string[], ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> | undefined {
  let last = -1;
  for (let i = 0; i < nodes.length; i++) if (nodes[i]!.name === 'dd' && nodes[i]!.endChunk > last) last = nodes[i]!.endChunk;
  if (last < 0) return undefined;
  // Each kept chunk's offset in the content plus one, and so the offset after each kept range
  // (0: not kept); as far as the last description reaches.
  const at = OFFSETS.take(last + 1);
  let offset = 0;
  for (const [a, b] of ranges) {
    if (a > last) break;
    for (let c = a; c < b && c <= last; c++) {
      at[c] = offset + 1;
      offset += out[c]!.length;
    }
    if (b <= last) at[b] = offset + 1;
  }
  const spans: Array<[number, number]> = [];
  let end = -1;
  for (const n of nodes) {
    if (n.name !== 'dd' || n.endChunk < 0 || n.startChunk < end) continue;
    const s = at[n.startChunk]! - 1;
    const e = at[n.endChunk]! - 1;
    if (s < 0 || e <= s) continue;
    spans.push([s, e]);
    end = n.endChunk;
  }
  return spans.length > 0 ? spans : undefined;
}
