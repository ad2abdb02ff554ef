/**
 * Side notes: an `<aside>` inside the content landmark is furniture on most pages (a pull quote,
 * a "related" box, a share bar, an author's card), but documentation sets samples beside the
 * prose in one (a module's "Hello World" next to its introduction). Such an aside is kept open
 * and judged when it closes: one that holds a code block is the text's, any other goes, leaving
 * the filter as a dropped aside would have.
 */
import type { FilterState } from './filter-state.js';
import type { Frame, SideNote } from './frame.js';

/** Opens a side note (see dropReason): its headings are judged with it, not as the text's. */
export function openSideNote(s: FilterState): SideNote {
  s.sideNotes++;
  return {
    codeBlocks: s.codeBlocks,
    keptProse: s.keptProse,
    imageText: s.imageText,
    imageBlock: s.imageBlock,
    images: s.images,
    pictureHref: s.pictureHref,
    linkHref: s.linkHref,
    linkButton: s.linkButton,
    railLabel: s.railLabel,
    tail: s.tail,
    lastWord: s.lastWord,
  };
}

/** A side note has closed (judged or not, see dropBareSideNote). */
export function closeSideNote(s: FilterState): void {
  s.sideNotes--;
}

/**
 * Cuts a just-closed side note without a code block from the output, leaving what the rules read
 * next (the picture a caption may follow, a rail's label) as it was before it opened. Returns
 * whether it went.
 */
export function dropBareSideNote(s: FilterState, frame: Frame, note: SideNote): boolean {
  if (s.codeBlocks > note.codeBlocks) return false;
  s.truncateTo(frame);
  s.keptProse = note.keptProse;
  s.imageText = note.imageText;
  s.imageBlock = note.imageBlock;
  s.images = note.images;
  s.pictureHref = note.pictureHref;
  s.linkHref = note.linkHref;
  s.linkButton = note.linkButton;
  s.railLabel = note.railLabel;
  s.tail = note.tail;
  s.lastWord = note.lastWord;
  return true;
}
