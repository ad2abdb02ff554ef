/**
 * Branding from what the browser rendered: the computed styles of real elements (see
 * RenderedStyles) laid over what the page's CSS text and markup gave. They see what a style-sheet
 * reader cannot (colours set by scripts, inherited, or cascaded from rules it cannot tie to an
 * element), so where they say something they win; the logo, icons and name still come from the
 * markup.
 */
import { firstFamily, isGrey, luminance, normColor, type BrandingProfile } from '../../llm/offline/branding.js';
import type { ElementStyle, RenderedStyles } from '../types.js';

/** `#rrggbb` for a colour the browser paints (alpha over one half), else undefined. */
function painted(c: string | undefined): string | undefined {
  if (!c || c === 'transparent') return undefined;
  const hex = normColor(c);
  return /^#[0-9a-f]{6}$/.test(hex) ? hex : undefined;
}

/** Values by how many of the elements show them, most first. */
function ranked(values: (string | undefined)[]): string[] {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([v]) => v);
}

const stack = (fontFamily: string): string[] =>
  fontFamily
    .split(',')
    .map((f) => f.replace(/["']/g, '').trim())
    .filter(Boolean);

export function withRenderedStyles(base: BrandingProfile, s: RenderedStyles): BrandingProfile {
  const out: BrandingProfile = { ...base };
  const colors = { ...base.colors };
  const background = painted(s.body.backgroundColor) ?? painted(s.root.backgroundColor) ?? colors.background ?? (/^\s*dark/.test(s.colorScheme) ? '#121212' : '#ffffff');
  colors.background = background;
  const text = painted(s.body.color);
  if (text) colors.textPrimary = text;
  // A button's fill is the brand's loudest colour; a grey or a fill equal to the page's is no brand.
  const fills = ranked(s.buttons.map((b) => painted(b.backgroundColor)).filter((c) => c !== undefined && c !== background && !isGrey(c)));
  const links = ranked(s.links.map((l) => painted(l.color)));
  const brandLinks = links.filter((c) => !isGrey(c));
  if (links[0]) colors.link = links[0];
  const primary = fills[0] ?? brandLinks[0];
  if (primary) colors.primary = primary;
  const accent = brandLinks.find((c) => c !== colors.primary) ?? fills.find((c) => c !== colors.primary);
  if (accent) colors.accent = accent;
  if (colors.secondary && (colors.secondary === colors.primary || colors.secondary === colors.accent)) {
    const other = [...fills, ...brandLinks].find((c) => c !== colors.primary && c !== colors.accent);
    if (other) colors.secondary = other;
    else delete colors.secondary;
  }
  out.colors = colors;

  const button = s.buttons.find((b) => painted(b.backgroundColor) === colors.primary);
  if (button) out.components = { buttonPrimary: box(button) };

  const heading = s.headings[0];
  const fontFamilies = { ...base.typography?.fontFamilies };
  const fontStacks: NonNullable<NonNullable<BrandingProfile['typography']>['fontStacks']> = {};
  if (s.body.fontFamily) {
    fontFamilies.primary = firstFamily(s.body.fontFamily);
    fontStacks.primary = stack(s.body.fontFamily);
  }
  if (heading?.fontFamily) {
    fontFamilies.heading = firstFamily(heading.fontFamily);
    fontStacks.heading = stack(heading.fontFamily);
  }
  if (s.code[0]?.fontFamily) fontFamilies.code = firstFamily(s.code[0].fontFamily);
  out.typography = { ...base.typography, fontFamilies, ...(Object.keys(fontStacks).length ? { fontStacks } : {}) };

  // Families the rendered elements use, by how many use them, then those only the CSS names.
  const counted = new Map<string, number>();
  for (const e of [s.body, ...s.headings, ...s.links, ...s.buttons, ...s.code]) {
    const f = e.fontFamily ? firstFamily(e.fontFamily) : '';
    if (f) counted.set(f, (counted.get(f) ?? 0) + 1);
  }
  const fonts = [...counted.entries()].sort((a, b) => b[1] - a[1]).map(([family, count]) => ({ family, count }));
  for (const f of base.fonts ?? []) if (!counted.has(f.family)) fonts.push(f);
  if (fonts.length) out.fonts = fonts;

  const lum = luminance(background);
  if (lum !== undefined) out.colorScheme = lum < 0.4 ? 'dark' : 'light';
  return out;
}

function box(b: ElementStyle): NonNullable<NonNullable<BrandingProfile['components']>['buttonPrimary']> {
  const out: NonNullable<NonNullable<BrandingProfile['components']>['buttonPrimary']> = {};
  const background = painted(b.backgroundColor);
  const textColor = painted(b.color);
  const borderColor = painted(b.borderColor);
  if (background) out.background = background;
  if (textColor) out.textColor = textColor;
  if (borderColor) out.borderColor = borderColor;
  if (b.borderRadius && b.borderRadius !== '0px') out.borderRadius = b.borderRadius;
  return out;
}
