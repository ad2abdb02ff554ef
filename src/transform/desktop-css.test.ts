import { describe, expect, it } from 'vitest';
import { DesktopCss } from './desktop-css.js';
import { attrsFrom } from './html-util.js';

const hides = (sheets: string[], cls: string): boolean => {
  const css = new DesktopCss();
  for (const s of sheets) css.read(s);
  return css.hidesAny() && css.hides(attrsFrom({ class: cls }));
};

describe('DesktopCss', () => {
  it('hides a class that a @media block spanning a desktop hides', () => {
    expect(hides(['@media (min-width: 1200px) { .hidden-lg, .x { display: none } }'], 'box hidden-lg')).toBe(true);
    expect(hides(['@media screen and (min-width: 992px) and (max-width: 1399px) { .hidden-md { display:none } }'], 'hidden-md')).toBe(true);
  });

  it('leaves classes hidden only at other widths', () => {
    expect(hides(['@media (min-width: 1400px) { .hidden-xl { display: none } }'], 'hidden-xl')).toBe(false);
    expect(hides(['@media (min-width: 768px) and (max-width: 991px) { .hidden-sm { display: none } }'], 'hidden-sm')).toBe(false);
  });

  it('hides a copy shown on small screens only', () => {
    const sheet = '/* phone menu */ .mobile-only { display: none } @media (max-width: 991px) { .mobile-only { display: block } }';
    expect(hides([sheet], 'mobile-only nav')).toBe(true);
    expect(hides([sheet], 'nav')).toBe(false);
  });

  it('keeps such a copy when a rule at every width shows it after all', () => {
    const sheet = '.tab-pane { display: none } .tab-pane.active { display: block } @media (max-width: 767px) { .tab-pane { display: block } }';
    expect(hides([sheet], 'tab-pane active')).toBe(false);
  });

  it('reads sheets that hide nothing without hiding anything', () => {
    expect(hides(['@charset "utf-8"; body { color: red }', ''], 'anything')).toBe(false);
  });
});
