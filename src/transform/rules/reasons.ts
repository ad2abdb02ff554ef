/** What a boilerplate verdict means for the page: whether it may be a misfire, whether it only hides. */

/**
 * When one subtree dropped by the boilerplate rules holds more prose than everything kept (and
 * at least this much), the rules misfired on the page's content (a builder's "widget" wrapper,
 * say): the page is cleaned again with that subtree exempt.
 */
export const MISFIRE_MIN_PROSE = 500;
/**
 * A site's footer holds prose of its own (how to reach customer service, what the site is, its
 * copyright), which can outweigh a short article: a subtree named a footer counts as a misfire
 * only when it holds this many times the prose kept (the page's content in a "page-footer"
 * wrapper holds far more).
 */
export const FOOTER_MISFIRE_FACTOR = 2;

/** Whether a boilerplate reason is that the element is hidden (an attribute, ARIA or a style), not what it is. */
export function isHiddenReason(why: string | undefined): boolean {
  return why === 'hidden' || why === 'aria-hidden' || why === 'hidden-style';
}
